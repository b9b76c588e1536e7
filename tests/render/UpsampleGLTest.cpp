// The lit snow shaded at a lower rate (QualityRung::shadingScale, render/surface_upsample.hpp):
// close to the full-resolution picture but not it (the low-rate path ran), the debug outputs
// untouched by it, and no black from the low-rate clear at the snow's edge against the sky.
#include "../snow/FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "RenderTestSupport.hpp"
#include "core/quality.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

using test::makeField;

struct UpsampleFixture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    Settings settings;
    std::unique_ptr<SceneRenderer> renderer;
    std::unique_ptr<SnowField> field;

    void SetUp() override {
        settings.snow.quality = Quality::Low; // shades the lit snow at half the pixels a side
        settings.snow.orthoWidthCm = 256.0;
        settings.view.pitchDeg = 12.0; // low: the horizon and the sky in the picture
        auto made = SceneRenderer::create(shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made));
        renderer = std::move(std::get<0>(made));
        field = makeField(settings, shaders);
        ASSERT_TRUE(field);
        // A round print in the middle: walls and a floor to shade.
        const int n = field->sim(0).region().resolution;
        std::vector<float> texels(std::size_t(n) * n, 0.0f);
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x)
                if (std::hypot(x - n / 2.0, y - n / 2.0) < n / 8.0)
                    texels[std::size_t(y) * n + x] = 1.0f;
        glTextureSubImage2D(field->sim(0).persistent().id(), 0, 0, 0, n, n, GL_RED, GL_FLOAT,
                            texels.data());
    }

    std::vector<float> render(float scale, SurfaceOutput output = SurfaceOutput::Lit) {
        renderer->surface().setShadingScaleOverride(scale);
        return test::renderSim(*renderer, *field, 0, settings, kWidth, kHeight, output);
    }
    static constexpr int kWidth = 256, kHeight = 144;
};

TEST_F(UpsampleFixture, TheLowRungShadesAtHalfResolutionCloseToTheFullPicture) {
    ASSERT_EQ(renderer->surface().shadingScale(field->sim(0)), 0.5f);
    const auto full = render(1.0f);
    const auto low = render(0.0f); // the rung's
    const double psnr = test::psnrRgb(full, low);
    RecordProperty("psnr_db", std::to_string(psnr));
    EXPECT_TRUE(std::isfinite(psnr)) << "the low-rate path did not run";
    EXPECT_GT(psnr, 30.0);
}

TEST_F(UpsampleFixture, DebugOutputsStayAtFullResolution) {
    for (SurfaceOutput output : {SurfaceOutput::SnowMask, SurfaceOutput::Height}) {
        const auto full = render(1.0f, output);
        const auto low = render(0.5f, output);
        EXPECT_EQ(full, low) << "output " << int(output);
    }
}

TEST_F(UpsampleFixture, TheSnowsEdgeAgainstTheSkyTakesNothingFromTheClear) {
    // The top third: far snow, the horizon and the sky, no print. Shaded pixels the snow did
    // not cover hold the clear (black); mixed into the snow's edge they would darken it.
    const auto full = render(1.0f);
    const auto low = render(0.5f);
    auto darkest = [](const std::vector<float>& image) {
        float lowest = 1e9f;
        for (int y = 2 * kHeight / 3; y < kHeight; ++y)
            for (int x = 0; x < kWidth; ++x) {
                const float* p = &image[(std::size_t(y) * kWidth + x) * 4];
                lowest = std::min(lowest, 0.2126f * p[0] + 0.7152f * p[1] + 0.0722f * p[2]);
            }
        return lowest;
    };
    RecordProperty("darkest_full", std::to_string(darkest(full)));
    RecordProperty("darkest_low", std::to_string(darkest(low)));
    EXPECT_GT(darkest(low), darkest(full) - 0.03f);
}

} // namespace
} // namespace snowcap
