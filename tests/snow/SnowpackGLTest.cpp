// The snowpack passes on the driver against the CPU reference (src/snow/snowpack_reference.cpp),
// and a snowpack sim in a field beside a decay sim on the same capture.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "snow/snow_field.hpp"
#include "snow/snowpack_reference.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <utility>

namespace snowcap {
namespace {

constexpr int kSize = 64;
constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;

// A box seen from below, its bottom `bottomCm` above the ground (texel centres inside).
void stamp(std::vector<float>& depth, int x0, int y0, int x1, int y1, float bottomCm,
           const SnowpackConstants& c) {
    const float window = (bottomCm - c.cameraAboveGroundCm) / c.captureFarCm;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            depth[static_cast<std::size_t>(y) * kSize + x] =
                std::min(depth[static_cast<std::size_t>(y) * kSize + x], window);
}

// Step t of a sequence: a box pressed 2 cm above the ground (it ploughs), a foot 12 cm above
// (it compacts), then nothing (the rims slump).
std::vector<float> captureAt(int step, const SnowpackConstants& c) {
    std::vector<float> depth(static_cast<std::size_t>(kSize) * kSize, 1.0f);
    if (step < 10)
        stamp(depth, 20, 24, 40, 36, 2.0f, c);
    if (step >= 5 && step < 15)
        stamp(depth, 44 + step / 5, 10, 54 + step / 5, 30, 12.0f, c);
    return depth;
}

// Every texel within `tolerance` of the reference: the shaders' exp and tan are not the CPU's
// to the last bit (settling and the angle of repose), everything else is the same floats.
void expectMatches(const std::vector<SnowColumn>& gpu, const SnowpackGrid& cpu, float depthTol,
                   float densityTol) {
    ASSERT_EQ(gpu.size(), cpu.columns.size());
    float worstDepth = 0.0f, worstDensity = 0.0f;
    for (std::size_t t = 0; t < gpu.size(); ++t) {
        worstDepth = std::max(worstDepth, std::abs(gpu[t].depthCm - cpu.columns[t].depthCm));
        worstDensity =
            std::max(worstDensity, std::abs(densityOf(gpu[t]) - densityOf(cpu.columns[t])));
    }
    EXPECT_LE(worstDepth, depthTol);
    EXPECT_LE(worstDensity, densityTol);
    ::testing::Test::RecordProperty("worst_depth_cm", std::to_string(worstDepth));
    ::testing::Test::RecordProperty("worst_density", std::to_string(worstDensity));
}

TEST(SnowpackGL, MatchesTheCpuReference) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    settings.settleTimeScale = 3600.0; // settling visible within the run
    Region region;
    region.resolution = kSize;
    region.widthCm = kSize; // 1 cm texels
    SnowpackSim sim;
    auto error = sim.configure(settings, region, kCaptureZ, kFar, shaders);
    ASSERT_FALSE(error) << *error;
    SnowpackReference cpu(kSize, settings, kCaptureZ, kFar, 1.0);
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    for (int step = 0; step < 40; ++step) {
        const std::vector<float> depth = captureAt(step, cpu.constants());
        capture.upload(depth);
        sim.step(capture, 1.0 / 60.0);
        cpu.step(depth, 1.0 / 60.0);
        if (step == 0 || step == 9 || step == 39) {
            SCOPED_TRACE("step " + std::to_string(step));
            // Depths reach 70 cm in the ploughed ring: a few float steps of slack there.
            expectMatches(sim.readBack(), cpu.grid(), 2e-3f, 2e-2f);
        }
    }
    // The budget from the GPU's state closes.
    const SnowpackBudget budget = sim.budget();
    EXPECT_NEAR(budget.massKg, sim.massStartKg(), sim.massStartKg() * 1e-5);
    // The box packed 450; slump mixes it since (30 steps at 960 Hz leave about 300).
    EXPECT_GT(budget.maxDensityKgM3, 250.0);
    EXPECT_LE(budget.maxDensityKgM3, 450.0 * (1.0 + 1e-6));
    EXPECT_GT(budget.maxDepthCm, 31.0);
}

// The active tiles against every pass run on every tile (setActiveTiles(false), the passes as
// they were before the tiles): bit for bit, through contacts that arrive, move and leave,
// settling ticks, steps without a slump iteration (144 fps) and steps with several (30 fps),
// and a live change of the angle of repose.
TEST(SnowpackGL, ActiveTilesAreTheFullPasses) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    settings.settleTimeScale = 3600.0;
    settings.settleIntervalS = 0.25;
    Region region;
    region.resolution = kSize;
    region.widthCm = kSize;
    // 144 fps with 100 slump iterations a second: 0 or 1 a step; 30 fps at the default 960
    // Hz: 32 a step.
    for (const auto& [fps, slumpHz] : {std::pair{144.0, 100.0}, std::pair{30.0, 960.0}}) {
        SCOPED_TRACE(testing::Message() << fps << " fps");
        settings.slumpRateHz = slumpHz;
        SnowpackSim tiled, full;
        for (SnowpackSim* sim : {&tiled, &full}) {
            auto error = sim->configure(settings, region, kCaptureZ, kFar, shaders);
            ASSERT_FALSE(error) << *error;
        }
        full.setActiveTiles(false);
        gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
        const SnowpackConstants& c = tiled.constants();
        int busiest = 0, quietest = 1 << 30;
        const int steps = static_cast<int>(fps * 1.5);
        for (int step = 0; step < steps; ++step) {
            const double t = step / fps;
            std::vector<float> depth = captureAt(static_cast<int>(t * 60.0), c);
            // A plough dragged across the tiles at 40 cm/s until 1 s, then lifted.
            if (t < 1.0) {
                const int x = 2 + static_cast<int>(t * 40.0);
                stamp(depth, x, 40, x + 10, 52, 3.0f, c);
            }
            capture.upload(depth);
            if (step == steps / 2) {
                // A live change of the angle of repose: still snow anywhere may start to move.
                SnowpackSettings steeper = settings;
                steeper.reposeFreshDeg = 35.0;
                for (SnowpackSim* sim : {&tiled, &full})
                    ASSERT_FALSE(sim->configure(steeper, region, kCaptureZ, kFar, shaders));
            }
            tiled.step(capture, 1.0 / fps);
            full.step(capture, 1.0 / fps);
            const SnowpackSim::TileCounts counts = tiled.lastTileCounts();
            busiest = std::max(busiest, counts.compact);
            quietest = std::min(quietest, counts.compact);
            if (step % 9 == 0 || step == steps - 1) {
                const std::vector<SnowColumn> a = tiled.readBack(), b = full.readBack();
                ASSERT_EQ(a.size(), b.size());
                for (std::size_t i = 0; i < a.size(); ++i)
                    ASSERT_EQ(0, std::memcmp(&a[i], &b[i], sizeof(SnowColumn)))
                        << "step " << step << " texel " << i % kSize << ", " << i / kSize
                        << ": depth " << a[i].depthCm << " against " << b[i].depthCm;
            }
        }
        // The tiles did skip: 16 tiles of 16^2 here, the contacts never cover them all, and
        // the settling ticks list every one.
        EXPECT_EQ(full.lastTileCounts().compact, 16);
        EXPECT_EQ(busiest, 16);
        EXPECT_LT(quietest, 16);
    }
}

// A snowpack sim B beside a decay sim A on one shared capture: B's buffer is its state, A's is
// the mask, and a sphere pressed into both leaves a print in each.
TEST(SnowpackGL, BesideADecaySimOnTheSharedCapture) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    settings.sims[1].model = SimModel::Snowpack;
    auto made = test::makeField(settings, shaders);
    ASSERT_TRUE(made);
    SnowField& field = *made;
    EXPECT_EQ(field.captureCount(), 1);
    ASSERT_TRUE(field.snowpack(1));
    EXPECT_FALSE(field.snowpack(0));
    EXPECT_EQ(field.sim(1).persistent().format(), gpu::TextureFormat::RGBA32F);

    test::Sphere sphere; // its bottom 50 cm below the top: through the 30 cm to the ground
    const std::vector<DeformerInstance> deformers{sphere.at({0, 0, -20})};
    for (int i = 0; i < 5; ++i)
        field.step(deformers, 1.0 / 60.0);
    const std::vector<float> mask = field.sim(0).persistent().readFloats();
    const std::vector<SnowColumn> state = field.snowpack(1)->readBack();
    const int centre = 32 * 64 + 32;
    EXPECT_GT(mask[centre], 0.0f);
    EXPECT_LT(state[centre].depthCm, 1.0f);
    EXPECT_GT(field.snowpack(1)->budget().maxDepthCm, 30.5); // a rim
    EXPECT_NEAR(field.snowpack(1)->budget().massKg, field.snowpack(1)->massStartKg(),
                field.snowpack(1)->massStartKg() * 1e-5);
}

} // namespace
} // namespace snowcap
