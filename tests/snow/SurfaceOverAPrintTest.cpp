// The snow's surface over a print in the mud (docs/ground.md section 5, docs/snowpack.md section
// 3): slump, the sun's normal and the wind's terrain look at the surface's top (surfaceTopCm:
// depth - print), not at the depth. Snow filling a print level with the snow around it lies
// flat; snow in a print does not climb over the print's bare rim; a rim's thin snow over an
// empty print sends at most a fifth of itself an iteration, and nothing goes below zero.
#include "core/weather_laws.hpp"
#include "snow/snowpack_reference.hpp"
#include "snow/weather_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <gtest/gtest.h>
#include <vector>

namespace snowcap {
namespace {

constexpr int kSize = 40;
constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;
constexpr double kTexelCm = 2.0;
constexpr float kMudMaxCm = 5.0f;

bool inPrint(int x, int y) {
    return x >= 10 && x < 20 && y >= 10 && y < 20;
}

// Every column `snowCm` of snow at `density`; in the print [10, 20)^2 the mud `printCm` deep and
// `printSnowCm` of snow in it.
void lay(SnowpackGrid& grid, float snowCm, float printCm, float printSnowCm, float density) {
    for (int y = 0; y < grid.size; ++y)
        for (int x = 0; x < grid.size; ++x) {
            const bool print = inPrint(x, y);
            const float depth = print ? printSnowCm : snowCm;
            grid.columns[static_cast<std::size_t>(y) * grid.size + x] =
                SnowColumn{depth, columnMass(depth, density), 0.0f, print ? printCm : 0.0f};
        }
}

double massOf(const SnowpackGrid& grid) {
    double mass = 0.0;
    for (const SnowColumn& c : grid.columns)
        mass += c.massKgM2;
    return mass;
}

// Steps with nothing touching the snow: settling and the slump iterations.
void rest(SnowpackReference& pack, int steps) {
    const std::vector<float> nothing(static_cast<std::size_t>(kSize) * kSize, 3.0e38f);
    for (int i = 0; i < steps; ++i)
        pack.step(nothing, 1.0 / 60.0);
}

TEST(SurfaceOverAPrint, SnowLevelOverAFilledPrintDoesNotSlump) {
    SnowpackSettings settings;
    SnowpackReference pack(kSize, settings, kCaptureZ, kFar, kTexelCm, kMudMaxCm);
    // 10 cm over the mud, 13 cm in the 3 cm print: one level surface.
    lay(pack.grid(), 10.0f, 3.0f, 13.0f, 120.0f);
    const SnowColumn edge = pack.grid().at(10, 15), outside = pack.grid().at(9, 15);
    // The depths' step at the print's wall is 3 cm over one 2 cm texel, past the repose of
    // fresh snow: compared by depth, a fifth of the excess would leave the print every iteration.
    const float holds = reposeStepCm(120.0f, pack.constants());
    const float byDepth = slumpFlowCm(edge.depthCm, holds, outside.depthCm, edge.depthCm);
    const float bySurface =
        slumpFlowCm(surfaceTopCm(edge), holds, surfaceTopCm(outside), edge.depthCm);
    rest(pack, 60);
    float moved = 0.0f;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x)
            moved = std::max(moved, std::abs(pack.grid().at(x, y).massKgM2 -
                                             columnMass(inPrint(x, y) ? 13.0f : 10.0f, 120.0f)));
    std::printf("level snow over a filled print: the wall's step by depth %.1f cm against the "
                "%.3f cm repose holds would send %.4f cm an iteration, by the surface %.4f; after "
                "60 steps the most mass any column gained or lost %.3g kg/m2\n",
                edge.depthCm - outside.depthCm, holds, byDepth, bySurface, moved);
    EXPECT_GT(byDepth, 0.1f); // the depth's law would move snow here: the test can tell
    EXPECT_EQ(bySurface, 0.0f);
    EXPECT_EQ(moved, 0.0f);
}

TEST(SurfaceOverAPrint, SnowInAPrintDoesNotClimbOverItsBareRim) {
    SnowpackSettings settings;
    SnowpackReference pack(kSize, settings, kCaptureZ, kFar, kTexelCm, kMudMaxCm);
    // Bare mud, and a 5 cm print holding 4 cm of snow: its top 1 cm below the rim.
    lay(pack.grid(), 0.0f, 5.0f, 4.0f, 120.0f);
    const std::vector<SnowColumn> before = pack.grid().columns;
    rest(pack, 60);
    int changed = 0;
    for (std::size_t t = 0; t < before.size(); ++t)
        changed += pack.grid().columns[t].massKgM2 != before[t].massKgM2;
    std::printf("snow in a print below its bare rim: %d columns changed mass in 60 steps\n",
                changed);
    EXPECT_EQ(changed, 0);
}

TEST(SurfaceOverAPrint, ThinSnowOnARimSendsAtMostAFifthAnIterationAndNothingGoesBelowZero) {
    SnowpackSettings settings;
    SnowpackReference pack(kSize, settings, kCaptureZ, kFar, kTexelCm, kMudMaxCm);
    // 0.5 cm on the mud, an empty 5 cm print: the surfaces' step 5.5 cm, most of it mud.
    lay(pack.grid(), 0.5f, 5.0f, 0.0f, 120.0f);
    const SnowColumn rim = pack.grid().at(9, 15), print = pack.grid().at(10, 15);
    const float holds = reposeStepCm(densityOf(rim), pack.constants());
    const float flow = slumpFlowCm(surfaceTopCm(rim), holds, surfaceTopCm(print), rim.depthCm);
    const double start = massOf(pack.grid());
    rest(pack, 120);
    float lowestDepth = 1e9f, lowestMass = 1e9f, inPrintMass = 0.0f;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const SnowColumn& c = pack.grid().at(x, y);
            lowestDepth = std::min(lowestDepth, c.depthCm);
            lowestMass = std::min(lowestMass, c.massKgM2);
            if (inPrint(x, y))
                inPrintMass += c.massKgM2;
        }
    const double end = massOf(pack.grid());
    std::printf("thin snow on a rim over an empty print: one iteration sends %.4f cm of the "
                "rim's %.2f (a fifth: %.4f); after 120 steps %.4f kg/m2 in the print, the "
                "lowest column %.4g cm, %.4g kg/m2; mass %.6f -> %.6f kg/m2 summed\n",
                flow, rim.depthCm, rim.depthCm * 0.2f, inPrintMass, lowestDepth, lowestMass, start,
                end);
    EXPECT_FLOAT_EQ(flow, rim.depthCm * 0.2f); // the step would send 1 cm: the cap holds it
    EXPECT_GT(inPrintMass, 1.0f);              // the rim's snow fell into the print
    EXPECT_GE(lowestDepth, 0.0f);
    EXPECT_GE(lowestMass, 0.0f);
    EXPECT_NEAR(end, start, start * 1e-5);
}

// One weather tick with sun and wind on a field with a filled print level with the snow around
// it: each texel of the print's walls melts and sends what a texel of flat snow does.
TEST(SurfaceOverAPrint, TheSunAndTheWindSeeALevelFilledPrintAsFlat) {
    SnowpackSettings settings;
    SnowpackReference pack(kSize, settings, kCaptureZ, kFar, kTexelCm, kMudMaxCm);
    lay(pack.grid(), 10.0f, 3.0f, 13.0f, 120.0f);
    WeatherTick tick;
    tick.weatherDtS = 1.0f / 30.0f;
    tick.sunMeltPerCos = 0.02f;
    tick.sunDirection = glm::normalize(glm::vec3(-0.6f, -0.45f, 0.5f));
    tick.windMS = 14.0f;
    tick.windDirection = {1.0f, 0.0f};
    WeatherReference weather(pack.constants(), kSize, {0.0f, 0.0f});
    const std::vector<std::uint8_t> inside(static_cast<std::size_t>(kSize) * kSize, 0);
    weather.snowfallAndMelt(pack.grid(), inside, tick);
    weather.driftFlux(inside, tick);
    const auto meltAt = [&](int x, int y) {
        const std::size_t t = static_cast<std::size_t>(y) * kSize + x;
        return pack.grid().columns[t].massKgM2 - weather.scratch()[t].massKgM2;
    };
    const auto sentAt = [&](int x, int y) {
        const DriftOut& f = weather.flux()[static_cast<std::size_t>(y) * kSize + x];
        return f.x + f.y;
    };
    const float flatMelt = meltAt(30, 30);
    const auto flatSent = sentAt(30, 30);
    int meltWrong = 0, sentWrong = 0, walls = 0;
    for (int y = 8; y < 22; ++y)
        for (int x = 8; x < 22; ++x) {
            const bool wall =
                inPrint(x, y) != inPrint(x - 1, y) || inPrint(x, y) != inPrint(x + 1, y) ||
                inPrint(x, y) != inPrint(x, y - 1) || inPrint(x, y) != inPrint(x, y + 1);
            if (!wall)
                continue;
            ++walls;
            meltWrong += meltAt(x, y) != flatMelt;
            sentWrong += sentAt(x, y) != flatSent;
        }
    std::printf("sun and wind over a level filled print: flat snow melts %.6f kg/m2 and sends "
                "%u quanta a tick; of %d texels beside the print's walls %d melt and %d send "
                "otherwise\n",
                flatMelt, static_cast<unsigned>(flatSent), walls, meltWrong, sentWrong);
    EXPECT_GT(flatMelt, 0.0f);
    EXPECT_GT(flatSent, 0u);
    EXPECT_GT(walls, 40);
    EXPECT_EQ(meltWrong, 0);
    EXPECT_EQ(sentWrong, 0);
}

} // namespace
} // namespace snowcap
