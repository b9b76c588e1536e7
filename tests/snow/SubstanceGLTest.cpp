// Sand's passes on the driver against the CPU reference: its drift (its own threshold and
// Bagnold's flux, shaders/weather/weather_laws.glsl) and no melt in heat and sun.
#include "GLTestSupport.hpp"
#include "core/substance.hpp"
#include "snow/SnowpackCaptureSupport.hpp"
#include "snow/snow_field.hpp"
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

// Walkers' feet in sand: a box pressed 10 cm above the ground for the first 10 steps.
std::vector<float> captureAt(int step, const SnowpackConstants& c) {
    return test::boxCapture(kSize, step < 10, 26, 8, 34, 56, 10.0f, c);
}

TEST(SubstanceGL, SandDriftAndHeatMatchTheCpuReference) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    applySubstance(settings, Substance::Sand);
    settings.depthCm = 15.0; // 240 kg/m2: whole weather quanta stay exact in a float
    WeatherSettings weather;
    weather.windMS = 12.0; // u* 0.42 m/s over sand's 0.2
    weather.windTowardDeg = 30.0;
    weather.airTempC = 25.0;
    weather.sunWM2 = 1000.0;
    weather.timeScale = 60.0;
    const WindSettings wind;
    const glm::vec3 sun(-0.6f, -0.45f, 0.35f);
    Region region;
    region.resolution = kSize;
    region.widthCm = 2.0 * kSize; // 2 cm texels, centred on 0
    SnowpackSim sim;
    auto error = sim.configure(settings, region, kCaptureZ, kFar, shaders);
    ASSERT_FALSE(error) << *error;
    error = sim.weather().configure(weather, settings, wind, sun, kSize, 2.0, shaders);
    ASSERT_FALSE(error) << *error;
    ASSERT_TRUE(sim.weather().active());
    WeatheredSnowpack cpu(kSize, settings, weather, wind, sun, kCaptureZ, kFar, 2.0,
                          {-64.0f, -64.0f});
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    float worstDepth = 0.0f, worstMass = 0.0f, mostWater = 0.0f;
    for (int step = 0; step < 60; ++step) {
        const std::vector<float> depth = captureAt(step, cpu.snowpack().constants());
        capture.upload(depth);
        sim.step(capture, 1.0 / 60.0);
        sim.weather().step(sim, 1.0 / 60.0);
        cpu.step(depth, 1.0 / 60.0);
        if (step == 9 || step == 29 || step == 59) {
            const std::vector<SnowColumn> gpuState = sim.readBack();
            const auto& cpuState = cpu.snowpack().grid().columns;
            for (std::size_t t = 0; t < gpuState.size(); ++t) {
                worstDepth =
                    std::max(worstDepth, std::abs(gpuState[t].depthCm - cpuState[t].depthCm));
                worstMass =
                    std::max(worstMass, std::abs(gpuState[t].massKgM2 - cpuState[t].massKgM2));
                mostWater = std::max({mostWater, gpuState[t].waterKgM2, cpuState[t].waterKgM2});
            }
        }
    }
    std::printf("sand GL: worst depth %.4g cm, mass %.4g kg/m2; water %g; drift out GPU %.5f "
                "kg, CPU %.5f kg\n",
                worstDepth, worstMass, mostWater, sim.weather().massOutKg(), cpu.massOutKg());
    // As WeatherGL.MatchesTheCpuReference: the shaders' exp, sin and tan are not the CPU's to
    // the last bit, so a drift quantum can fall either side of a floor; a wrong law or
    // threshold would move whole fluxes (tenths of a kg/m2 and more) or none at all.
    EXPECT_LE(worstDepth, 5e-2f);
    EXPECT_LE(worstMass, 0.5f);      // 0.2 % of a 240 kg/m2 column
    EXPECT_EQ(mostWater, 0.0f);      // +25 C and 1000 W/m2: sand does not melt
    EXPECT_GT(cpu.massOutKg(), 0.0); // it drifted out at the downwind border
    EXPECT_NEAR(sim.weather().massOutKg(), cpu.massOutKg(), cpu.massOutKg() * 1e-2);
    EXPECT_NEAR(sim.weather().massInKg(), cpu.massInKg(), cpu.massInKg() * 1e-2 + 1e-6);
}

} // namespace
} // namespace snowcap
