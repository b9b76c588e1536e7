#include "GLTestSupport.hpp"
#include "core/snow_math.hpp"
#include "gpu/objects.hpp"
#include "gpu/shader_library.hpp"
#include "gpu/timers.hpp"

#include <gtest/gtest.h>

namespace snowcap::gpu {
namespace {

TEST(GpuObjects, DefaultConstructedNeedsNoContextAndOwnsNothing) {
    Texture2D texture;
    Buffer buffer;
    Framebuffer framebuffer;
    EXPECT_EQ(texture.id(), 0u);
    EXPECT_EQ(buffer.id(), 0u);
    EXPECT_EQ(framebuffer.id(), 0u);
}

TEST(GpuObjects, CreateMoveDestroyLeavesNoLiveObjects) {
    const int before = totalLiveCount();
    {
        Texture2D texture(8, 8, TextureFormat::R16F, "test.texture");
        Texture2D depth(8, 8, TextureFormat::D32F, "test.depth");
        Buffer buffer(64, nullptr, "test.buffer");
        Framebuffer framebuffer(&texture, &depth, "test.framebuffer");
        VertexArray vertexArray("test.vao");
        Sampler sampler(GL_LINEAR, GL_CLAMP_TO_EDGE, "test.sampler");
        Query query(GL_TIMESTAMP);
        ProgramName program(glCreateProgram());
        ShaderName shader(glCreateShader(GL_VERTEX_SHADER));
        for (ObjectKind kind :
             {ObjectKind::Buffer, ObjectKind::Texture, ObjectKind::Framebuffer, ObjectKind::Program,
              ObjectKind::Shader, ObjectKind::VertexArray, ObjectKind::Sampler, ObjectKind::Query})
            EXPECT_GE(liveCount(kind), 1);
        EXPECT_EQ(totalLiveCount(), before + 9);

        // A move transfers the name and leaves 0 behind; the count does not change.
        const GLuint name = texture.id();
        Texture2D moved = std::move(texture);
        EXPECT_EQ(moved.id(), name);
        EXPECT_EQ(texture.id(), 0u); // NOLINT(bugprone-use-after-move): checking the contract
        Buffer movedBuffer;
        movedBuffer = std::move(buffer);
        EXPECT_EQ(buffer.id(), 0u); // NOLINT
        EXPECT_EQ(totalLiveCount(), before + 9);
        EXPECT_TRUE(glIsTexture(name));
    }
    EXPECT_EQ(totalLiveCount(), before);
}

TEST(GpuObjects, MoveAssignReleasesTheOldName) {
    const int before = liveCount(ObjectKind::Texture);
    Texture2D a(4, 4, TextureFormat::RGBA8, "a");
    Texture2D b(4, 4, TextureFormat::RGBA8, "b");
    const GLuint oldName = a.id();
    a = std::move(b);
    EXPECT_FALSE(glIsTexture(oldName));
    EXPECT_EQ(liveCount(ObjectKind::Texture), before + 1);
}

TEST(GpuObjects, R16FFramebufferRoundTripsValuesThroughADraw) {
    Texture2D target(16, 16, TextureFormat::R16F, "test.r16f");
    Framebuffer framebuffer(&target, nullptr, "test.fbo");
    ASSERT_EQ(framebuffer.completeness(), "");

    ShaderLibrary shaders(defaultShaderRoot());
    // Writes a value that depends on the texel so a transposed or shifted readback shows up.
    const std::string dir = "../tests/gpu/shaders";
    auto program = shaders.load({"texel_pattern",
                                 {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
                                  {GL_FRAGMENT_SHADER, dir + "/texel_pattern.frag"}},
                                 {}});
    ASSERT_TRUE(std::holds_alternative<ShaderProgram*>(program)) << std::get<std::string>(program);
    VertexArray vertexArray("test.fullscreen");
    framebuffer.bind();
    glUseProgram(std::get<ShaderProgram*>(program)->id());
    glBindVertexArray(vertexArray.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);

    const std::vector<float> texels = target.readFloats();
    ASSERT_EQ(texels.size(), 256u);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) {
            // Exactly representable in half: x / 16 + y / 256.
            const float expected = x / 16.0f + y / 256.0f;
            EXPECT_EQ(texels[y * 16 + x], expected) << x << "," << y;
        }
}

TEST(GpuObjects, TextureUploadAndClearRoundTrip) {
    Texture2D texture(4, 2, TextureFormat::R32F, "test.r32f");
    const std::vector<float> values = {0, 1, 2, 3, 4, 5, 6, 7.5f};
    texture.upload(values);
    EXPECT_EQ(texture.readFloats(), values);
    texture.clear(0.25f);
    EXPECT_EQ(texture.readFloats(), std::vector<float>(8, 0.25f));
    EXPECT_EQ(texture.bytes(), 32u);
}

TEST(GpuObjects, IncompleteFramebufferSaysWhy) {
    Framebuffer empty(nullptr, nullptr, "test.empty");
    EXPECT_FALSE(empty.completeness().empty());
}

TEST(GpuTimers, SerializedTimingMeasuresAPass) {
    PassTimer timer(TimingMethod::Serialized);
    timer.beginFrame();
    {
        auto scope = timer.scope("clear");
        Texture2D texture(256, 256, TextureFormat::RGBA16F, "test.timer");
        texture.clear(1.0f);
    }
    ASSERT_EQ(timer.latestMs().count("clear"), 1u);
    EXPECT_GE(timer.latestMs().at("clear"), 0.0);
    EXPECT_EQ(std::string(toString(timer.method())), "serialized_glfinish");
}

TEST(GpuTimers, TimerQueriesAreReadFramesLaterWithoutBlocking) {
    PassTimer timer(TimingMethod::TimerQuery);
    Texture2D texture(64, 64, TextureFormat::R16F, "test.timer");
    for (int frame = 0; frame < PassTimer::kFrames * 3; ++frame) {
        timer.beginFrame();
        timer.begin("clear");
        texture.clear(0.5f);
        timer.end("clear");
        glFinish(); // let results arrive; the ring itself never waits
    }
    ASSERT_EQ(timer.latestMs().count("clear"), 1u);
    EXPECT_GE(timer.latestMs().at("clear"), 0.0);
}

TEST(GpuTimers, LlvmpipeDefaultsToSerializedTiming) {
    EXPECT_EQ(trustworthyTimingMethod("llvmpipe (LLVM 15.0.6, 256 bits)"),
              TimingMethod::Serialized);
    EXPECT_EQ(trustworthyTimingMethod("NVIDIA H200/PCIe/SSE2"), TimingMethod::TimerQuery);
}

} // namespace
} // namespace snowcap::gpu
