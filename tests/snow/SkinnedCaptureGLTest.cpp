// GPU skinning in the capture: the skinned biped posed on the GPU leaves the same depth as the
// same pose skinned on the CPU (scene/skeleton.hpp), and its feet take turns touching the snow.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "gpu/gpu_mesh.hpp"
#include "scene/deformer.hpp"
#include "snow/contact_capture.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

struct SkinnedCapture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    const gpu::ShaderProgram* program = nullptr;
    Deformer walker;

    void SetUp() override {
        auto loaded = shaders.load(contactCaptureProgram());
        ASSERT_TRUE(std::holds_alternative<gpu::ShaderProgram*>(loaded));
        program = std::get<gpu::ShaderProgram*>(loaded);
        DeformerSettings settings;
        settings.name = "walker";
        settings.mesh = "assets/meshes/biped.glb";
        settings.clip = "walk";
        settings.path = {{0.0, glm::vec3(0.0f, 0.0f, -10.0f)}};
        auto made = loadDeformer(settings, test::sourceDir(), 0.0);
        ASSERT_TRUE(std::holds_alternative<Deformer>(made)) << std::get<std::string>(made);
        walker = std::move(std::get<Deformer>(made));
        ASSERT_TRUE(walker.skin);
    }

    // Depth (cm above the camera) under the walker, 1 cm a texel over 128 x 128 cm.
    std::vector<float> captureAt(const gpu::GpuMesh& mesh, std::span<const glm::mat4> pose) {
        ContactCapture capture({{{0.0, 0.0}, 128.0, 128}, -100.0, 2000.0});
        const glm::mat4 model = walker.modelAt(0.0);
        Aabb everywhere{glm::vec3(-1e4f), glm::vec3(1e4f)};
        const DeformerInstance instance{&mesh, model, everywhere, pose};
        capture.capture({&instance, 1}, *program);
        std::vector<float> depth = capture.depth().readFloats();
        for (float& d : depth)
            d *= 2000.0f;
        return depth;
    }
};

TEST_F(SkinnedCapture, GpuPoseMatchesTheCpuSkinnedMesh) {
    const gpu::GpuMesh skinned(walker.mesh, walker.skin->joints, walker.skin->weights, "skinned");
    for (double t : {0.1, 0.35, 0.6, 0.85}) {
        const std::vector<glm::mat4> pose = walker.skinningAt(t);
        const Mesh posed = skinMesh(walker.mesh, walker.skin->joints, walker.skin->weights, pose);
        const gpu::GpuMesh rigid(posed, "cpu_posed");
        const std::vector<float> gpu = captureAt(skinned, pose);
        const std::vector<float> cpu = captureAt(rigid, {});
        int touched = 0, differing = 0;
        for (std::size_t i = 0; i < gpu.size(); ++i) {
            touched += gpu[i] < 100.0f; // below the snow top
            // Float order differs (matrix blend on the GPU, blended positions on the CPU):
            // allow a millimetre, and a handful of edge texels that flip coverage.
            differing += std::abs(gpu[i] - cpu[i]) > 0.1f;
        }
        EXPECT_GT(touched, 50) << "t = " << t;
        EXPECT_LE(differing, 8) << "t = " << t;
    }
}

TEST_F(SkinnedCapture, FeetTakeTurnsInTheSnow) {
    const gpu::GpuMesh skinned(walker.mesh, walker.skin->joints, walker.skin->weights, "skinned");
    // Which half of the body (by y, the walker faces +X) presses into the snow over one cycle.
    int leftOnly = 0, rightOnly = 0;
    for (int step = 0; step < 20; ++step) {
        const std::vector<float> depth = captureAt(skinned, walker.skinningAt(step / 20.0));
        int left = 0, right = 0;
        for (int y = 0; y < 128; ++y)
            for (int x = 0; x < 128; ++x)
                if (depth[y * 128 + x] < 100.0f)
                    (y >= 64 ? left : right) += 1;
        leftOnly += left > 0 && right == 0;
        rightOnly += right > 0 && left == 0;
    }
    EXPECT_GT(leftOnly, 0);
    EXPECT_GT(rightOnly, 0);
}

} // namespace
} // namespace snowcap
