// A frame of instanced deformers: every deformer pass (capture, sun shadow map, each view's
// colour pass) draws once per mesh whatever the number of deformers sharing it, and the
// frame's picture and snow are those of the same deformers each with a mesh of its own (one
// draw each).
#include "../snow/FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "render/frame.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

struct InstancedFrame : ::testing::Test {
    static constexpr int kWidth = 128, kHeight = 64;
    static constexpr int kCount = 9;

    void SetUp() override {
        settings.snow.resolution = 64;
        settings.look.deformerShadows = true;
        field = test::makeField(settings, shaders);
        ASSERT_TRUE(field);
        auto made = SceneRenderer::create(shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made));
        renderer = std::move(std::get<0>(made));
        colour = gpu::Texture2D(kWidth, kHeight, gpu::TextureFormat::RGBA8, "test.colour");
        depth = gpu::Texture2D(kWidth, kHeight, gpu::TextureFormat::D32F, "test.depth");
        framebuffer = gpu::Framebuffer(&colour, &depth, "test.fbo");
        for (int i = 0; i < kCount; ++i)
            own.push_back(std::make_unique<gpu::GpuMesh>(sphere.mesh, "own"));
    }

    // Nine spheres in a ring pressing into the snow, on one shared mesh or each on its own.
    std::vector<DeformerInstance> ring(bool shared) const {
        std::vector<DeformerInstance> instances;
        for (int i = 0; i < kCount; ++i) {
            const float a = 6.2831853f * float(i) / kCount;
            DeformerInstance d =
                sphere.at({90.0f * std::cos(a), 90.0f * std::sin(a), -12.0f}, ContactType(i % 4));
            if (!shared)
                d.mesh = own[std::size_t(i)].get();
            instances.push_back(d);
        }
        return instances;
    }

    struct Result {
        std::vector<float> image, bufferA, bufferB;
    };
    Result frame(std::span<const DeformerInstance> instances) {
        field->reset();
        runFrame(*field, *renderer,
                 {instances,
                  1.0 / 60.0,
                  {splitViews(*field, settings, framebuffer.id(), kWidth, kHeight)}});
        return {colour.readFloats(), test::redOf(field->sim(0).persistent()),
                test::redOf(field->sim(1).persistent())};
    }

    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    Settings settings;
    std::unique_ptr<SnowField> field;
    std::unique_ptr<SceneRenderer> renderer;
    gpu::Texture2D colour, depth;
    gpu::Framebuffer framebuffer;
    test::Sphere sphere;
    std::vector<std::unique_ptr<gpu::GpuMesh>> own;
};

TEST_F(InstancedFrame, EveryDeformerPassDrawsOncePerMesh) {
    const std::vector<DeformerInstance> instances = ring(true);
    frame(instances);
    ASSERT_EQ(field->captureCount(), 1);
    EXPECT_EQ(field->capture(0).lastDraw().draws, 1);
    EXPECT_EQ(field->capture(0).lastDraw().instances, kCount);
    EXPECT_EQ(renderer->shadow().lastDraw().draws, 1);
    EXPECT_EQ(renderer->shadow().lastDraw().instances, kCount);
    EXPECT_EQ(renderer->lastDeformerDraw().draws, 1);
    EXPECT_EQ(renderer->lastDeformerDraw().instances, kCount);

    frame(ring(false)); // the same deformers, one mesh each: one draw each
    EXPECT_EQ(field->capture(0).lastDraw().draws, kCount);
    EXPECT_EQ(renderer->shadow().lastDraw().draws, kCount);
    EXPECT_EQ(renderer->lastDeformerDraw().draws, kCount);
}

TEST_F(InstancedFrame, SharedMeshGivesTheSamePictureAndSnowAsOneMeshEach) {
    const Result instanced = frame(ring(true));
    const Result separate = frame(ring(false));
    EXPECT_GT(test::maxOf(instanced.bufferB), 0.1f); // the spheres pressed (one step)
    EXPECT_EQ(instanced.bufferA, separate.bufferA);
    EXPECT_EQ(instanced.bufferB, separate.bufferB);
    EXPECT_EQ(instanced.image, separate.image);
}

} // namespace
} // namespace snowcap
