// The snow surface drapes over the terrain: every vertex of the region (vertex grid and
// tessellation) and of the skirt beyond it stands at the undisturbed top, snow.surface_z_cm +
// the terrain's height, less the print; the normal takes the ground's slope; a flat terrain
// leaves the programs and their bindings as they were. Read back from an orthographic camera
// straight down (the height output: a point's z above snow.surface_z_cm), against the CPU
// HeightField.
#include "GLTestSupport.hpp"
#include "core/config.hpp"
#include "render/frame.hpp"
#include "render/scene_renderer.hpp"
#include "render/snow_surface_pass.hpp"
#include "snow/snow_field.hpp"

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSize = 64;          // buffer texels = grid cells per side
constexpr double kWidthCm = 256.0; // 4 cm cells; 32 patches of 8 cm

// A field of `columns` x `rows` samples 20 cm apart around the origin from h(x, y) in cm at
// each sample's centre.
template <typename Height>
std::shared_ptr<const HeightField> fieldOf(int columns, int rows, Height h) {
    const double cellCm = 20.0;
    const glm::dvec2 size(columns * cellCm, rows * cellCm);
    std::vector<float> heightsM;
    for (int j = 0; j < rows; ++j)
        for (int i = 0; i < columns; ++i) {
            const double x = -size.x * 0.5 + (i + 0.5) * cellCm;
            const double y = size.y * 0.5 - (j + 0.5) * cellCm; // row 0 north
            heightsM.push_back(static_cast<float>(h(x, y) / 100.0));
        }
    return std::make_shared<const HeightField>(columns, rows, std::move(heightsM), glm::dvec2(0.0),
                                               size);
}

struct TerrainSurfaceFixture : ::testing::Test {
    void SetUp() override {
        settings.snow.resolution = kSize;
        settings.snow.orthoWidthCm = kWidthCm;
        settings.sims[0].material.maskMulti = 1.0;
        settings.sims[0].material.rtBlurDistance = 3.0 / kSize;
        auto created = SnowField::create(settings, shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SnowField>>(created));
        field = std::move(std::get<0>(created));
        auto made = SceneRenderer::create(shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made));
        renderer = std::move(std::get<0>(made));
    }

    // A smooth bowl of varying depth, off centre, in the sim's buffer.
    void press() {
        const Region& region = field->sim(0).region();
        std::vector<float> texels(kSize * kSize);
        for (int y = 0; y < kSize; ++y)
            for (int x = 0; x < kSize; ++x) {
                const double r =
                    glm::length(texelCentreToWorld({x, y}, region) - glm::dvec2(10, -20));
                texels[y * kSize + x] = static_cast<float>(std::clamp((80.0 - r) / 50.0, 0.0, 1.0));
            }
        glTextureSubImage2D(field->sim(0).persistent().id(), 0, 0, 0, kSize, kSize, GL_RED,
                            GL_FLOAT, texels.data());
    }

    // `output` from straight above over `pixels` x `pixels` pixels of `pixelCm` each, their
    // centres on the grid's vertices (the region's corner vertex at pixel `offset`), RGBA.
    std::vector<float> top(SurfaceOutput output, int pixels, double pixelCm) {
        gpu::Texture2D colour(pixels, pixels, gpu::TextureFormat::RGBA32F, "test.colour");
        gpu::Texture2D depth(pixels, pixels, gpu::TextureFormat::D32F, "test.depth");
        gpu::Framebuffer framebuffer(&colour, &depth, "test.fbo");
        Region view = field->sim(0).region();
        view.widthCm = pixels * pixelCm;
        view.centreCm -= glm::dvec2(0.5 * pixelCm); // pixel centres on vertices
        FrameView frameView;
        frameView.request.framebuffer = framebuffer.id();
        frameView.request.camera = topCamera(view, viewSurfaceZCm(*field, 0, settings), 1.0);
        frameView.request.viewportPx = {0, 0, pixels, pixels};
        frameView.request.output = output;
        frameView.request.drawSky = false;
        runFrame(*field, *renderer, {{}, 0.0, {{frameView}}});
        return colour.readFloats();
    }
    // Pixel (x, y)'s centre in world cm for top(..., pixels, pixelCm).
    glm::dvec2 pixelCentre(int x, int y, int pixels, double pixelCm) const {
        const glm::dvec2 centre = field->sim(0).region().centreCm;
        return centre - glm::dvec2(0.5 * pixelCm) +
               (glm::dvec2(x, y) + 0.5 - 0.5 * pixels) * pixelCm;
    }

    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    Settings settings;
    std::unique_ptr<SnowField> field;
    std::unique_ptr<SceneRenderer> renderer;
};

// Hills and a valley with a 3 m relief over 4 x 4 m, wider than the region, sampled every 20 cm
// (5 grid cells a terrain cell, so the bilinear field bends between the grid's vertices).
std::shared_ptr<const HeightField> hills() {
    return fieldOf(24, 20, [](double x, double y) {
        return 150.0 * std::sin(x / 70.0) * std::cos(y / 90.0) + 0.4 * x;
    });
}

TEST_F(TerrainSurfaceFixture, EveryVertexStandsOnTheTerrainPlusTheSnow) {
    press();
    // The print's relief alone (flat ground), then the same print on the hills: at every grid
    // vertex (and every tessellation patch corner) the difference is the CPU field's height.
    for (SurfaceGeometry geometry : {SurfaceGeometry::VertexGrid, SurfaceGeometry::Tessellation}) {
        SCOPED_TRACE(std::string(toString(geometry)));
        settings.sims[0].displacement = geometry;
        ASSERT_EQ(field->applySettings(settings), std::nullopt);
        field->setTerrain(nullptr);
        const std::vector<float> flat = top(SurfaceOutput::Height, kSize, kWidthCm / kSize);
        field->setTerrain(hills());
        const std::vector<float> draped = top(SurfaceOutput::Height, kSize, kWidthCm / kSize);
        const int step =
            geometry == SurfaceGeometry::VertexGrid ? 1 : kSize / SnowSurfacePass::kPatchesPerSide;
        double worst = 0.0, deepest = 0.0, lowest = 1e9, highest = -1e9;
        for (int y = step; y < kSize; y += step)
            for (int x = step; x < kSize; x += step) {
                const std::size_t i = (static_cast<std::size_t>(y) * kSize + x) * 4;
                const glm::dvec2 at = pixelCentre(x, y, kSize, kWidthCm / kSize);
                const double terrain = field->terrain()->heightCm(at.x, at.y);
                worst = std::max(worst, std::abs(double(draped[i]) - (terrain + flat[i])));
                deepest = std::min(deepest, double(flat[i]));
                lowest = std::min(lowest, terrain);
                highest = std::max(highest, terrain);
            }
        RecordProperty("max_vertex_error_cm_" + std::string(toString(geometry)),
                       std::to_string(worst));
        EXPECT_LT(deepest, -10.0);          // the print is there
        EXPECT_GT(highest - lowest, 100.0); // and so is the relief
        // Float rounding of a height of at most 2 m and a print of 5 cm: about 1e-5 cm; a
        // vertex misplaced by a twentieth of a grid cell on these slopes would be ~0.1 cm off.
        EXPECT_LT(worst, 2e-3);
    }
}

TEST_F(TerrainSurfaceFixture, TheSkirtFollowsTheTerrainWithoutASeamAtTheRegionsEdge) {
    // A tilted plane (about 17 degrees), 5 m up: every triangle of the region and of the skirt
    // holds it exactly, so any pixel off the plane is a cliff, a gap or a seam (and one left at
    // the clear colour, 0, a hole). The view is three regions wide, so the ring skirt's first
    // rings are in it.
    field->setTerrain(
        fieldOf(60, 60, [](double x, double y) { return 500.0 + 0.25 * x - 0.15 * y; }));
    const int pixels = 3 * kSize;
    const double pixelCm = kWidthCm / kSize;
    const std::vector<float> heights = top(SurfaceOutput::Height, pixels, pixelCm);
    double worst = 0.0;
    int missing = 0;
    for (int y = 0; y < pixels; ++y)
        for (int x = 0; x < pixels; ++x) {
            const std::size_t i = (static_cast<std::size_t>(y) * pixels + x) * 4;
            const glm::dvec2 at = pixelCentre(x, y, pixels, pixelCm);
            if (heights[i + 3] == 0.0f) { // the clear colour: nothing drawn here
                ++missing;
                continue;
            }
            worst = std::max(worst,
                             std::abs(double(heights[i]) - field->terrain()->heightCm(at.x, at.y)));
        }
    RecordProperty("max_plane_error_cm", std::to_string(worst));
    EXPECT_EQ(missing, 0);
    EXPECT_LT(worst, 5e-3); // float rounding of heights up to 650 cm
}

TEST_F(TerrainSurfaceFixture, UntouchedSnowTakesTheGroundsNormal) {
    // The same plane; with the snow's own bumps off (detail_normal 0) the normal of untouched
    // snow is the plane's, from the sampler's bilinear taps a cell apart.
    settings.look.detailNormal = 0.0;
    ASSERT_EQ(field->applySettings(settings), std::nullopt);
    field->setTerrain(fieldOf(60, 60, [](double x, double y) { return 0.25 * x - 0.15 * y; }));
    const std::vector<float> normals = top(SurfaceOutput::Normal, kSize, kWidthCm / kSize);
    const glm::dvec3 expected = glm::normalize(glm::dvec3(-0.25, 0.15, 1.0));
    double worst = 0.0;
    for (std::size_t i = 0; i < normals.size(); i += 4)
        worst = std::max(
            worst, glm::length(glm::dvec3(normals[i], normals[i + 1], normals[i + 2]) - expected));
    RecordProperty("max_normal_error", std::to_string(worst));
    EXPECT_LT(worst, 1e-3);
}

TEST_F(TerrainSurfaceFixture, AFlatTerrainLeavesTheSurfacesProgramsAsTheyWere) {
    // No terrain, a flat one and the hills: only the hills' surface binds the terrain (its
    // block and heights); a flat terrain draws the same image as none.
    auto surfacePasses = [&](std::shared_ptr<const HeightField> terrain, bool& bindsTerrain) {
        field->setTerrain(std::move(terrain));
        FrameView view;
        view.request.camera = topCamera(field->sim(0).region(), settings.snow.surfaceZCm, 1.0);
        view.request.viewportPx = {0, 0, kSize, kSize};
        Frame frame{{}, 0.0, {{view}}};
        bindsTerrain = false;
        for (const gpu::PassRecord& pass : framePasses(*field, *renderer, frame))
            for (const gpu::PassBinding& binding : pass.bindings)
                bindsTerrain = bindsTerrain || binding.resource == TerrainTexture::kResource ||
                               binding.slot == gpu::slot::kTerrainField;
    };
    bool binds = true;
    surfacePasses(nullptr, binds);
    EXPECT_FALSE(binds);
    surfacePasses(std::make_shared<const HeightField>(), binds);
    EXPECT_FALSE(binds);
    surfacePasses(hills(), binds);
    EXPECT_TRUE(binds);
    EXPECT_NE(renderer->terrainFor(field->terrain()), nullptr);

    field->setTerrain(nullptr);
    const std::vector<float> none = top(SurfaceOutput::Lit, kSize, kWidthCm / kSize);
    field->setTerrain(std::make_shared<const HeightField>());
    const std::vector<float> flat = top(SurfaceOutput::Lit, kSize, kWidthCm / kSize);
    EXPECT_EQ(none, flat);
    EXPECT_EQ(renderer->terrainFor(field->terrain()), nullptr);
}

} // namespace
} // namespace snowcap
