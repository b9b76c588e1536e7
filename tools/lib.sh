#!/usr/bin/env bash
# Shared set-up for ./tools/run and ./tools/test: install what is missing, configure, build.
# Sourced, not executed. Every step is idempotent and quick when nothing changed.

SNOWCAP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Debian 12 packages the build, the tests and the headless renderer need.
SNOWCAP_PACKAGES=(
    cmake ninja-build g++ pkg-config
    libglfw3-dev python3-glad libglm-dev libassimp-dev libimgui-dev libspdlog-dev
    libgtest-dev libtomlplusplus-dev libcli11-dev libstb-dev nlohmann-json3-dev libmeshoptimizer-dev
    libopenexr-dev ffmpeg libzstd-dev liblz4-dev libbullet-dev libenet-dev libgdal-dev gdal-bin
    libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri
)
# What only the tests need: a virtual X server for the viewer's tests, and a single-node Slurm
# (slurm-wlm, munge; iproute2 to bring up the loopback of its network namespace) for the
# scheduler test (tests/app/SweepSlurmTest.sh). SNOWCAP_NO_TEST_PACKAGES=1 leaves them out (the
# container image, Dockerfile).
SNOWCAP_TEST_PACKAGES=(xvfb xauth xdotool slurm-wlm munge iproute2)

# Only tools/fuzz needs these (clang with libFuzzer and its sanitizer runtimes); the default
# build and test path never installs them.
SNOWCAP_FUZZ_PACKAGES=(clang libclang-rt-14-dev)

snowcap_log() { printf '\033[1msnowcap:\033[0m %s\n' "$*" >&2; }

snowcap_install_packages() {
    local missing=()
    local pkg
    local wanted=("${SNOWCAP_PACKAGES[@]}")
    [ "${SNOWCAP_NO_TEST_PACKAGES:-0}" = 1 ] || wanted+=("${SNOWCAP_TEST_PACKAGES[@]}")
    for pkg in "${wanted[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0

    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null; then
            snowcap_log "missing packages (${missing[*]}) and no sudo to install them; install them as root"
            return 1
        fi
        sudo=(sudo)
    fi
    snowcap_log "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq || return 1
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || return 1
}

# snowcap_build PRESET [TARGET...]: configure (once) and build with a CMake preset; every
# target by default, or only the named ones (./tools/run builds just the app).
snowcap_build() {
    local preset="$1"
    shift
    cd "$SNOWCAP_ROOT" || return 1
    if [ ! -f "build/$preset/build.ninja" ]; then
        cmake --preset "$preset" >/dev/null || return 1
    fi
    local targets=()
    [ $# -gt 0 ] && targets=(--target "$@")
    cmake --build --preset "$preset" "${targets[@]}" || return 1
}
