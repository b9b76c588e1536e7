// [ground] kind = "texture" on the driver: where the ground shows, the surface's albedo is the
// texture's colour at the pixel's world point (one repeat every texture_tile_cm from the world
// origin, the file's top row towards +Y), against a CPU expectation of which texel each pixel
// samples. A bad file on a live change is refused and the field keeps the texture it had.
#include "../snow/FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "RenderTestSupport.hpp"
#include "TestSupport.hpp"
#include "io/image.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace snowcap {
namespace {

constexpr int kPng = 64;         // the checker file: 64 x 64 pixels,
constexpr int kSquare = 16;      // 4 x 4 squares of 16 pixels
constexpr double kTileCm = 64;   // one repeat: 64 cm, so a square is 16 cm and a texel 1 cm
constexpr int kView = 128;       // the top view: 128 pixels over the 128 cm region (1 cm each)
constexpr double kDepthCm = 0.5; // a snowpack this thin: the ground shows through it
const glm::u8vec4 kWarm{230, 60, 40, 255}, kCold{40, 80, 200, 255};

double srgbToLinear(int byte) {
    const double c = byte / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// The checker's colour at file pixel (x, y), row 0 the top.
glm::u8vec4 checkerAt(int x, int y) {
    return ((x / kSquare) + (y / kSquare)) % 2 ? kWarm : kCold;
}

// The file pixel the world point (cm) samples, and how far it lies from a square's edge (cm).
struct Sampled {
    int x = 0, y = 0;
    double edgeCm = 0.0;
};
Sampled sampledAt(double xCm, double yCm) {
    const auto frac = [](double v) {
        return v - std::floor(v);
    };
    const double u = frac(xCm / kTileCm) * kPng, v = frac(yCm / kTileCm) * kPng; // texels
    Sampled s;
    s.x = std::min(int(u), kPng - 1);
    s.y = kPng - 1 - std::min(int(v), kPng - 1); // t = 0 is the file's bottom row
    const auto toEdge = [](double t) {
        const double in = t - kSquare * std::floor(t / kSquare);
        return std::min(in, kSquare - in);
    };
    s.edgeCm = std::min(toEdge(u), toEdge(v)) * (kTileCm / kPng);
    return s;
}

struct GroundScene {
    std::filesystem::path dir = test::scratchDir();
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    Settings settings;

    GroundScene() {
        ImageRgba8 checker(kPng, kPng);
        for (int y = 0; y < kPng; ++y)
            for (int x = 0; x < kPng; ++x)
                checker.set(x, y, checkerAt(x, y));
        EXPECT_FALSE(writePng(dir / "checker.png", checker));
        settings.snow.resolution = 64;
        settings.snow.orthoWidthCm = 128.0;
        settings.sims.resize(1);
        settings.sims[0].model = SimModel::Snowpack;
        settings.sims[0].snowpack.depthCm = kDepthCm;
        // A blur of half a centimetre: the depth's blurred copy falls towards its border (it
        // reads 0 past the region) only in the outermost pixel or two.
        settings.sims[0].material.rtBlurDistance = 0.004;
        settings.ground.kind = GroundKind::Texture;
        settings.ground.texture = (dir / "checker.png").string();
        settings.ground.textureTileCm = kTileCm;
    }
};

TEST(GroundTextureGL, GroundPixelsFollowTheChecker) {
    GroundScene scene;
    auto field = test::makeField(scene.settings, scene.shaders);
    ASSERT_TRUE(field);
    ASSERT_TRUE(field->groundTexture());
    auto made = SceneRenderer::create(scene.shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made));
    SceneRenderer& renderer = *std::get<0>(made);
    // Untouched: the column is the initial one everywhere.
    for (const SnowColumn& column : field->snowpack(0)->readBack())
        ASSERT_EQ(column.depthCm, float(kDepthCm));
    const std::vector<float> albedo = test::renderSim(renderer, *field, 0, scene.settings, kView,
                                                      kView, SurfaceOutput::Albedo, true);

    // The snowpack's layers (shaders/surface/material.glsl): the ground's share at this depth
    // is 1 - smoothstep(0, 3 cm, depth); the rest is fresh snow, look.snow_colour x (0.95 ..
    // 1.03) by the detail noise. Expected: that share of the texel's linear colour plus the
    // snow's at x 0.99; the noise's +-0.04 of the snow's 7 % share and the driver's sRGB
    // decode stay inside kTolerance.
    const double t = kDepthCm / 3.0;
    const double reveal = 1.0 - t * t * (3.0 - 2.0 * t);
    const glm::vec3 snowColour = scene.settings.look.snowColour;
    constexpr double kTolerance = 0.01;
    constexpr double kEdgeMarginCm = 1.5; // bilinear blends within half a texel (0.5 cm)
    int checked = 0, warm = 0, wrong = 0;
    double worst = 0.0;
    constexpr int kBorder = 4; // pixels left out at the region's border (the blur's fall-off)
    for (int j = kBorder; j < kView - kBorder; ++j) // bottom row first
        for (int i = kBorder; i < kView - kBorder; ++i) {
            const double xCm = -64.0 + (i + 0.5) * (128.0 / kView);
            const double yCm = -64.0 + (j + 0.5) * (128.0 / kView);
            const Sampled s = sampledAt(xCm, yCm);
            if (s.edgeCm < kEdgeMarginCm)
                continue;
            const glm::u8vec4 texel = checkerAt(s.x, s.y);
            double error = 0.0;
            for (int c = 0; c < 3; ++c) {
                const double expected =
                    reveal * srgbToLinear(texel[c]) + (1.0 - reveal) * 0.99 * snowColour[c];
                const float got = albedo[(static_cast<std::size_t>(j) * kView + i) * 4 + c];
                error = std::max(error, std::abs(double(got) - expected));
            }
            worst = std::max(worst, error);
            wrong += error > kTolerance;
            warm += texel == kWarm;
            ++checked;
        }
    std::printf("ground texture: %d pixels checked (%.0f %% of the view), %d warm; worst %.4f "
                "(tolerance %.3f), %d outside; the ground's share %.4f\n",
                checked, 100.0 * checked / (kView * kView), warm, worst, kTolerance, wrong, reveal);
    EXPECT_GT(checked, kView * kView / 2);
    EXPECT_NEAR(double(warm) / checked, 0.5, 0.05); // both colours, as the checker has them
    EXPECT_EQ(wrong, 0) << "worst " << worst;
}

TEST(GroundTextureGL, ABadFileOnALiveChangeKeepsTheTextureItHad) {
    GroundScene scene;
    auto field = test::makeField(scene.settings, scene.shaders);
    ASSERT_TRUE(field);
    const GroundTexture* before = field->groundTexture();
    ASSERT_TRUE(before);
    EXPECT_EQ(before->texture().width(), kPng);
    EXPECT_EQ(before->texture().levels(), 7); // 64 .. 1

    Settings bad = scene.settings;
    bad.ground.texture = (scene.dir / "nope.png").string();
    const std::optional<std::string> error = field->applySettings(bad);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->rfind("key 'ground.texture': " + bad.ground.texture + ": cannot open file", 0),
              0u)
        << *error;
    EXPECT_EQ(field->groundTexture(), before);
    EXPECT_EQ(field->settings().ground.texture, scene.settings.ground.texture);

    // Another key changes: the same file is not read again. Another kind: no texture.
    Settings edited = scene.settings;
    edited.ground.textureTileCm = 32.0;
    EXPECT_FALSE(field->applySettings(edited));
    EXPECT_EQ(field->groundTexture(), before);
    edited.ground.kind = GroundKind::Mud;
    EXPECT_FALSE(field->applySettings(edited));
    EXPECT_EQ(field->groundTexture(), nullptr);
}

} // namespace
} // namespace snowcap
