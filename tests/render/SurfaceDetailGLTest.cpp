// The landscape's baked detail noise (shaders/surface/detail_bake.frag): it varies the snow's
// albedo, and a hot reload of its shader bakes it again.
#include "../snow/FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "RenderTestSupport.hpp"
#include "TestSupport.hpp"

#include <algorithm>
#include <filesystem>

namespace snowcap {
namespace {

// The spread (max - min) of the red channel: untouched snow's albedo is snow_colour scaled by
// the detail, so a flat field shows the noise and nothing else.
float redSpread(const std::vector<float>& rgba) {
    float lo = 1e9f, hi = -1e9f;
    for (std::size_t i = 0; i < rgba.size(); i += 4) {
        lo = std::min(lo, rgba[i]);
        hi = std::max(hi, rgba[i]);
    }
    return hi - lo;
}

TEST(SurfaceDetail, AlbedoShowsTheNoiseAndAReloadRebakesIt) {
    // A private copy of the shaders, so the test can edit one.
    const std::filesystem::path root = test::scratchDir() / "shaders";
    std::filesystem::copy(gpu::defaultShaderRoot(), root, std::filesystem::copy_options::recursive);
    gpu::ShaderLibrary shaders(root);
    Settings settings;
    settings.snow.resolution = 64;
    auto field = test::makeField(settings, shaders);
    ASSERT_TRUE(field);
    auto made = SceneRenderer::create(shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made));
    SceneRenderer& renderer = *std::get<0>(made);

    const auto baked =
        test::renderSim(renderer, *field, 0, settings, 96, 96, SurfaceOutput::Albedo, true);
    const float noisy = redSpread(baked);
    EXPECT_GT(noisy, 0.01f); // 0.95 + 0.08 fbm: a few percent of the snow colour

    // Flat detail (fbm 0.5 everywhere, no slope): after a reload the albedo is uniform.
    test::writeText(root / "surface/detail_bake.frag",
                    "#version 450 core\n"
                    "layout(location = 0) uniform float bakeSize;\n"
                    "layout(location = 0) out vec4 detail;\n"
                    "void main() { detail = vec4(0.5 + 0.0 * bakeSize); }\n");
    EXPECT_GT(shaders.reloadAll(), 0);
    for (const gpu::ShaderProgram* program : shaders.programs())
        EXPECT_EQ(program->reloadError(), "") << program->name();
    const auto rebaked =
        test::renderSim(renderer, *field, 0, settings, 96, 96, SurfaceOutput::Albedo, true);
    // Everywhere: the re-bake runs inside a view's scissor and must not be clipped by it.
    EXPECT_LT(redSpread(rebaked), 0.002f) << "before the reload: " << noisy;
}

} // namespace
} // namespace snowcap
