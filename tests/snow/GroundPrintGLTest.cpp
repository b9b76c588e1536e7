// Prints in the mud under a snowpack on the driver against the CPU reference: the compaction
// pass presses the ground's print (the state's A) and the weather's drainage leaves what a print
// holds (shaders/snowpack/compact.comp, shaders/weather/weather_laws.glsl drainedWater).
#include "GLTestSupport.hpp"
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

// Feet for the first 10 steps: 3 cm and 8 cm (past the bound) into the mud through the snow,
// one resting 1 cm above the ground (it compacts the snow, it does not reach the mud).
std::vector<float> captureAt(int step, const SnowpackConstants& c) {
    std::vector<float> depth = test::emptyCapture(kSize);
    if (step < 10) {
        test::stampBox(depth, kSize, 8, 8, 16, 40, -3.0f, c);
        test::stampBox(depth, kSize, 28, 8, 36, 40, -8.0f, c);
        test::stampBox(depth, kSize, 48, 8, 56, 40, 1.0f, c);
    }
    return depth;
}

TEST(GroundPrintGL, CompactionAndDrainageMatchTheCpuReference) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    settings.depthCm = 4.0; // 4.8 kg/m2 of snow over the mud
    WeatherSettings weather;
    weather.airTempC = 10.0; // degree-day melt alone (no sun): the same quanta everywhere
    weather.timeScale = 36000.0;
    const WindSettings wind;
    const glm::vec3 sun(-0.6f, -0.45f, 0.35f);
    Region region;
    region.resolution = kSize;
    region.widthCm = kTexelCm * kSize;
    SnowpackSim sim;
    auto error = sim.configure(settings, region, kCaptureZ, kFar, shaders, kMudMaxCm);
    ASSERT_FALSE(error) << *error;
    ASSERT_TRUE(sim.groundTakesPrints());
    error = sim.weather().configure(weather, settings, wind, sun, kSize, kTexelCm, shaders);
    ASSERT_FALSE(error) << *error;
    WeatheredSnowpack cpu(kSize, settings, weather, wind, sun, kCaptureZ, kFar, kTexelCm,
                          {-64.0f, -64.0f}, kMudMaxCm);
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    float worstDepth = 0.0f, worstMass = 0.0f, worstWater = 0.0f;
    int printWrong = 0, printed = 0;
    float heldWater = 0.0f;
    for (int step = 0; step < 360; ++step) {
        const std::vector<float> depth = captureAt(step, cpu.snowpack().constants());
        capture.upload(depth);
        sim.step(capture, 1.0 / 60.0);
        sim.weather().step(sim, 1.0 / 60.0);
        cpu.step(depth, 1.0 / 60.0);
        if (step == 9 || step == 60 || step == 359) {
            const std::vector<SnowColumn> gpuState = sim.readBack();
            const auto& cpuState = cpu.snowpack().grid().columns;
            printed = 0;
            for (std::size_t t = 0; t < gpuState.size(); ++t) {
                const SnowColumn& g = gpuState[t];
                const SnowColumn& c = cpuState[t];
                worstDepth = std::max(worstDepth, std::abs(g.depthCm - c.depthCm));
                worstMass = std::max(worstMass, std::abs(g.massKgM2 - c.massKgM2));
                worstWater = std::max(worstWater, std::abs(g.waterKgM2 - c.waterKgM2));
                printWrong += g.groundPrintCm != c.groundPrintCm;
                printed += g.groundPrintCm > 0.0f;
            }
        }
    }
    const std::vector<SnowColumn> last = sim.readBack();
    const SnowColumn inPrint = last[static_cast<std::size_t>(24) * kSize + 12];
    const SnowColumn deepPrint = last[static_cast<std::size_t>(24) * kSize + 32];
    const SnowColumn resting = last[static_cast<std::size_t>(24) * kSize + 52];
    // The water in the prints (what slumped into them and melted, held) and on the flat mud
    // where the snow is gone (drained).
    float flatWater = 0.0f;
    int bare = 0;
    for (const SnowColumn& c : last) {
        if (c.groundPrintCm > 0.0f)
            heldWater = std::max(heldWater, c.waterKgM2);
        else if (c.massKgM2 == 0.0f) {
            flatWater = std::max(flatWater, c.waterKgM2);
            ++bare;
        }
    }
    std::printf("ground prints GL: %d texels printed, %d prints differ from the CPU; worst depth "
                "%.4g cm, mass %.4g, water %.4g kg/m2; at the end the prints %.2f and %.2f cm "
                "(the resting foot's %.2f), the most water a print holds %.4f kg/m2, on %d "
                "texels of bare flat mud at most %.4g; out GPU %.6f kg, CPU %.6f kg\n",
                printed, printWrong, worstDepth, worstMass, worstWater, inPrint.groundPrintCm,
                deepPrint.groundPrintCm, resting.groundPrintCm, heldWater, bare, flatWater,
                sim.weather().massOutKg(), cpu.massOutKg());
    // The print is a min and a max of the same floats on both: exact. The snow's depth settles
    // through exp(), which is not the CPU's to the last bit, and slump follows the depths; the
    // mass and water move in whole quanta from there (as in SnowpackGL and WeatherGL).
    EXPECT_EQ(printWrong, 0);
    EXPECT_EQ(printed, 2 * 8 * 32);
    EXPECT_EQ(inPrint.groundPrintCm, 3.0f);
    EXPECT_EQ(deepPrint.groundPrintCm, kMudMaxCm);
    EXPECT_EQ(resting.groundPrintCm, 0.0f);
    EXPECT_LE(worstDepth, 1e-3f);
    EXPECT_LE(worstMass, 1e-3f);
    EXPECT_LE(worstWater, 1e-3f);
    EXPECT_GT(heldWater, 1.0f); // a print holds melt water at the end
    EXPECT_GT(bare, kSize * kSize / 2);
    EXPECT_EQ(flatWater, 0.0f); // where the mud is flat and bare it drained
    EXPECT_GT(cpu.massOutKg(), 0.0);
    EXPECT_NEAR(sim.weather().massOutKg(), cpu.massOutKg(), cpu.massOutKg() * 1e-4);
}

} // namespace
} // namespace snowcap
