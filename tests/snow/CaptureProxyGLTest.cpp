// Capture proxies on the driver: for every bundled mesh, in several poses (pressed shallow and
// deep, tilted, the biped through its walk), the proxy's capture against the full mesh's. The
// footprint (texels below the snow top) must agree with an intersection-over-union of at least
// 0.95. Depth: a proxy within e of the surface can move a surface at slope t by e / cos t
// vertically, so where both touch and the full surface is below 45 degrees the depths may differ
// by at most e * sqrt(2) (0.71 cm at the default e = 0.5 cm). On steeper walls, the rim of a
// deep sphere's print, a lateral half-texel becomes centimetres of depth: those texels are
// reported (max, 99th percentile, count over 0.5 cm), not bounded. The capture has the
// default scenario's texel (1 cm) and the proxies the bound a default scenario gives them (half
// a texel); a dense sphere stands for the heavy meshes proxies are for.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "gpu/gpu_mesh.hpp"
#include "scene/capture_proxy.hpp"
#include "scene/deformer.hpp"
#include "snow/contact_capture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <map>
#include <utility>

namespace snowcap {
namespace {

constexpr int kResolution = 256;
constexpr double kCameraZ = -100.0, kFar = 2000.0;

struct Comparison {
    int full = 0, proxy = 0, both = 0, either = 0;
    double maxDepthDiffCm = 0.0;
    double p99DepthDiffCm = 0.0;  // 99th percentile over the texels both touch
    double maxGentleDiffCm = 0.0; // over the texels where the full surface is below 45 degrees
    int over = 0;                 // texels both touch that differ by more than 0.5 cm
    double iou() const { return either ? double(both) / either : 1.0; }
};

struct CaptureProxyFixture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    const gpu::ShaderProgram* program = nullptr;

    void SetUp() override {
        auto loaded = shaders.load(contactCaptureProgram());
        ASSERT_TRUE(std::holds_alternative<gpu::ShaderProgram*>(loaded))
            << std::get<std::string>(loaded);
        program = std::get<gpu::ShaderProgram*>(loaded);
    }

    static Deformer load(const std::string& file, const std::string& clip = {}) {
        DeformerSettings settings;
        settings.name = file;
        settings.mesh = "assets/meshes/" + file;
        settings.clip = clip;
        settings.path = {{0.0, glm::vec3(0.0f)}};
        auto made = loadDeformer(settings, test::sourceDir(), 0.0);
        if (auto* error = std::get_if<std::string>(&made)) {
            ADD_FAILURE() << *error;
            return {};
        }
        return std::move(std::get<Deformer>(made));
    }

    // Depth (cm above the camera) of `mesh` posed by `model` and `skinning`.
    std::vector<float> captureOf(const gpu::GpuMesh& mesh, const Region& region,
                                 const glm::mat4& model, std::span<const glm::mat4> skinning) {
        ContactCapture capture({region, kCameraZ, kFar});
        const Aabb everywhere{glm::vec3(-1e5f), glm::vec3(1e5f)};
        const DeformerInstance instance{&mesh, model, everywhere, skinning};
        capture.capture({&instance, 1}, *program);
        std::vector<float> depth = capture.depth().readFloats();
        for (float& d : depth)
            d *= float(kFar);
        return depth;
    }

    static Comparison compare(const std::vector<float>& full, const std::vector<float>& proxy) {
        const float snowTop = float(-kCameraZ); // contact: closer to the camera than the top
        Comparison c;
        std::vector<double> diffs;
        const int n = int(std::lround(std::sqrt(double(full.size()))));
        for (std::size_t i = 0; i < full.size(); ++i) {
            const bool a = full[i] < snowTop, b = proxy[i] < snowTop;
            c.full += a;
            c.proxy += b;
            c.both += a && b;
            c.either += a || b;
            if (!(a && b))
                continue;
            const double diff = std::abs(full[i] - proxy[i]);
            diffs.push_back(diff);
            c.maxDepthDiffCm = std::max(c.maxDepthDiffCm, diff);
            c.over += diff > 0.5;
            // Steepness from the full capture's neighbours (1 cm texels: cm per cm).
            const int x = int(i) % n, y = int(i) / n;
            double slope = 0.0;
            for (auto [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
                const int nx = x + dx, ny = y + dy;
                if (nx < 0 || ny < 0 || nx >= n || ny >= n)
                    continue;
                const float other = full[std::size_t(ny) * n + nx];
                slope = std::max(slope, other < snowTop ? double(std::abs(other - full[i])) : 1e9);
            }
            if (slope <= 1.0)
                c.maxGentleDiffCm = std::max(c.maxGentleDiffCm, diff);
        }
        if (!diffs.empty()) {
            std::sort(diffs.begin(), diffs.end());
            c.p99DepthDiffCm = diffs[std::min(diffs.size() - 1, diffs.size() * 99 / 100)];
        }
        return c;
    }

    // The default scenario's texel, 1 cm, over a square that holds every bundled mesh.
    static Region regionAround(const Mesh& mesh) {
        const Aabb box = mesh.bounds();
        return {{0.5 * (box.min.x + box.max.x), 0.5 * (box.min.y + box.max.y)},
                double(kResolution),
                kResolution};
    }
};

TEST_F(CaptureProxyFixture, RigidMeshesMatchTheFullCaptureInSeveralPoses) {
    const double bound = captureProxyErrorCm(Settings{}); // half of the default 1 cm texel
    ASSERT_DOUBLE_EQ(bound, regionAround(Mesh{}).texelCm() / 2.0);
    std::vector<std::pair<std::string, Mesh>> meshes;
    for (const std::string file : {"boot.glb", "paw.glb", "sled.glb", "sphere.glb", "wheels.glb"})
        meshes.emplace_back(file, load(file).mesh);
    // 65k triangles, the kind of mesh the proxy is for; its lowest point on the origin.
    Mesh dense = makeSphere(25.0f, 256, 128);
    for (glm::vec3& p : dense.positions)
        p.z += 25.0f;
    meshes.emplace_back("dense sphere", std::move(dense));
    for (const auto& [file, mesh] : meshes) {
        ASSERT_FALSE(mesh.indices.empty()) << file;
        const Region region = regionAround(mesh);
        const CaptureProxy proxy = buildCaptureProxy(mesh, bound);
        const gpu::GpuMesh full(mesh, "full");
        const gpu::GpuMesh simplified(mesh, "proxy", proxy.indices);
        std::printf("%-12s %6zu -> %6d triangles (bound %.3f cm, measured %.3f cm)\n", file.c_str(),
                    mesh.indices.size() / 3, simplified.captureTriangleCount(), bound,
                    measureProxyErrorCm(mesh, proxy.indices, 1u << 20));
        const float height = mesh.bounds().max.z - mesh.bounds().min.z;
        struct Pose {
            const char* name;
            float pressCm, tiltXDeg, tiltYDeg, turnDeg;
        };
        // Its lowest point goes to -press (the snow top is z = 0); tilts turn it about its base.
        const Pose poses[] = {{"shallow", 0.1f * height, 0, 0, 0},
                              {"deep", 0.45f * height, 0, 0, 0},
                              {"tilted", 0.3f * height, 12, -8, 0},
                              {"turned", 0.3f * height, 0, 6, 37}};
        for (const Pose& pose : poses) {
            glm::mat4 model = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, -pose.pressCm));
            model = glm::rotate(model, glm::radians(pose.turnDeg), glm::vec3(0, 0, 1));
            model = glm::rotate(model, glm::radians(pose.tiltXDeg), glm::vec3(1, 0, 0));
            model = glm::rotate(model, glm::radians(pose.tiltYDeg), glm::vec3(0, 1, 0));
            const Comparison c = compare(captureOf(full, region, model, {}),
                                         captureOf(simplified, region, model, {}));
            std::printf("  %-8s footprint %5d / %5d texels, IoU %.4f, depth diff max %.3f p99 %.3f "
                        "gentle %.3f over %d\n",
                        pose.name, c.full, c.proxy, c.iou(), c.maxDepthDiffCm, c.p99DepthDiffCm,
                        c.maxGentleDiffCm, c.over);
            EXPECT_GT(c.full, 20) << file << " " << pose.name;
            EXPECT_GE(c.iou(), 0.95) << file << " " << pose.name;
            EXPECT_LE(c.maxGentleDiffCm, bound * std::sqrt(2.0)) << file << " " << pose.name;
        }
    }
}

// Every triangle split in four at its edge midpoints: the same surface with four times the
// triangles, each new vertex skinned by the blend of its edge's two (the four heaviest joints,
// renormalised), so a simplifier has something to remove while the shape stays the biped's.
struct SkinnedMesh {
    Mesh mesh;
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
};

SkinnedMesh subdivided(const Mesh& mesh, std::span<const glm::u16vec4> joints,
                       std::span<const glm::vec4> weights) {
    SkinnedMesh out{mesh, {joints.begin(), joints.end()}, {weights.begin(), weights.end()}};
    out.mesh.indices.clear();
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoints;
    auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
        const auto key = std::minmax(a, b);
        if (auto found = midpoints.find(key); found != midpoints.end())
            return found->second;
        std::map<std::uint16_t, float> blend;
        for (std::uint32_t v : {a, b})
            for (int k = 0; k < 4; ++k)
                blend[joints[v][k]] += 0.5f * weights[v][k];
        std::vector<std::pair<float, std::uint16_t>> ranked;
        for (const auto& [joint, weight] : blend)
            ranked.emplace_back(weight, joint);
        std::sort(ranked.rbegin(), ranked.rend());
        ranked.resize(4, {0.0f, 0});
        const float total = ranked[0].first + ranked[1].first + ranked[2].first + ranked[3].first;
        glm::u16vec4 j;
        glm::vec4 w;
        for (int k = 0; k < 4; ++k) {
            j[k] = ranked[k].second;
            w[k] = ranked[k].first / total;
        }
        const auto index = std::uint32_t(out.mesh.positions.size());
        out.mesh.positions.push_back(0.5f * (mesh.positions[a] + mesh.positions[b]));
        out.mesh.normals.push_back(glm::normalize(mesh.normals[a] + mesh.normals[b]));
        out.joints.push_back(j);
        out.weights.push_back(w);
        midpoints.emplace(key, index);
        return index;
    };
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
        const std::uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
        out.mesh.indices.insert(out.mesh.indices.end(),
                                {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca});
    }
    return out;
}

// The biped through its walk: as bundled (332 triangles, nothing to remove at half a 1 cm texel,
// so at a 2 cm texel, a 4096 cm region at 2048²), and subdivided at the default 1 cm texel.
TEST_F(CaptureProxyFixture, SkinnedBipedProxyWalksLikeTheFullMesh) {
    const Deformer walker = load("biped.glb", "walk");
    ASSERT_TRUE(walker.skin);
    const DeformerSkin& skin = *walker.skin;
    EXPECT_TRUE(buildCaptureProxy(walker.mesh, 0.5, skin.joints, skin.weights).indices.empty());
    const SkinnedMesh dense = subdivided(walker.mesh, skin.joints, skin.weights);
    struct Case {
        const char* name;
        const SkinnedMesh mesh;
        int resolution; // over 256 cm: room for a stride
    };
    const Case cases[] = {{"biped", {walker.mesh, skin.joints, skin.weights}, 128},
                          {"biped x4", dense, 256}};
    for (const Case& c : cases) {
        Region region = regionAround(c.mesh.mesh);
        region.resolution = c.resolution;
        const double bound = region.texelCm() / 2.0;
        const CaptureProxy proxy =
            buildCaptureProxy(c.mesh.mesh, bound, c.mesh.joints, c.mesh.weights);
        ASSERT_FALSE(proxy.indices.empty()) << c.name;
        const gpu::GpuMesh full(c.mesh.mesh, c.mesh.joints, c.mesh.weights, "full");
        const gpu::GpuMesh simplified(c.mesh.mesh, c.mesh.joints, c.mesh.weights, "proxy",
                                      proxy.indices);
        ASSERT_TRUE(simplified.skinned() && simplified.hasCaptureProxy()) << c.name;
        std::printf("%-12s %6zu -> %6d triangles (bound %.3f cm, measured %.3f cm)\n", c.name,
                    c.mesh.mesh.indices.size() / 3, simplified.captureTriangleCount(), bound,
                    measureProxyErrorCm(c.mesh.mesh, proxy.indices, 1u << 20));
        const glm::mat4 model = glm::translate(walker.modelAt(0.0), glm::vec3(0, 0, -8.0f));
        for (double t : {0.1, 0.35, 0.6, 0.85}) {
            const std::vector<glm::mat4> pose = walker.skinningAt(t);
            const Comparison m = compare(captureOf(full, region, model, pose),
                                         captureOf(simplified, region, model, pose));
            std::printf("  t=%.2f s  footprint %5d / %5d texels, IoU %.4f, depth diff max %.3f\n",
                        t, m.full, m.proxy, m.iou(), m.maxDepthDiffCm);
            EXPECT_GT(m.full, 20) << c.name << " t = " << t;
            EXPECT_GE(m.iou(), 0.95) << c.name << " t = " << t;
            // Soles are flat: here even the steepest texel holds 0.5 cm.
            EXPECT_LE(m.maxDepthDiffCm, 0.5) << c.name << " t = " << t;
        }
    }
}

} // namespace
} // namespace snowcap
