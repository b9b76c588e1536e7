// The surface over prints in the mud ([ground] kind = "mud", GROUND_PRINTS): a snowpack state
// with prints written into its A is drawn from above; the surface stands on the prints' bottoms
// (height = ground - print + snow depth), and the one whose print holds water is a puddle:
// darker and glossier than the dry print's mud. The same state over rock draws no print.
#include "../snow/FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "RenderTestSupport.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace snowcap {
namespace {

constexpr int kSize = 64;        // texels of 2 cm over 128 cm
constexpr int kView = 128;       // pixels of 1 cm
constexpr double kDepthCm = 0.5; // the initial depth: the surface's reference below surface_z
constexpr float kPrintCm = 3.0f;

// Bare mud everywhere (the snow gone); three boxes of texels [x0, x0 + 12) x [20, 44):
// a dry 3 cm print (x0 8), the same print holding 20 kg/m2 of water (x0 26), and flat mud
// holding 20 kg/m2 (x0 44: no print to hold it, so no puddle).
std::vector<float> bareMudWithPrints() {
    std::vector<float> rgba(static_cast<std::size_t>(kSize) * kSize * 4, 0.0f);
    for (int y = 20; y < 44; ++y)
        for (int x = 0; x < kSize; ++x) {
            float* c = &rgba[(static_cast<std::size_t>(y) * kSize + x) * 4];
            if (x >= 8 && x < 20)
                c[3] = kPrintCm;
            if (x >= 26 && x < 38) {
                c[2] = 20.0f;
                c[3] = kPrintCm;
            }
            if (x >= 44 && x < 56)
                c[2] = 20.0f;
        }
    return rgba;
}

struct Pixels {
    double height = 0.0, albedo = 0.0, roughness = 0.0, normalZ = 1.0;
};

// Means over the pixels 3 cm or more inside a box of texels [x0, x0 + 12) x [20, 44).
Pixels boxMeans(const std::vector<float>& height, const std::vector<float>& albedo,
                const std::vector<float>& roughness, const std::vector<float>& normal, int x0) {
    Pixels p;
    p.normalZ = 1.0;
    int count = 0;
    for (int j = 2 * 20 + 3; j < 2 * 44 - 3; ++j)
        for (int i = 2 * x0 + 3; i < 2 * (x0 + 12) - 3; ++i) {
            const std::size_t at = (static_cast<std::size_t>(j) * kView + i) * 4;
            p.height += height[at];
            p.albedo += (albedo[at] + albedo[at + 1] + albedo[at + 2]) / 3.0;
            p.roughness += roughness[at];
            p.normalZ = std::min(p.normalZ, double(normal[at + 2]));
            ++count;
        }
    p.height /= count;
    p.albedo /= count;
    p.roughness /= count;
    return p;
}

struct Drawn {
    Pixels dry, puddle, wetFlat, flat;
    double worstHeightError = 0.0; // against ground - print inside the boxes, -0.5 outside
};

Drawn drawOver(GroundKind kind) {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    Settings settings;
    settings.snow.resolution = kSize;
    settings.snow.quality = Quality::Custom; // a grid cell a texel
    settings.snow.orthoWidthCm = 2.0 * kSize;
    settings.sims.resize(1);
    settings.sims[0].model = SimModel::Snowpack;
    settings.sims[0].snowpack.depthCm = kDepthCm;
    settings.sims[0].material.rtBlurDistance = 0.004;
    settings.ground.kind = kind;
    Drawn drawn;
    auto field = test::makeField(settings, shaders);
    if (!field)
        return drawn;
    EXPECT_EQ(field->snowpack(0)->groundTakesPrints(), kind == GroundKind::Mud);
    const std::vector<float> state = bareMudWithPrints();
    glTextureSubImage2D(field->snowpack(0)->state().id(), 0, 0, 0, kSize, kSize, GL_RGBA, GL_FLOAT,
                        state.data());
    auto made = SceneRenderer::create(shaders);
    EXPECT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made));
    if (!std::holds_alternative<std::unique_ptr<SceneRenderer>>(made))
        return drawn;
    SceneRenderer& renderer = *std::get<0>(made);
    const auto render = [&](SurfaceOutput output) {
        return test::renderSim(renderer, *field, 0, settings, kView, kView, output, true);
    };
    const std::vector<float> height = render(SurfaceOutput::Height);
    const std::vector<float> albedo = render(SurfaceOutput::Albedo);
    const std::vector<float> roughness = render(SurfaceOutput::Roughness);
    const std::vector<float> normal = render(SurfaceOutput::Normal);
    drawn.dry = boxMeans(height, albedo, roughness, normal, 8);
    drawn.puddle = boxMeans(height, albedo, roughness, normal, 26);
    drawn.wetFlat = boxMeans(height, albedo, roughness, normal, 44);
    // Flat, dry mud: the rows below the boxes.
    {
        Pixels& p = drawn.flat;
        int count = 0;
        for (int j = 10; j < 30; ++j)
            for (int i = 10; i < kView - 10; ++i) {
                const std::size_t at = (static_cast<std::size_t>(j) * kView + i) * 4;
                p.height += height[at];
                p.albedo += (albedo[at] + albedo[at + 1] + albedo[at + 2]) / 3.0;
                p.roughness += roughness[at];
                ++count;
            }
        p.height /= count;
        p.albedo /= count;
        p.roughness /= count;
    }
    // Every pixel but those within 3 cm of a print's edge (the bilinear state and the grid's
    // cells ramp there) and within kBorder of the region's (the edge fade lifts the surface to
    // the initial depth's level there).
    const bool prints = kind == GroundKind::Mud;
    constexpr int kBorder = 8;
    const auto within = [](int i, int j, int x0, int margin) {
        return i >= 2 * x0 + margin && i < 2 * (x0 + 12) - margin && j >= 2 * 20 + margin &&
               j < 2 * 44 - margin;
    };
    for (int j = kBorder; j < kView - kBorder; ++j)
        for (int i = kBorder; i < kView - kBorder; ++i) {
            bool onEdge = false, inPrint = false;
            for (int x0 : {8, 26}) {
                onEdge = onEdge || (within(i, j, x0, -3) && !within(i, j, x0, 3));
                inPrint = inPrint || within(i, j, x0, 3);
            }
            if (onEdge)
                continue;
            const double expected = -kDepthCm - (prints && inPrint ? kPrintCm : 0.0);
            drawn.worstHeightError = std::max(
                drawn.worstHeightError,
                std::abs(height[(static_cast<std::size_t>(j) * kView + i) * 4] - expected));
        }
    return drawn;
}

TEST(GroundPrintSurfaceGL, TheSurfaceStandsInThePrintAndItsWaterIsAPuddle) {
    const Drawn mud = drawOver(GroundKind::Mud);
    std::printf("mud prints drawn: heights flat %.4f, dry print %.4f, puddle %.4f cm (worst "
                "error %.2g); albedo flat %.4f, dry print %.4f, wet flat %.4f, puddle %.4f; "
                "roughness flat %.3f, wet flat %.3f, puddle %.3f; puddle normal z >= %.6f\n",
                mud.flat.height, mud.dry.height, mud.puddle.height, mud.worstHeightError,
                mud.flat.albedo, mud.dry.albedo, mud.wetFlat.albedo, mud.puddle.albedo,
                mud.flat.roughness, mud.wetFlat.roughness, mud.puddle.roughness,
                mud.puddle.normalZ);
    // The grid's vertices interpolate linearly: exact where the print's floor is flat.
    EXPECT_LT(mud.worstHeightError, 1e-3);
    EXPECT_NEAR(mud.dry.height, -kDepthCm - kPrintCm, 1e-3);
    EXPECT_NEAR(mud.puddle.height, -kDepthCm - kPrintCm, 1e-3);
    EXPECT_NEAR(mud.flat.height, -kDepthCm, 1e-3);
    // Water held in the print: a dark, glossy, level puddle; the same water on flat mud only
    // darkens it (the ground's wet darkening), and the dry print is the dry mud's colour.
    EXPECT_NEAR(mud.dry.albedo, mud.flat.albedo, 0.1 * mud.flat.albedo);
    EXPECT_LT(mud.wetFlat.albedo, 0.6 * mud.flat.albedo);
    EXPECT_LT(mud.puddle.albedo, 0.5 * mud.wetFlat.albedo);
    EXPECT_LT(mud.puddle.roughness, 0.1);
    EXPECT_GT(mud.wetFlat.roughness, 0.5);
    EXPECT_GT(mud.puddle.normalZ, 0.9999);

    // Rock: the ground takes no print; the state's A is not drawn, and no water is a puddle.
    const Drawn rock = drawOver(GroundKind::Rock);
    std::printf("rock: heights dry print box %.4f, puddle box %.4f (worst error %.2g); "
                "roughness there %.3f\n",
                rock.dry.height, rock.puddle.height, rock.worstHeightError, rock.puddle.roughness);
    EXPECT_LT(rock.worstHeightError, 1e-3);
    EXPECT_GT(rock.puddle.roughness, 0.5);
}

} // namespace
} // namespace snowcap
