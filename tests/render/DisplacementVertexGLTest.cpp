// sim.X.displacement: the vertex grid and hardware tessellation give the same height at the grid
// vertices they share (every tessellation patch corner is a grid vertex). The neighbouring
// SurfaceGLTest pins their agreement everywhere to within the interpolation error; this pins
// the shared vertices exactly, where neither interpolates.
#include "GLTestSupport.hpp"
#include "render/frame.hpp"
#include "render/scene_renderer.hpp"
#include "render/snow_surface_pass.hpp"
#include "snow/snow_field.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSize = 64;          // buffer texels = grid cells per side
constexpr double kWidthCm = 256.0; // 4 cm cells; 32 patches of 8 cm

TEST(Displacement, GridAndTessellationAgreeAtSharedVertices) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = kSize;
    settings.snow.orthoWidthCm = kWidthCm;
    settings.sims[0].material.maskMulti = 1.0;
    settings.sims[0].material.rtBlurDistance = 3.0 / kSize;
    auto created = SnowField::create(settings, shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SnowField>>(created));
    SnowField& field = *std::get<0>(created);
    auto made = SceneRenderer::create(shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made));
    SceneRenderer& renderer = *std::get<0>(made);

    // A smooth bowl with a varying depth, off centre.
    const Region& region = field.sim(0).region();
    std::vector<float> texels(kSize * kSize);
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const double r = glm::length(texelCentreToWorld({x, y}, region) - glm::dvec2(10, -20));
            texels[y * kSize + x] = static_cast<float>(std::clamp((80.0 - r) / 50.0, 0.0, 1.0));
        }
    glTextureSubImage2D(field.sim(0).persistent().id(), 0, 0, 0, kSize, kSize, GL_RED, GL_FLOAT,
                        texels.data());

    // One pixel per cell, the view shifted half a pixel so pixel centres sit on grid vertices.
    std::vector<std::vector<float>> heights;
    for (SurfaceGeometry geometry : {SurfaceGeometry::VertexGrid, SurfaceGeometry::Tessellation}) {
        settings.sims[0].displacement = geometry;
        ASSERT_EQ(field.applySettings(settings), std::nullopt);
        gpu::Texture2D colour(kSize, kSize, gpu::TextureFormat::RGBA32F, "test.colour");
        gpu::Texture2D depth(kSize, kSize, gpu::TextureFormat::D32F, "test.depth");
        gpu::Framebuffer framebuffer(&colour, &depth, "test.fbo");
        Region view = region;
        view.centreCm -= glm::dvec2(0.5 * kWidthCm / kSize);
        FrameView top;
        top.request.framebuffer = framebuffer.id();
        top.request.camera = topCamera(view, settings.snow.surfaceZCm, 1.0);
        // The default eye (10 m up): a moderate level; the maximum would take llvmpipe a minute.
        top.request.viewportPx = {0, 0, kSize, kSize};
        top.request.output = SurfaceOutput::Height;
        runFrame(field, renderer, {{}, 0.0, {{top}}});
        heights.push_back(colour.readFloats());
    }
    const int cellsPerPatch = kSize / SnowSurfacePass::kPatchesPerSide;
    double worst = 0.0, deepest = 0.0;
    for (int y = cellsPerPatch; y < kSize; y += cellsPerPatch)
        for (int x = cellsPerPatch; x < kSize; x += cellsPerPatch) {
            const std::size_t i = (static_cast<std::size_t>(y) * kSize + x) * 4;
            worst = std::max(worst, double(std::abs(heights[0][i] - heights[1][i])));
            deepest = std::min(deepest, double(heights[0][i]));
        }
    RecordProperty("max_vertex_height_difference_cm", std::to_string(worst));
    EXPECT_LT(deepest, -10.0); // the bowl is there
    // Same function at the same point; only float evaluation order may differ.
    EXPECT_LT(worst, 1e-3);
}

} // namespace
} // namespace snowcap
