// snow.quality on the driver: "off" allocates no snow texture, runs no pass and renders the
// same picture as untouched snow; a rung allocates what it asks for.
#include "../snow/FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "RenderTestSupport.hpp"
#include "core/quality.hpp"

namespace snowcap {
namespace {

using test::makeField;

Settings smallSettings() {
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    settings.look.detailNormal = 0.0;
    return settings;
}

struct LiveObjects {
    int textures = gpu::liveCount(gpu::ObjectKind::Texture);
    int framebuffers = gpu::liveCount(gpu::ObjectKind::Framebuffer);
};

TEST(QualityGL, OffAllocatesNothingAndRunsNothing) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = smallSettings();
    settings.snow.quality = Quality::Off;
    const LiveObjects before;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    EXPECT_EQ(gpu::liveCount(gpu::ObjectKind::Texture) - before.textures, 0);
    EXPECT_EQ(gpu::liveCount(gpu::ObjectKind::Framebuffer) - before.framebuffers, 0);
    EXPECT_EQ(field->bytes(), 0u);
    EXPECT_EQ(field->captureCount(), 0);
    EXPECT_FALSE(field->enabled());
    test::Sphere sphere;
    const DeformerInstance pressed = sphere.at({0, 0, -20});
    for (int i = 0; i < 5; ++i)
        field->step({&pressed, 1}, 1.0 / 60.0);
    field->reset();
    EXPECT_EQ(field->passesRun().capture, 0);
    EXPECT_EQ(field->passesRun().accumulate, 0);
    EXPECT_EQ(gpu::liveCount(gpu::ObjectKind::Texture) - before.textures, 0);

    // Live: custom allocates, off releases every snow texture again, custom comes back clean.
    settings.snow.quality = Quality::Custom;
    ASSERT_EQ(field->applySettings(settings), std::nullopt);
    EXPECT_GT(gpu::liveCount(gpu::ObjectKind::Texture) - before.textures, 0);
    EXPECT_GT(field->bytes(), 0u);
    field->step({&pressed, 1}, 1.0 / 60.0);
    settings.snow.quality = Quality::Off;
    ASSERT_EQ(field->applySettings(settings), std::nullopt);
    EXPECT_EQ(gpu::liveCount(gpu::ObjectKind::Texture) - before.textures, 0);
    EXPECT_EQ(gpu::liveCount(gpu::ObjectKind::Framebuffer) - before.framebuffers, 0);
    EXPECT_EQ(field->bytes(), 0u);
    settings.snow.quality = Quality::Custom;
    ASSERT_EQ(field->applySettings(settings), std::nullopt);
    EXPECT_EQ(test::maxOf(test::redOf(field->sim(0).persistent())), 0.0f);
}

TEST(QualityGL, OffRendersTheSamePictureAsUntouchedSnow) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto made = SceneRenderer::create(shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made));
    SceneRenderer& renderer = *std::get<0>(made);
    Settings settings = smallSettings();
    auto flat = makeField(settings, shaders); // custom, nothing pressed: flat snow
    ASSERT_TRUE(flat);
    settings.snow.quality = Quality::Off;
    auto off = makeField(settings, shaders);
    ASSERT_TRUE(off);
    for (SurfaceOutput output : {SurfaceOutput::Lit, SurfaceOutput::Height}) {
        const auto a = test::renderSim(renderer, *flat, 0, settings, 96, 64, output);
        const auto b = test::renderSim(renderer, *off, 0, settings, 96, 64, output);
        double worst = 0.0;
        for (std::size_t i = 0; i < a.size(); ++i)
            worst = std::max(worst, double(std::abs(a[i] - b[i])));
        RecordProperty("max_difference_" + std::to_string(int(output)), std::to_string(worst));
        // The off surface is one flat quad, the flat one a 64 x 64 grid of the same plane: the
        // only difference allowed is float interpolation across the plane (far below 8 bits;
        // llvmpipe measures exactly 0).
        EXPECT_LT(worst, 1e-4) << "output " << int(output);
    }
}

TEST(QualityGL, ARungAllocatesItsResolutionForBothSims) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = smallSettings();
    settings.snow.quality = Quality::Low;
    settings.sims[1].resolution = 128; // overridden by the rung
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    const QualityRung rung = qualityRung(Quality::Low);
    for (int s = 0; s < 2; ++s) {
        EXPECT_EQ(field->sim(s).region().resolution, rung.resolution);
        EXPECT_EQ(field->sim(s).settings().blur, rung.blur);
    }
    EXPECT_EQ(field->captureCount(), 1);
    EXPECT_EQ(field->settings().sims[1].resolution, 128); // as given, for an editor
    EXPECT_EQ(field->bytes(),
              field->capture(0).bytes() + field->sim(0).bytes() + field->sim(1).bytes());
}

} // namespace
} // namespace snowcap
