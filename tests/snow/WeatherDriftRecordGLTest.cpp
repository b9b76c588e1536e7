// What drifted, per texel, on the driver (WeatherSim::readDriftRecord) against the CPU
// reference, and its sum against the GPU's own border counters.
#include "GLTestSupport.hpp"
#include "snow/SnowpackCaptureSupport.hpp"
#include "snow/snowpack_sim.hpp"
#include "snow/weather_reference.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <gtest/gtest.h>
#include <numeric>

namespace snowcap {
namespace {

constexpr int kSize = 64;
constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;

// A box pressed 4 cm above the ground for the first 10 steps: a trench with rims.
std::vector<float> captureAt(int step, const SnowpackConstants& c) {
    return test::boxCapture(kSize, step < 10, 26, 8, 34, 56, 4.0f, c);
}

TEST(WeatherGL, DriftRecordMatchesTheCpuReferenceAndSumsToTheBorder) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    // Wind alone, below 0 C: the counters then hold the drift's border in and out only.
    WeatherSettings weather;
    weather.windMS = 14.0;
    weather.windTowardDeg = 20.0;
    weather.timeScale = 600.0;
    WindSettings wind;
    wind.gustAmount = 0.0; // no sin(): the GPU's wind is the CPU's to the bit
    const glm::vec3 sun(-0.6f, -0.45f, 0.35f);
    Region region;
    region.resolution = kSize;
    region.widthCm = kSize;
    SnowpackSim sim;
    auto error = sim.configure(settings, region, kCaptureZ, kFar, shaders);
    ASSERT_FALSE(error) << *error;
    error = sim.weather().configure(weather, settings, wind, sun, kSize, 1.0, shaders);
    ASSERT_FALSE(error) << *error;
    WeatheredSnowpack cpu(kSize, settings, weather, wind, sun, kCaptureZ, kFar, 1.0,
                          {-32.0f, -32.0f});
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    for (int step = 0; step < 40; ++step) {
        const std::vector<float> depth = captureAt(step, cpu.snowpack().constants());
        capture.upload(depth);
        sim.step(capture, 1.0 / 60.0);
        sim.weather().step(sim, 1.0 / 60.0);
        cpu.step(depth, 1.0 / 60.0);
    }
    const std::vector<std::int32_t> gpuRecord = sim.weather().readDriftRecord();
    const std::span<const std::int32_t> cpuRecord = cpu.weather().driftRecord();
    ASSERT_EQ(gpuRecord.size(), cpuRecord.size());
    // The GPU's own sum against its own counters, to the quantum.
    const double quantumKg = double(kWeatherQuantum) * 1e-4; // a quantum over a 1 cm texel
    const auto gpuIn = std::llround(sim.weather().massInKg() / quantumKg);
    const auto gpuOut = std::llround(sim.weather().massOutKg() / quantumKg);
    const std::int64_t gpuSum =
        std::accumulate(gpuRecord.begin(), gpuRecord.end(), std::int64_t{0});
    EXPECT_EQ(gpuSum, gpuIn - gpuOut);
    EXPECT_GT(gpuIn, 0);
    EXPECT_GT(gpuOut, 0);
    // Against the CPU's, texel by texel: the threshold's exp() is not the CPU's to the last bit,
    // so a face's flux can fall a quantum either side of a floor and the drift's ripples grow
    // such differences (WeatherGL.MatchesTheCpuReference says how far they spread).
    double differs = 0.0, moved = 0.0;
    int worst = 0;
    for (std::size_t t = 0; t < gpuRecord.size(); ++t) {
        differs += std::abs(double(gpuRecord[t]) - double(cpuRecord[t]));
        moved += std::abs(double(cpuRecord[t]));
        worst = std::max(worst, std::abs(gpuRecord[t] - cpuRecord[t]));
    }
    std::printf("drift record GL: |GPU - CPU| summed %.4g of the CPU's |record| %.4g quanta "
                "(%.3f %%), worst texel %d quanta (%.4g kg/m2)\n",
                differs, moved, 100.0 * differs / moved, worst, worst * double(kWeatherQuantum));
    EXPECT_GT(moved, 0.0);
    EXPECT_LE(differs, 1e-3 * moved); // measured 1.5e-5; a wrong face or sign: order 1
}

// A following window that moves: the record moves with the snow (SnowpackSim::shift shifts the
// state and WeatherSim::shift the record alike), and what enters starts with none.
TEST(WeatherGL, DriftRecordMovesWithAFollowingWindow) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    WeatherSettings weather;
    weather.windMS = 14.0;
    weather.timeScale = 600.0;
    Region region;
    region.resolution = kSize;
    region.widthCm = kSize;
    SnowpackSim sim;
    auto error = sim.configure(settings, region, kCaptureZ, kFar, shaders);
    ASSERT_FALSE(error) << *error;
    error = sim.weather().configure(weather, settings, WindSettings{}, {0.0f, 0.0f, 1.0f}, kSize,
                                    1.0, shaders);
    ASSERT_FALSE(error) << *error;
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    for (int step = 0; step < 20; ++step) {
        capture.upload(captureAt(step, sim.constants()));
        sim.step(capture, 1.0 / 60.0);
        sim.weather().step(sim, 1.0 / 60.0);
    }
    const std::vector<std::int32_t> before = sim.weather().readDriftRecord();
    const glm::ivec2 offset(5, -3);
    sim.shift(offset, glm::dvec2(offset) * 1.0);
    const std::vector<std::int32_t> after = sim.weather().readDriftRecord();
    ASSERT_EQ(after.size(), before.size());
    int wrong = 0, kept = 0, entered = 0, keptNonZero = 0;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const int fromX = x + offset.x, fromY = y + offset.y;
            const bool inside = fromX >= 0 && fromY >= 0 && fromX < kSize && fromY < kSize;
            const std::int32_t expected = inside ? before[fromY * kSize + fromX] : 0;
            wrong += after[y * kSize + x] != expected;
            kept += inside;
            entered += !inside;
            keptNonZero += inside && expected != 0;
        }
    std::printf("drift record moved by (%d, %d): %d texels kept (%d with a record), %d entered "
                "with none, %d differ from the record shifted\n",
                offset.x, offset.y, kept, keptNonZero, entered, wrong);
    EXPECT_GT(keptNonZero, kSize * kSize / 4); // the trench's walls drifted: something to move
    EXPECT_EQ(entered, kSize * kSize - (kSize - 5) * (kSize - 3));
    EXPECT_EQ(wrong, 0);
}

} // namespace
} // namespace snowcap
