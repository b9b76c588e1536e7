// Frozen mud on the driver against the CPU reference: the sky's air below 0 C freezes the ground
// under a snowpack (SnowpackSim::step reads the weather hook's clock; the compaction pass takes
// the Snowpack block's ground.y), and a contact then presses no print (shaders/snowpack/
// compact.comp, frozenGroundContactCm).
#include "GLTestSupport.hpp"
#include "core/ground.hpp"
#include "snow/SnowpackCaptureSupport.hpp"
#include "snow/snowpack_sim.hpp"
#include "snow/weather_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSize = 64;
constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;
constexpr double kTexelCm = 2.0;
constexpr float kMudMaxCm = 5.0f;
constexpr double kDtS = 1.0 / 60.0;

WeatherSettings::Key airKey(double atS, double airTempC) {
    WeatherSettings::Key key;
    key.atS = atS;
    key.values[4] = airTempC; // air_temp_c
    return key;
}

// Feet 3 cm into the mud at A while frozen (steps 0..9), at B while thawed (70..79), 8 cm
// into B's print while frozen again (130..139), 3 cm at C while frozen (150..159).
std::vector<float> captureAt(int step, const SnowpackConstants& c) {
    std::vector<float> depth = test::emptyCapture(kSize);
    if (step < 10)
        test::stampBox(depth, kSize, 8, 8, 16, 40, -3.0f, c);
    if (step >= 70 && step < 80)
        test::stampBox(depth, kSize, 28, 8, 36, 40, -3.0f, c);
    if (step >= 130 && step < 140)
        test::stampBox(depth, kSize, 28, 8, 36, 40, -8.0f, c);
    if (step >= 150 && step < 160)
        test::stampBox(depth, kSize, 48, 8, 56, 40, -3.0f, c);
    return depth;
}

TEST(FrozenGroundGL, AFrozenSkyStopsThePrintsAsTheCpuReferenceDoes) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    settings.depthCm = 4.0;
    // -5 C, +5 C from 1 s, -5 C again from 2 s (two keys at one time: a jump).
    WeatherSettings weather;
    weather.airTempC = -5.0;
    weather.keys = {airKey(1.0, -5.0), airKey(1.0, 5.0), airKey(2.0, 5.0), airKey(2.0, -5.0)};
    const WindSettings wind;
    const glm::vec3 sun(-0.6f, -0.45f, 0.35f);
    Region region;
    region.resolution = kSize;
    region.widthCm = kTexelCm * kSize;
    SnowpackSim sim;
    auto error = sim.configure(settings, region, kCaptureZ, kFar, shaders, kMudMaxCm);
    ASSERT_FALSE(error) << *error;
    error = sim.weather().configure(weather, settings, wind, sun, kSize, kTexelCm, shaders);
    ASSERT_FALSE(error) << *error;
    ASSERT_TRUE(sim.weather().active());
    WeatheredSnowpack cpu(kSize, settings, weather, wind, sun, kCaptureZ, kFar, kTexelCm,
                          {-64.0f, -64.0f}, kMudMaxCm);
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    float worstDepth = 0.0f, worstMass = 0.0f;
    int printWrong = 0, frozenWrong = 0, frozenSteps = 0;
    double timeS = 0.0;
    for (int step = 0; step < 180; ++step) {
        const std::vector<float> depth = captureAt(step, cpu.snowpack().constants());
        capture.upload(depth);
        sim.step(capture, kDtS);
        sim.weather().step(sim, kDtS);
        // The frame's rule, which WeatheredSnowpack applies on the CPU as SnowpackSim does: the
        // sky at the step's end.
        const bool frozen = groundFrozenAt(weather, timeS + kDtS);
        cpu.step(depth, kDtS);
        frozenWrong += cpu.snowpack().groundFrozen() != frozen;
        timeS += kDtS;
        frozenWrong += sim.groundFrozen() != frozen;
        frozenSteps += frozen;
        if (step == 9 || step == 79 || step == 139 || step == 179) {
            const std::vector<SnowColumn> gpuState = sim.readBack();
            const auto& cpuState = cpu.snowpack().grid().columns;
            for (std::size_t t = 0; t < gpuState.size(); ++t) {
                worstDepth =
                    std::max(worstDepth, std::abs(gpuState[t].depthCm - cpuState[t].depthCm));
                worstMass =
                    std::max(worstMass, std::abs(gpuState[t].massKgM2 - cpuState[t].massKgM2));
                printWrong += gpuState[t].groundPrintCm != cpuState[t].groundPrintCm;
            }
        }
    }
    const std::vector<SnowColumn> last = sim.readBack();
    int printedA = 0, printedB = 0, printedC = 0, printedElsewhere = 0;
    float deepestB = 0.0f;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const float print = last[static_cast<std::size_t>(y) * kSize + x].groundPrintCm;
            if (!(print > 0.0f))
                continue;
            const bool rows = y >= 8 && y < 40;
            if (rows && x >= 8 && x < 16)
                ++printedA;
            else if (rows && x >= 28 && x < 36) {
                ++printedB;
                deepestB = std::max(deepestB, print);
            } else if (rows && x >= 48 && x < 56)
                ++printedC;
            else
                ++printedElsewhere;
        }
    std::printf("frozen ground GL: %d of 180 steps frozen (%d flags differ from the CPU's); "
                "printed texels: A (frozen) %d, B (thawed) %d, deepest %.2f cm after an 8 cm "
                "foot on frozen mud, C (frozen) %d, elsewhere %d; %d prints differ from the "
                "CPU; worst depth %.3g cm, mass %.3g kg/m2\n",
                frozenSteps, frozenWrong, printedA, printedB, deepestB, printedC, printedElsewhere,
                printWrong, worstDepth, worstMass);
    EXPECT_EQ(frozenWrong, 0);
    EXPECT_GT(frozenSteps, 100);
    EXPECT_LT(frozenSteps, 180);
    EXPECT_EQ(printWrong, 0);
    EXPECT_EQ(printedA, 0);
    EXPECT_EQ(printedB, 8 * 32);
    EXPECT_EQ(deepestB, 3.0f);
    EXPECT_EQ(printedC, 0);
    EXPECT_EQ(printedElsewhere, 0);
    EXPECT_LE(worstDepth, 1e-3f);
    EXPECT_LE(worstMass, 1e-3f);
}

// A sky that is only cold runs no weather pass and allocates nothing, yet its air freezes the
// mud on the driver: A's feet press nothing. With no sky at all the same feet print the mud.
TEST(FrozenGroundGL, AColdSkyThatDoesNotActStillFreezesTheMud) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    settings.depthCm = 4.0;
    WeatherSettings cold;
    cold.airTempC = -10.0;
    Region region;
    region.resolution = kSize;
    region.widthCm = kTexelCm * kSize;
    double clockS = 0.0; // the sky's clock after the last run
    const auto printedUnder = [&](const WeatherSettings& sky, bool& frozen, std::size_t& bytes) {
        SnowpackSim sim;
        auto error = sim.configure(settings, region, kCaptureZ, kFar, shaders, kMudMaxCm);
        EXPECT_FALSE(error) << *error;
        error = sim.weather().configure(sky, settings, WindSettings{}, {0.0f, 0.0f, 1.0f}, kSize,
                                        kTexelCm, shaders);
        EXPECT_FALSE(error) << *error;
        gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
        for (int step = 0; step < 10; ++step) {
            capture.upload(captureAt(step, sim.constants()));
            sim.step(capture, kDtS);
            sim.weather().step(sim, kDtS);
        }
        frozen = sim.groundFrozen();
        bytes = sim.weather().bytes();
        clockS = sim.weather().clock().timeS();
        int printed = 0;
        for (const SnowColumn& c : sim.readBack())
            printed += c.groundPrintCm > 0.0f;
        return printed;
    };
    bool coldFrozen = false, noneFrozen = true;
    std::size_t coldBytes = 1, noneBytes = 1;
    const int underCold = printedUnder(cold, coldFrozen, coldBytes);
    const double coldClockS = clockS; // it runs with no pass (SnowpackSim::step idles it)
    const int underNone = printedUnder(WeatherSettings{}, noneFrozen, noneBytes);
    EXPECT_NEAR(coldClockS, 10 * kDtS, 1e-9);
    EXPECT_EQ(clockS, 0.0); // no sky: nothing runs
    std::printf("a cold sky that does not act: frozen %d, %d texels printed, %zu bytes of weather; "
                "no sky: frozen %d, %d printed, %zu bytes\n",
                coldFrozen, underCold, coldBytes, noneFrozen, underNone, noneBytes);
    EXPECT_TRUE(coldFrozen);
    EXPECT_EQ(underCold, 0);
    EXPECT_EQ(coldBytes, 0u);
    EXPECT_FALSE(noneFrozen);
    EXPECT_EQ(underNone, 8 * 32);
    EXPECT_EQ(noneBytes, 0u);
}

} // namespace
} // namespace snowcap
