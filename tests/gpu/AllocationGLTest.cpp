// Texture allocation that fails (GL_OUT_OF_MEMORY, forced here by the test-only byte limit so
// it runs on any machine): the texture owns nothing and says why, and a snow field asked for a
// resolution it cannot get reports it and keeps its resolution and its prints.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "gpu/objects.hpp"
#include "scene/mesh.hpp"
#include "snow/snow_field.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

// Lifts the limit again whatever the test does.
struct ByteLimit {
    explicit ByteLimit(std::size_t bytes) { gpu::setTextureByteLimitForTesting(bytes); }
    ~ByteLimit() { gpu::setTextureByteLimitForTesting(0); }
};

TEST(AllocationGL, FailedTextureOwnsNothingAndSaysWhy) {
    const int before = gpu::liveCount(gpu::ObjectKind::Texture);
    {
        ByteLimit limit(256 * 256 * 2);
        const gpu::Texture2D fits(256, 256, gpu::TextureFormat::R16F, "fits");
        EXPECT_NE(fits.id(), 0u);
        EXPECT_EQ(fits.allocationError(), "");
        const gpu::Texture2D tooBig(8192, 8192, gpu::TextureFormat::R16F, "too big");
        EXPECT_EQ(tooBig.id(), 0u);
        EXPECT_EQ(tooBig.width(), 0);
        EXPECT_EQ(tooBig.allocationError(),
                  "cannot allocate 8192x8192 R16F (128 MiB): GL_OUT_OF_MEMORY (test limit)");
        EXPECT_EQ(gpu::liveCount(gpu::ObjectKind::Texture), before + 1);
        const gpu::TextureRequest requests[] = {{128, 128, gpu::TextureFormat::R16F},
                                                {512, 512, gpu::TextureFormat::D32F}};
        EXPECT_EQ(gpu::probeTextures(requests),
                  "cannot allocate 512x512 D32F (1 MiB): GL_OUT_OF_MEMORY (test limit)");
    }
    EXPECT_EQ(gpu::liveCount(gpu::ObjectKind::Texture), before);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(AllocationGL, FieldKeepsItsResolutionAndPrintsWhenTheNewSizeDoesNotFit) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    auto created = SnowField::create(settings, shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SnowField>>(created));
    SnowField& field = *std::get<0>(created);

    // A print at the centre, so "keeps its state" can be seen in the buffer.
    const Mesh sphere = makeSphere(30.0f);
    const gpu::GpuMesh gpuSphere(sphere, "sphere");
    const glm::mat4 model = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, 0.0f, -20.0f));
    const DeformerInstance press{&gpuSphere, model, sphere.bounds().transformed(model)};
    field.step(std::span(&press, 1), 1.0 / 60.0);
    const std::vector<float> before = field.sim(0).persistent().readFloats();
    ASSERT_GT(before[32 * 64 + 32], 0.1f);
    const int textures = gpu::liveCount(gpu::ObjectKind::Texture);

    Settings huge = settings;
    huge.snow.resolution = 8192;
    {
        ByteLimit limit(1024 * 1024 * 2); // 1024² R16F fits, 8192² does not
        const auto error = field.applySettings(huge);
        ASSERT_TRUE(error.has_value());
        EXPECT_EQ(*error, "snow.resolution 8192: cannot allocate 8192x8192 R16F (128 MiB): "
                          "GL_OUT_OF_MEMORY (test limit); keeping 64²");
    }
    EXPECT_EQ(field.settings().snow.resolution, 64);
    for (int i = 0; i < field.simCount(); ++i)
        EXPECT_EQ(field.sim(i).persistent().width(), 64);
    EXPECT_EQ(field.sim(0).persistent().readFloats(), before);
    EXPECT_EQ(gpu::liveCount(gpu::ObjectKind::Texture), textures);

    // Without the limit the same change goes through.
    Settings bigger = settings;
    bigger.snow.resolution = 128;
    EXPECT_EQ(field.applySettings(bigger), std::nullopt);
    EXPECT_EQ(field.sim(0).persistent().width(), 128);
}

} // namespace
} // namespace snowcap
