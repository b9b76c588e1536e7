// sim.X.blur: every mode's final image against the UE-faithful per_pixel spiral, PSNR reported.
#include "../snow/FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "RenderTestSupport.hpp"
#include "core/config.hpp"

namespace snowcap {
namespace {

TEST(BlurCompare, EveryCheapModesFinalImageIsWithinTheBenchBarOfPerPixel) {
    // Real prints (sphere presses through capture + accumulate) on a 128-texel, 4 cm region
    // with the resolution table's blur, lit and seen by the default perspective camera.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = 128;
    settings.snow.orthoWidthCm = 512.0;
    settings.sims[1].blur = BlurMode::Prepass;
    auto field = test::makeField(settings, shaders);
    ASSERT_TRUE(field);
    auto made = SceneRenderer::create(shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made));
    SceneRenderer& renderer = *std::get<0>(made);
    test::Sphere sphere;
    for (glm::vec3 p : {glm::vec3{-80, -40, -25}, glm::vec3{0, 20, -10}, glm::vec3{90, 60, -20},
                        glm::vec3{30, -90, -5}}) {
        const DeformerInstance pressed = sphere.at(p);
        field->step({&pressed, 1}, 1.0 / 60.0);
    }
    const auto perPixel = test::renderSim(renderer, *field, 0, settings, 192, 108);
    const auto maskA =
        test::renderSim(renderer, *field, 0, settings, 128, 128, SurfaceOutput::SnowMask, true);
    int modes = 0;
    for (BlurMode mode : allValues<BlurMode>()) {
        if (mode == BlurMode::PerPixel)
            continue;
        settings.sims[1].blur = mode;
        ASSERT_EQ(field->applySettings(settings), std::nullopt);
        const auto cheap = test::renderSim(renderer, *field, 1, settings, 192, 108);
        const double psnr = test::psnrRgb(perPixel, cheap);
        const auto maskB =
            test::renderSim(renderer, *field, 1, settings, 128, 128, SurfaceOutput::SnowMask, true);
        const double maskPsnr = test::psnrRgb(maskA, maskB);
        const std::string name(toString(mode));
        RecordProperty(name + "_lit_psnr_db", std::to_string(psnr));
        RecordProperty(name + "_mask_psnr_db", std::to_string(maskPsnr));
        std::printf("%s vs per_pixel: lit %.2f dB, snow mask %.2f dB\n", name.c_str(), psnr,
                    maskPsnr);
        // The bench issue's bar for the fastest mode: 40 dB (an rms error of 1 % of full
        // scale, under 3 levels of 8 bits).
        EXPECT_GE(psnr, 40.0) << name;
        ++modes;
    }
    EXPECT_GE(modes, 2); // prepass and separable
    // The images must differ from a blank: prints are there.
    EXPECT_GT(test::maxOf(std::vector<float>(maskA.begin(), maskA.end())), 0.5f);
}

} // namespace
} // namespace snowcap
