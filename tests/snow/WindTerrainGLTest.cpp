// Wind on terrain on the driver against the CPU reference: the snowpack keeps the ground's part
// of the wind's weighting as an image (windTerrainTerms, the snowpack's wind_terrain), the drift
// flux's TERRAIN program adds it to the snow's own slope and curvature, and the drift over a
// ridge equals the reference's.
#include "GLTestSupport.hpp"
#include "SlopeTestSupport.hpp"
#include "snow/snowpack_sim.hpp"
#include "snow/snowpack_terrain.hpp"
#include "snow/weather_reference.hpp"
#include "terrain/height_field.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <memory>

namespace snowcap {
namespace {

constexpr double kTexelCm = test::kSlopeTexelCm;
constexpr double kCaptureZ = test::kSlopeCaptureZ;
constexpr double kFar = test::kSlopeFar;
constexpr int kSize = 64;

// A north-south ridge 1 m high, exp(-(x / 1.2 m)^2), on a field twice the region's side.
std::shared_ptr<const HeightField> ridge() {
    const int n = 2 * kSize;
    std::vector<float> heightsM;
    for (int row = 0; row < n; ++row)
        for (int column = 0; column < n; ++column) {
            const double x = (column + 0.5 - 0.5 * n) * kTexelCm;
            heightsM.push_back(static_cast<float>(std::exp(-(x / 120.0) * (x / 120.0))));
        }
    return std::make_shared<const HeightField>(n, n, heightsM, glm::dvec2(0.0),
                                               glm::dvec2(n * kTexelCm));
}

// Two seconds of wind across the ridge (a minute of sky a second, 60 fps): the GPU's state and
// drift record against the reference's, texel for texel.
TEST(WindTerrainGL, DriftOverARidgeMatchesTheCpuReference) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    const auto field = ridge();
    SnowpackSettings settings;
    WeatherSettings weather;
    weather.windMS = 10.0;
    weather.windTowardDeg = 20.0; // across the ridge and a little along it: both faces' flux
    weather.timeScale = 60.0;
    SnowpackSim sim;
    sim.setTerrain(field, 240.0);
    auto error = sim.configure(settings, test::slopeRegion(kSize), kCaptureZ, kFar, shaders);
    ASSERT_FALSE(error) << *error;
    error = sim.weather().configure(weather, settings, WindSettings{}, {0.0f, 0.0f, 1.0f}, kSize,
                                    kTexelCm, shaders);
    ASSERT_FALSE(error) << *error;
    ASSERT_EQ(sim.windTerrain().size(), std::size_t(kSize) * kSize);
    const float corner = static_cast<float>(-0.5 * kSize * kTexelCm);
    WeatheredSnowpack cpu(kSize, settings, weather, WindSettings{}, {0.0f, 0.0f, 1.0f}, kCaptureZ,
                          kFar, kTexelCm, {corner, corner});
    cpu.setGround(sim.groundCm());
    cpu.setWindTerrain(sim.windTerrain());
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    capture.clear(1.0f);
    const std::vector<float> none(std::size_t(kSize) * kSize, 1.0f);
    for (int step = 0; step < 120; ++step) {
        sim.step(capture, 1.0 / 60.0);
        sim.weather().step(sim, 1.0 / 60.0);
        cpu.step(none, 1.0 / 60.0);
    }
    const std::vector<SnowColumn> gpu = sim.readBack();
    const auto& ref = cpu.snowpack().grid().columns;
    const std::vector<std::int32_t> gpuRecord = sim.weather().readDriftRecord();
    const auto cpuRecord = cpu.weather().driftRecord();
    ASSERT_EQ(gpuRecord.size(), cpuRecord.size());
    float worstMass = 0.0f;
    std::int64_t worstRecord = 0, moved = 0;
    for (std::size_t t = 0; t < gpu.size(); ++t) {
        worstMass = std::max(worstMass, std::abs(gpu[t].massKgM2 - ref[t].massKgM2));
        worstRecord = std::max<std::int64_t>(worstRecord, std::abs(gpuRecord[t] - cpuRecord[t]));
        moved = std::max<std::int64_t>(moved, std::abs(cpuRecord[t]));
    }
    std::printf("wind over a ridge: worst mass %.3g kg/m2, worst record %lld quanta of %lld\n",
                worstMass, static_cast<long long>(worstRecord), static_cast<long long>(moved));
    // The flux is whole quanta of the same float operations on both sides (the shader's exp
    // and log are its own, so a quantum may round either side of its floor).
    EXPECT_LE(worstRecord, 4);
    EXPECT_LE(worstMass, 1e-3f);
    EXPECT_GT(moved, 1000); // the ridge moved snow: the comparison is not of two idle fields
    ::testing::Test::RecordProperty("worst_record_quanta", std::to_string(worstRecord));
}

// Flat terrain is no terrain: no wind_terrain image, the flat drift program.
TEST(WindTerrainGL, FlatGroundKeepsNoWindTerms) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSim sim;
    sim.setTerrain(std::make_shared<const HeightField>(), 240.0);
    auto error =
        sim.configure(SnowpackSettings{}, test::slopeRegion(kSize), kCaptureZ, kFar, shaders);
    ASSERT_FALSE(error) << *error;
    EXPECT_TRUE(sim.windTerrain().empty());
}

} // namespace
} // namespace snowcap
