// Capture proxies on the CPU: the error bound holds as measured (not only as the simplifier
// estimates it), meshes with nothing to lose get none, the skinned biped gets one at a coarse
// bound, and the bound follows the capture's texel.

#include "TestSupport.hpp"
#include "scene/capture_proxy.hpp"
#include "scene/model_import.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(CaptureProxy, SphereStaysWithinItsBound) {
    const Mesh sphere = makeSphere(30.0f, 64, 32);
    for (double bound : {0.25, 0.5, 1.0}) {
        const CaptureProxy proxy = buildCaptureProxy(sphere, bound);
        ASSERT_FALSE(proxy.indices.empty()) << bound;
        EXPECT_LT(proxy.triangles(), sphere.indices.size() / 3) << bound;
        EXPECT_LE(proxy.errorCm, bound) << bound;
        EXPECT_LE(measureProxyErrorCm(sphere, proxy.indices, 1u << 20), bound) << bound;
        for (std::uint32_t i : proxy.indices)
            ASSERT_LT(i, sphere.positions.size());
    }
    // A looser bound never keeps more triangles.
    EXPECT_LE(buildCaptureProxy(sphere, 1.0).triangles(),
              buildCaptureProxy(sphere, 0.25).triangles());
}

TEST(CaptureProxy, NoBoundNoProxy) {
    const Mesh sphere = makeSphere(30.0f);
    EXPECT_TRUE(buildCaptureProxy(sphere, 0.0).indices.empty());
    EXPECT_TRUE(buildCaptureProxy(sphere, -1.0).indices.empty());
    EXPECT_TRUE(buildCaptureProxy(Mesh{}, 1.0).indices.empty());
    // A box has nothing to lose: no proxy rather than the same triangles twice.
    EXPECT_TRUE(buildCaptureProxy(makeBox(glm::vec3(10.0f)), 1.0).indices.empty());
}

TEST(CaptureProxy, SkinnedBipedAtACoarseBound) {
    auto imported = importModel(test::sourceDir() / "assets/meshes/biped.glb", {});
    ASSERT_TRUE(std::holds_alternative<ImportedModel>(imported));
    const ImportedModel& model = std::get<ImportedModel>(imported);
    ASSERT_TRUE(model.skinned());
    // 332 triangles are already what its shape needs at half a 1 cm texel; at 1 cm some go.
    EXPECT_TRUE(buildCaptureProxy(model.mesh, 0.5, model.joints, model.weights).indices.empty());
    const CaptureProxy proxy = buildCaptureProxy(model.mesh, 1.0, model.joints, model.weights);
    ASSERT_FALSE(proxy.indices.empty());
    EXPECT_LT(proxy.triangles(), model.triangleCount());
    EXPECT_LE(measureProxyErrorCm(model.mesh, proxy.indices, 1u << 20), 1.0);
}

TEST(CaptureProxy, BoundFollowsTheFinestCapture) {
    Settings settings;
    EXPECT_DOUBLE_EQ(captureProxyErrorCm(settings), 2048.0 / 2048 / 2); // half a 1 cm texel
    settings.sims[1].resolution = 4096;
    EXPECT_DOUBLE_EQ(captureProxyErrorCm(settings), 2048.0 / 4096 / 2);
    settings.capture.proxyErrorCm = 2.0;
    EXPECT_DOUBLE_EQ(captureProxyErrorCm(settings), 2.0);
    settings.capture.proxy = CaptureProxyMode::Off;
    EXPECT_EQ(captureProxyErrorCm(settings), 0.0);
    settings = Settings{};
    settings.snow.quality = Quality::Off;
    EXPECT_EQ(captureProxyErrorCm(settings), 0.0);
}

} // namespace
} // namespace snowcap
