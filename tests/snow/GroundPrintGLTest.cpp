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
#include <glm/geometric.hpp>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

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

// How far the driver's state strays from the CPU reference's, at the steps compared.
struct Against {
    float depth = 0.0f, mass = 0.0f, water = 0.0f;
    int printWrong = 0, printed = 0; // printed: texels with a print at the last comparison
    void compare(const std::vector<SnowColumn>& gpu, const std::vector<SnowColumn>& cpu) {
        printed = 0;
        for (std::size_t t = 0; t < gpu.size(); ++t) {
            depth = std::max(depth, std::abs(gpu[t].depthCm - cpu[t].depthCm));
            mass = std::max(mass, std::abs(gpu[t].massKgM2 - cpu[t].massKgM2));
            water = std::max(water, std::abs(gpu[t].waterKgM2 - cpu[t].waterKgM2));
            printWrong += gpu[t].groundPrintCm != cpu[t].groundPrintCm;
            printed += gpu[t].groundPrintCm > 0.0f;
        }
    }
};

// A snowpack over mud under `weather` on the driver and on the CPU, the feet of captureAt
// pressing it, `steps` steps of 1/60 s, compared at each step in `compareAt`.
struct MudRun {
    SnowpackSim sim;
    std::unique_ptr<WeatheredSnowpack> cpu;
    Against against;
};

void runOverMud(MudRun& run, const SnowpackSettings& settings, const WeatherSettings& weather,
                const WindSettings& wind, glm::vec3 sun, int steps,
                const std::vector<int>& compareAt) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Region region;
    region.resolution = kSize;
    region.widthCm = kTexelCm * kSize;
    auto error = run.sim.configure(settings, region, kCaptureZ, kFar, shaders, kMudMaxCm);
    ASSERT_FALSE(error) << *error;
    ASSERT_TRUE(run.sim.groundTakesPrints());
    error = run.sim.weather().configure(weather, settings, wind, sun, kSize, kTexelCm, shaders);
    ASSERT_FALSE(error) << *error;
    run.cpu =
        std::make_unique<WeatheredSnowpack>(kSize, settings, weather, wind, sun, kCaptureZ, kFar,
                                            kTexelCm, glm::vec2{-64.0f, -64.0f}, kMudMaxCm);
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    for (int step = 0; step < steps; ++step) {
        const std::vector<float> depth = captureAt(step, run.cpu->snowpack().constants());
        capture.upload(depth);
        run.sim.step(capture, 1.0 / 60.0);
        run.sim.weather().step(run.sim, 1.0 / 60.0);
        run.cpu->step(depth, 1.0 / 60.0);
        if (std::find(compareAt.begin(), compareAt.end(), step) != compareAt.end())
            run.against.compare(run.sim.readBack(), run.cpu->snowpack().grid().columns);
    }
}

TEST(GroundPrintGL, CompactionAndDrainageMatchTheCpuReference) {
    SnowpackSettings settings;
    settings.depthCm = 4.0; // 4.8 kg/m2 of snow over the mud
    WeatherSettings weather;
    weather.airTempC = 10.0; // degree-day melt alone (no sun): the same quanta everywhere
    weather.timeScale = 36000.0;
    MudRun run;
    runOverMud(run, settings, weather, WindSettings{}, glm::vec3(-0.6f, -0.45f, 0.35f), 360,
               {9, 60, 359});
    if (HasFatalFailure())
        return;
    SnowpackSim& sim = run.sim;
    WeatheredSnowpack& cpu = *run.cpu;
    const float worstDepth = run.against.depth, worstMass = run.against.mass,
                worstWater = run.against.water;
    const int printWrong = run.against.printWrong, printed = run.against.printed;
    float heldWater = 0.0f;
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
    // through exp(), which is not the CPU's to the last bit, and slump follows the surfaces; the
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

// Snow falling on the prints while the wind drifts it and the sun melts it: slump, the sun's
// normal and the drift's terrain all read the surface's top over the prints (surfaceTopCm), on
// the driver as on the CPU. +1 C keeps the mud thawed, so the feet print it.
TEST(GroundPrintGL, SnowfallDriftAndSunOverThePrintsMatchTheCpuReference) {
    SnowpackSettings settings;
    settings.depthCm = 4.0;
    WeatherSettings weather;
    weather.snowfallCmH = 20.0;
    weather.windMS = 12.0;
    weather.windTowardDeg = 30.0;
    weather.airTempC = 1.0;
    weather.sunWM2 = 600.0;
    weather.timeScale = 600.0;
    WindSettings wind;
    wind.gustAmount = 0.3;
    MudRun run;
    runOverMud(run, settings, weather, wind, glm::normalize(glm::vec3(-0.6f, -0.45f, 0.5f)), 240,
               {59, 119, 179, 239});
    if (HasFatalFailure())
        return;
    const WeatheredSnowpack& cpu = *run.cpu;
    const float worstDepth = run.against.depth, worstMass = run.against.mass,
                worstWater = run.against.water;
    const int printWrong = run.against.printWrong;
    // The 3 cm print: its top against the flat snow's, and what drifted.
    const SnowColumn inPrint = cpu.snowpack().grid().at(12, 24);
    const SnowColumn flat = cpu.snowpack().grid().at(12, 52);
    int drifted = 0;
    for (const std::int32_t r : cpu.weather().driftRecord())
        drifted += r != 0;
    std::printf("snow, wind and sun over the prints GL: worst depth %.4g cm, mass %.4g, water "
                "%.4g kg/m2, %d prints differ; after 4 s the 3 cm print's top %.3f cm, the flat "
                "snow's %.3f; %d texels drifted\n",
                worstDepth, worstMass, worstWater, printWrong, surfaceTopCm(inPrint),
                surfaceTopCm(flat), drifted);
    EXPECT_EQ(printWrong, 0);
    EXPECT_EQ(inPrint.groundPrintCm, 3.0f);
    EXPECT_GT(drifted, kSize * kSize / 2);
    EXPECT_LE(worstDepth, 1e-3f);
    EXPECT_LE(worstMass, 1e-3f);
    EXPECT_LE(worstWater, 1e-3f);
}

} // namespace
} // namespace snowcap
