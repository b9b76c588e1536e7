// A following snowpack (sim.X.region = "follow_snapped"): its state moves with the window by
// whole texels (SnowpackSim::shift) as the CPU reference moves it (shiftGrid), bit for bit; what
// leaves and what enters is carried through the budget, so the budget still closes while the
// window follows a walker across the field.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "snow/snow_field.hpp"
#include "snow/snowpack_reference.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSize = 64;
constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;

// A 12 x 10 texel box whose bottom is 2 cm above the ground, at (x0, y0): it ploughs.
std::vector<float> boxAt(int x0, int y0, const SnowpackConstants& c) {
    std::vector<float> depth(static_cast<std::size_t>(kSize) * kSize, 1.0f);
    const float window = (2.0f - c.cameraAboveGroundCm) / c.captureFarCm;
    for (int y = std::max(y0, 0); y < std::min(y0 + 10, kSize); ++y)
        for (int x = std::max(x0, 0); x < std::min(x0 + 12, kSize); ++x)
            depth[static_cast<std::size_t>(y) * kSize + x] = window;
    return depth;
}

double massKgM2(const SnowColumn& c) {
    return double(c.massKgM2) + double(c.waterKgM2);
}

TEST(SnowpackFollowGL, ShiftsAreTheCpuShiftsAndCarryTheBudget) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    settings.settleTimeScale = 36000.0; // the undisturbed column settles visibly within the run
    settings.settleIntervalS = 0.05;
    Region region;
    region.resolution = kSize;
    region.widthCm = kSize; // 1 cm texels: 1e-4 m2 each
    constexpr double kAreaM2 = 1e-4;
    SnowpackSim sim;
    auto error = sim.configure(settings, region, kCaptureZ, kFar, shaders);
    ASSERT_FALSE(error) << *error;
    SnowpackReference cpu(kSize, settings, kCaptureZ, kFar, 1.0);
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    const double dt = 1.0 / 60.0;

    // Moves along, across, diagonally, a jump with no overlap, and none.
    const glm::ivec2 moves[] = {{5, 0}, {0, -7}, {3, 4}, {-2, -9}, {70, 0}, {0, 0}, {-6, 1}};
    glm::dvec2 centre(0.0);
    int step = 0;
    for (const glm::ivec2 move : moves) {
        SCOPED_TRACE(testing::Message() << "move " << move.x << ", " << move.y);
        for (int k = 0; k < 12; ++k, ++step) {
            const std::vector<float> depth = boxAt(20 + step % 9, 26 - step % 5, cpu.constants());
            capture.upload(depth);
            sim.step(capture, dt);
            cpu.step(depth, dt);
        }
        if (step == 12) {
            // An untouched corner texel of the GPU's state is the column the window will bring
            // in (the CPU's settling of the initial column; the shader's exp is not the CPU's to
            // the last bit, so within a float step or two).
            const SnowColumn corner = sim.readBack().front();
            EXPECT_NEAR(corner.depthCm, sim.undisturbed().depthCm, 1e-5f);
            EXPECT_EQ(corner.massKgM2, sim.undisturbed().massKgM2);
            EXPECT_LT(sim.undisturbed().depthCm, settings.depthCm - 0.01) << "did not settle";
        }
        // The GPU's own state, moved on the CPU: the GPU's move must be exactly it.
        SnowpackGrid expected{kSize, sim.readBack()};
        const double left = shiftGrid(expected, move, sim.undisturbed());
        const double outBefore = sim.carriedOutKg(), inBefore = sim.carriedInKg();
        centre += glm::dvec2(move);
        sim.shift(move, centre);
        cpu.shift(move);
        const std::vector<SnowColumn> moved = sim.readBack();
        ASSERT_EQ(moved.size(), expected.columns.size());
        EXPECT_EQ(
            std::memcmp(moved.data(), expected.columns.data(), moved.size() * sizeof(SnowColumn)),
            0)
            << "the moved state is not the CPU's move of it";
        EXPECT_NEAR(sim.carriedOutKg() - outBefore, left * kAreaM2, 1e-9);
        const int keptX = std::max(0, kSize - std::abs(move.x));
        const int keptY = std::max(0, kSize - std::abs(move.y));
        const double entering = double(kSize) * kSize - double(keptX) * keptY;
        EXPECT_NEAR(sim.carriedInKg() - inBefore, entering * massKgM2(sim.undisturbed()) * kAreaM2,
                    1e-12);
        EXPECT_EQ(sim.region().centreCm, centre);
    }
    // Steps on the moved state agree with the reference's, as a fixed window's do
    // (SnowpackGL.MatchesTheCpuReference's tolerances).
    for (int k = 0; k < 12; ++k, ++step) {
        const std::vector<float> depth = boxAt(30, 30, cpu.constants());
        capture.upload(depth);
        sim.step(capture, dt);
        cpu.step(depth, dt);
    }
    const std::vector<SnowColumn> gpu = sim.readBack();
    float worstDepth = 0.0f;
    for (std::size_t t = 0; t < gpu.size(); ++t)
        worstDepth = std::max(worstDepth, std::abs(gpu[t].depthCm - cpu.grid().columns[t].depthCm));
    EXPECT_LE(worstDepth, 2e-3f);
    RecordProperty("worst_depth_cm", std::to_string(worstDepth));

    // The budget closes with the border terms (each move's terms are pinned above: they are
    // what the GPU's own state held).
    const double now = sim.budget().massKg, start = sim.massStartKg();
    const double in = sim.carriedInKg(), out = sim.carriedOutKg();
    EXPECT_GT(in, start); // the jump alone carried every texel in, and out
    EXPECT_GT(out, start);
    EXPECT_NEAR((now - start - in + out) / start, 0.0, 1e-5);
    RecordProperty("mass_error", std::to_string((now - start - in + out) / start));

    // A reset forgets the border terms with the state.
    sim.reset();
    EXPECT_EQ(sim.carriedInKg(), 0.0);
    EXPECT_EQ(sim.carriedOutKg(), 0.0);
}

TEST(SnowpackFollowGL, BudgetClosesWhileTheWindowFollowsAWalker) {
    // B is a following snowpack, 64 texels of 4 cm; a sphere walks 8 m in a straight line at
    // 1.2 m/s, pressing 20 cm into the 30 cm snow. The window keeps the walker at its centre,
    // so the trail it leaves goes out through the back border and fresh snow comes in ahead.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = kSize;
    settings.snow.orthoWidthCm = 256.0;
    settings.sims[1].model = SimModel::Snowpack;
    settings.sims[1].region = RegionMode::FollowSnapped;
    auto field = test::makeField(settings, shaders);
    ASSERT_TRUE(field);
    test::Sphere sphere;
    const double dt = 1.0 / 60.0;
    const SnowpackSim& snowpack = *field->snowpack(1);
    const double start = snowpack.massStartKg();
    double worst = 0.0;
    for (int step = 0; step < 400; ++step) {
        const float x = static_cast<float>(step * 120.0 * dt);
        DeformerInstance walker = sphere.at({x, 3.0f, -20.0f});
        field->step({&walker, 1}, dt);
        if (step % 100 == 99) {
            const double error = (snowpack.budget().massKg - start - snowpack.carriedInKg() +
                                  snowpack.carriedOutKg()) /
                                 start;
            worst = std::max(worst, std::abs(error));
            EXPECT_NEAR(field->sim(1).region().centreCm.x, x, 4.0) << "step " << step;
        }
    }
    RecordProperty("worst_mass_error", std::to_string(worst));
    EXPECT_LT(worst, 1e-5);
    EXPECT_GT(snowpack.carriedOutKg(), 0.0);
    // The trail is inside the window behind the walker: compacted snow, ploughed rims.
    const SnowpackBudget budget = snowpack.budget();
    EXPECT_GT(budget.compactedFraction, 0.02);
    EXPECT_GT(budget.maxDepthCm, settings.sims[1].snowpack.depthCm + 1.0);
    // The fixed decay sim A beside it saw the walker only while it was in A's region.
    EXPECT_EQ(field->sim(0).region().centreCm, glm::dvec2(0.0));
}

TEST(SnowpackFollowGL, WithSeveralObserversItFollowsTheFirstAndTheDecaySimsEach) {
    // Two walkers part, 4 m each way. A (decay, r16f, follow_snapped) keeps a window on each;
    // B (the snowpack) keeps one, on the first, as follow_naive and rgba16f sims do, and its
    // budget closes with what crossed that window's border.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = kSize;
    settings.snow.orthoWidthCm = 256.0;
    settings.deformers.resize(2);
    settings.deformers[0].name = "left";
    settings.deformers[1].name = "right";
    settings.snow.follow = {"left", "right"};
    for (SimSettings& sim : settings.sims)
        sim.region = RegionMode::FollowSnapped;
    settings.sims[1].model = SimModel::Snowpack;
    auto field = test::makeField(settings, shaders);
    ASSERT_TRUE(field);
    EXPECT_EQ(field->windowCount(0), 2);
    EXPECT_EQ(field->windowCount(1), 1);
    test::Sphere sphere;
    const double dt = 1.0 / 60.0;
    const SnowpackSim& snowpack = *field->snowpack(1);
    const double start = snowpack.massStartKg();
    for (int step = 0; step < 240; ++step) {
        const float x = static_cast<float>(step * 100.0 * dt);
        const DeformerInstance walkers[] = {sphere.at({-x, 0.0f, -20.0f}),
                                            sphere.at({x, 0.0f, -20.0f})};
        field->step(walkers, dt);
    }
    const double leftX = -239 * 100.0 * dt, rightX = -leftX;
    EXPECT_NEAR(field->window(0, 0).region().centreCm.x, leftX, 4.0);
    EXPECT_NEAR(field->window(0, 1).region().centreCm.x, rightX, 4.0);
    EXPECT_NEAR(field->sim(1).region().centreCm.x, leftX, 4.0);
    const double error =
        (snowpack.budget().massKg - start - snowpack.carriedInKg() + snowpack.carriedOutKg()) /
        start;
    EXPECT_LT(std::abs(error), 1e-5);
    EXPECT_GT(snowpack.carriedOutKg(), 0.0);
    // B's window holds the first walker's trail: compacted snow.
    EXPECT_GT(snowpack.budget().compactedFraction, 0.02);
}

TEST(SnowpackFollowGL, RefusesWhatItCannotDo) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    const auto refusal = [&](const Settings& settings) -> std::string {
        auto created = SnowField::create(settings, shaders);
        return std::holds_alternative<std::string>(created) ? std::get<std::string>(created)
                                                            : std::string();
    };
    Settings settings;
    settings.snow.resolution = kSize;
    settings.sims[1].model = SimModel::Snowpack;
    settings.sims[1].region = RegionMode::FollowSnapped;
    EXPECT_EQ(refusal(settings), "") << "a following snowpack is built";

    Settings naive = settings;
    naive.sims[1].region = RegionMode::FollowNaive;
    EXPECT_NE(refusal(naive).find("sim.b.model = \"snowpack\": needs region"), std::string::npos)
        << refusal(naive);

    // Under any sky, wind too, the entering column replays its history (SnowpackWorldGLTest,
    // SnowpackWindGLTest): inside the window drift runs as on a fixed region, away from it a
    // column receives what it sends.
    Settings sky = settings;
    sky.weather.snowfallCmH = 2.0;
    EXPECT_EQ(refusal(sky), "") << "snowfall on a following snowpack is built";
    Settings windy = sky;
    windy.weather.windMS = 8.0;
    EXPECT_EQ(refusal(windy), "") << "wind on a following snowpack is built";
    Settings gust = sky;
    gust.weather.keys.push_back({});
    gust.weather.keys.back().atS = 5.0;
    gust.weather.keys.back().values[2] = 3.0;
    EXPECT_EQ(refusal(gust), "") << "a wind key on a following snowpack is built";

    // World persistence is built (SnowpackWorldGLTest), under wind as well.
    Settings world = settings;
    world.sims[1].persistence = Persistence::World;
    EXPECT_EQ(refusal(world), "") << "a following snowpack keeps a world store";
    Settings worldSky = world;
    worldSky.weather.windMS = 2.0;
    EXPECT_EQ(refusal(worldSky), "") << "a following snowpack's store under wind is built";
    // What still is not: a follow_naive snowpack under wind as without (above), and a world
    // file of a snowpack's store (SnowpackWorldGL.WorldFilesAreRefusedWithOneLine).
    Settings naiveWind = windy;
    naiveWind.sims[1].region = RegionMode::FollowNaive;
    EXPECT_NE(refusal(naiveWind).find("sim.b.model = \"snowpack\": needs region"),
              std::string::npos)
        << refusal(naiveWind);
    Settings fixedWorld = world;
    fixedWorld.sims[1].region = RegionMode::Fixed;
    EXPECT_EQ(refusal(fixedWorld), "") << "a fixed region loses nothing: no store, no refusal";
}

} // namespace
} // namespace snowcap
