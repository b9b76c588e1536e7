// The frame's passes declare their state: a frame drawn over whatever GL state was left behind
// (a stray scissor, blend, culling, depth mask and framebuffer) gives the same image as one
// drawn from a clean state, timing it changes nothing, and the blur runs once per step.
#include "../snow/FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "render/frame.hpp"

#include <chrono>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

struct FrameFixture : ::testing::Test {
    static constexpr int kWidth = 128, kHeight = 64;

    void SetUp() override {
        settings.snow.resolution = 64;
        settings.sims[0].blur = BlurMode::Prepass;
        settings.sims[1].blur = BlurMode::Separable;
        field = test::makeField(settings, shaders);
        ASSERT_TRUE(field);
        auto made = SceneRenderer::create(shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made));
        renderer = std::move(std::get<0>(made));
        colour = gpu::Texture2D(kWidth, kHeight, gpu::TextureFormat::RGBA8, "test.colour");
        depth = gpu::Texture2D(kWidth, kHeight, gpu::TextureFormat::D32F, "test.depth");
        framebuffer = gpu::Framebuffer(&colour, &depth, "test.fbo");
        pressed = sphere.at({10.0f, -20.0f, -15.0f});
    }

    // One stepped frame (the press) drawn A | B with the deformer, read back.
    std::vector<float> frame(gpu::PassTimer* timer = nullptr) {
        runFrame(*field, *renderer,
                 {{&pressed, 1},
                  1.0 / 60.0,
                  {splitViews(*field, settings, framebuffer.id(), kWidth, kHeight)}},
                 timer);
        return colour.readFloats();
    }

    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    Settings settings;
    std::unique_ptr<SnowField> field;
    std::unique_ptr<SceneRenderer> renderer;
    gpu::Texture2D colour, depth;
    gpu::Framebuffer framebuffer;
    test::Sphere sphere;
    DeformerInstance pressed;
};

TEST_F(FrameFixture, StrayStateLeftByAnyoneChangesNothing) {
    const std::vector<float> clean = frame();
    field->reset();
    // What a careless pass could leave behind.
    gpu::Texture2D other(8, 8, gpu::TextureFormat::RGBA8, "test.other");
    gpu::Framebuffer stray(&other, nullptr, "test.stray");
    glBindFramebuffer(GL_FRAMEBUFFER, stray.id());
    glViewport(1, 1, 3, 3);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 2, 2);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_FRONT_AND_BACK);
    glDepthMask(GL_FALSE);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_NEVER);
    glUseProgram(0);
    EXPECT_EQ(frame(), clean);
}

TEST_F(FrameFixture, TimingRunsTheSamePasses) {
    const std::vector<float> untimed = frame();
    const long long captures = field->passesRun().capture;
    field->reset();
    gpu::PassTimer timer(gpu::TimingMethod::Serialized);
    timer.beginFrame();
    EXPECT_EQ(frame(&timer), untimed);
    EXPECT_EQ(field->passesRun().capture, 2 * captures);
    // A and B share the capture and one accumulate pass.
    for (const char* pass : {"capture", "accumulate.ab", "blur.a", "blur.b", "shadow",
                             "view.surface", "view.deformers", "view.sky"})
        EXPECT_TRUE(timer.latestMs().contains(pass)) << pass;
}

TEST_F(FrameFixture, TheBlurRunsOncePerStepAndOnlyWhenDrawn) {
    runFrame(*field, *renderer, {{&pressed, 1}, 1.0 / 60.0, {}}); // a step that draws nothing
    EXPECT_TRUE(field->sim(0).blurDue());
    EXPECT_TRUE(field->sim(1).blurDue());
    // Drawing only A blurs only A.
    std::vector<FrameView> views = splitViews(*field, settings, framebuffer.id(), kWidth, kHeight);
    runFrame(*field, *renderer, {{&pressed, 1}, 0.0, {{views[0]}}});
    EXPECT_FALSE(field->sim(0).blurDue());
    EXPECT_TRUE(field->sim(1).blurDue());
    // A second frame without a step finds both copies current once B is drawn too.
    runFrame(*field, *renderer, {{&pressed, 1}, 0.0, {views}});
    EXPECT_FALSE(field->sim(1).blurDue());
}

// A clock that moves 10 ms each time it is read: each begin/end pair measures exactly 10 ms.
std::chrono::steady_clock::time_point tenMillisecondsARead() {
    static std::chrono::steady_clock::time_point now{};
    now += std::chrono::milliseconds(10);
    return now;
}

TEST(PassTimer, APassRunTwiceInAFrameReportsTheSum) {
    // view.surface runs once per view: the frame's figure is both views together.
    gpu::PassTimer timer(gpu::TimingMethod::Serialized, &tenMillisecondsARead);
    auto timed = [&] {
        timer.begin("view.surface");
        timer.end("view.surface");
    };
    timer.beginFrame();
    timed();
    timed();
    EXPECT_EQ(timer.latestMs().at("view.surface"), 20.0);
    timer.beginFrame(); // a new frame starts a new sum
    timed();
    EXPECT_EQ(timer.latestMs().at("view.surface"), 10.0);
}

} // namespace
} // namespace snowcap
