# The snowcap image the cluster scripts run (tools/cluster/, docs/cluster.md): Debian 12, snowcap
# built headless. It renders through EGL: on Mesa's llvmpipe (the CPU) as it is, or on a GPU's
# driver where the node's runtime injects one (the NVIDIA container toolkit adds libEGL_nvidia,
# which libglvnd picks). No display, no X.
#
#   podman build -t snowcap --build-arg SNOWCAP_COMMIT=$(git rev-parse --short=12 HEAD) .
#   podman run --rm -v "$PWD/out:/sweep" snowcap sweep --scenario press_release \
#       --vary sim.b.decay=0.95,0.99 --at 1 --plan /sweep
#
# SNOWCAP_COMMIT names the commit in the binary (plan.json records it, the merge checks it);
# the build context has no .git, so without it the commit is "unknown".
FROM debian:12

ENV DEBIAN_FRONTEND=noninteractive
# One package list for the image, the tests and CI: tools/lib.sh (without the test-only ones).
COPY tools/lib.sh /src/tools/lib.sh
RUN SNOWCAP_NO_TEST_PACKAGES=1 bash -c 'source /src/tools/lib.sh && snowcap_install_packages' \
    && rm -rf /var/lib/apt/lists/*

COPY . /src
ARG SNOWCAP_COMMIT=unknown
# The binary finds config/, shaders/ and assets/ in the source tree it was built from (/src).
RUN cmake -S /src -B /src/build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DSNOWCAP_BUILD_TESTS=OFF -DSNOWCAP_COMMIT="${SNOWCAP_COMMIT}" \
    && cmake --build /src/build --target snowcap \
    && ln -s /src/build/snowcap /usr/local/bin/snowcap \
    && snowcap --version

WORKDIR /sweep
ENTRYPOINT ["snowcap"]
CMD ["--help"]
