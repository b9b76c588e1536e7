// A snowpack sim over terrain on the driver against the CPU reference: the ground image it
// keeps, its initial cover, snow sliding off a 60 degree face with the budget closing, and
// a flat terrain that leaves the sim as it was (no ground image, slump's flat program).
#include "GLTestSupport.hpp"
#include "SlopeTestSupport.hpp"
#include "snow/snowpack_reference.hpp"
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
constexpr double kPi = 3.14159265358979;

// A flat foot of `footColumns` texels, then a face at `slopeDeg` rising to the east, as a height
// field whose cells are the region's texels (so its samples are the texel centres' heights).
std::shared_ptr<const HeightField> face(double slopeDeg, int footColumns) {
    std::vector<float> heightsM;
    const double rise = std::tan(slopeDeg * kPi / 180.0) * kTexelCm;
    for (int row = 0; row < kSize; ++row)
        for (int column = 0; column < kSize; ++column)
            heightsM.push_back(static_cast<float>(rise * std::max(0, column - footColumns) * 0.01));
    return std::make_shared<const HeightField>(kSize, kSize, heightsM, glm::dvec2(0.0),
                                               glm::dvec2(kSize * kTexelCm));
}

float worstDepth(const std::vector<SnowColumn>& gpu, const SnowpackGrid& cpu) {
    float worst = 0.0f;
    for (std::size_t t = 0; t < gpu.size(); ++t)
        worst = std::max(worst, std::abs(gpu[t].depthCm - cpu.columns[t].depthCm));
    return worst;
}

// The cover follows the slope on both sides bit for bit (the GPU starts from the same columns),
// and a second of slump after a press on the face (the cover off: it all slides) matches the
// reference within float slack: the tangent of the repose is the shader's own.
TEST(SnowpackSlopeGL, MatchesTheCpuReference) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    const auto terrain = face(60.0, 24);
    for (const bool follows : {true, false}) {
        SCOPED_TRACE(follows ? "cover follows the slope" : "uniform cover");
        SnowpackSettings settings;
        settings.coverFollowsSlope = follows;
        SnowpackSim sim;
        sim.setTerrain(terrain);
        auto error = sim.configure(settings, test::slopeRegion(kSize), kCaptureZ, kFar, shaders);
        ASSERT_FALSE(error) << *error;
        ASSERT_EQ(sim.groundCm().size(), std::size_t(kSize) * kSize);
        SnowpackReference cpu(kSize, settings, kCaptureZ, kFar, kTexelCm);
        cpu.setGround(sim.groundCm());
        std::vector<SnowColumn> gpu = sim.readBack();
        for (std::size_t t = 0; t < gpu.size(); ++t)
            ASSERT_EQ(gpu[t].depthCm, cpu.grid().columns[t].depthCm) << t;
        EXPECT_NEAR(sim.massStartKg(), sim.budget().massKg, sim.massStartKg() * 1e-6);

        gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
        for (int step = 0; step < 60; ++step) {
            std::vector<float> depth(std::size_t(kSize) * kSize, 1.0f);
            if (step < 20) { // a box pressed 10 cm above the ground on the lower face
                const float window =
                    (10.0f - cpu.constants().cameraAboveGroundCm) / cpu.constants().captureFarCm;
                for (int y = 20; y < 30; ++y)
                    for (int x = 28; x < 34; ++x)
                        depth[std::size_t(y) * kSize + x] = window;
            }
            capture.upload(depth);
            sim.step(capture, 1.0 / 60.0);
            cpu.step(depth, 1.0 / 60.0);
        }
        gpu = sim.readBack();
        const float worst = worstDepth(gpu, cpu.grid());
        EXPECT_LE(worst, 2e-3f);
        ::testing::Test::RecordProperty(follows ? "worst_depth_cm_cover" : "worst_depth_cm",
                                        std::to_string(worst));
        const SnowpackBudget budget = sim.budget();
        EXPECT_NEAR(budget.massKg, sim.massStartKg(), sim.massStartKg() * 1e-5);
    }
}

// 30 cm of fresh snow on a 60 degree face (the cover off) on the GPU: after 10 s the upper half
// of the face is bare and the budget closes within 1e-4.
TEST(SnowpackSlopeGL, SnowSlidesOffASixtyDegreeFace) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    settings.coverFollowsSlope = false;
    SnowpackSim sim;
    sim.setTerrain(face(60.0, 24));
    auto error = sim.configure(settings, test::slopeRegion(kSize), kCaptureZ, kFar, shaders);
    ASSERT_FALSE(error) << *error;
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    capture.clear(1.0f);
    for (int step = 0; step < 600; ++step)
        sim.step(capture, 1.0 / 60.0);
    const std::vector<SnowColumn> state = sim.readBack();
    float upper = 0.0f;
    double foot = 0.0;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const float depth = state[std::size_t(y) * kSize + x].depthCm;
            if (x >= 44)
                upper = std::max(upper, depth);
            if (x < 24)
                foot += depth;
        }
    EXPECT_LT(upper, kBareDepthCm);
    EXPECT_GT(foot / (24.0 * kSize), 35.0);
    const SnowpackBudget budget = sim.budget();
    EXPECT_NEAR(budget.massKg, sim.massStartKg(), sim.massStartKg() * 1e-4);
    ::testing::Test::RecordProperty("mass_error",
                                    std::to_string(budget.massKg / sim.massStartKg() - 1.0));
}

// A flat terrain is no terrain: no ground image, and the sim steps as it did without one.
TEST(SnowpackSlopeGL, FlatTerrainIsNone) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSim sim;
    sim.setTerrain(std::make_shared<const HeightField>());
    auto error =
        sim.configure(SnowpackSettings{}, test::slopeRegion(kSize), kCaptureZ, kFar, shaders);
    ASSERT_FALSE(error) << *error;
    EXPECT_TRUE(sim.groundCm().empty());
    gpu::FrameGraph graph;
    EXPECT_FALSE(sim.resources(graph, "snowpack").ground);
}

} // namespace
} // namespace snowcap

namespace snowcap {
namespace {

// The sun over a terrain on the GPU against the CPU reference: a 25 degree face towards the
// south under a sun 60 degrees high in the south, an hour of sky a second, for two seconds.
// The sun's normal stands on the ground's heights on both sides (the TERRAIN programs).
TEST(SnowpackSlopeGL, SunByAspectMatchesTheCpuReference) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    const double rise = std::tan(25.0 * kPi / 180.0) * kTexelCm;
    std::vector<float> heightsM;
    for (int row = 0; row < kSize; ++row) // row 0 north: the ground rises to the north
        for (int column = 0; column < kSize; ++column)
            heightsM.push_back(static_cast<float>(rise * (kSize - 1 - row) * 0.01));
    const auto terrain = std::make_shared<const HeightField>(
        kSize, kSize, heightsM, glm::dvec2(0.0), glm::dvec2(kSize * kTexelCm));
    SnowpackSettings settings;
    settings.meltTemperatureFactor = 0.0;
    WeatherSettings weather;
    weather.airTempC = 5.0;
    weather.sunWM2 = 800.0;
    weather.timeScale = 3600.0;
    const glm::vec3 sun(0.0f, -0.5f, 0.8660254f);
    SnowpackSim sim;
    sim.setTerrain(terrain);
    auto error = sim.configure(settings, test::slopeRegion(kSize), kCaptureZ, kFar, shaders);
    ASSERT_FALSE(error) << *error;
    error =
        sim.weather().configure(weather, settings, WindSettings{}, sun, kSize, kTexelCm, shaders);
    ASSERT_FALSE(error) << *error;
    const float corner = static_cast<float>(-0.5 * kSize * kTexelCm);
    WeatheredSnowpack cpu(kSize, settings, weather, WindSettings{}, sun, kCaptureZ, kFar, kTexelCm,
                          {corner, corner});
    cpu.setGround(sim.groundCm());
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
    float worstMass = 0.0f;
    for (std::size_t t = 0; t < gpu.size(); ++t)
        worstMass = std::max(worstMass, std::abs(gpu[t].massKgM2 - ref[t].massKgM2));
    // A sun-melt quantum can round either side of its floor (the shader's sqrt is not the
    // CPU's to the last bit): a few quanta of 2^-18 kg/m2 over 240 ticks at most.
    EXPECT_LE(worstMass, 1e-3f);
    ::testing::Test::RecordProperty("worst_mass_kg_m2", std::to_string(worstMass));
    // The face turned to the sun melted more than flat snow under it: on flat ground the
    // middle texel keeps about 0.4 kg/m2 more after these two hours (cos 30 deg against cos 5).
    WeatheredSnowpack flat(kSize, settings, weather, WindSettings{}, sun, kCaptureZ, kFar, kTexelCm,
                           {corner, corner});
    for (int step = 0; step < 120; ++step)
        flat.step(none, 1.0 / 60.0);
    const std::size_t middle = std::size_t(kSize / 2) * kSize + kSize / 2;
    EXPECT_LT(gpu[middle].massKgM2, flat.snowpack().grid().columns[middle].massKgM2 - 0.2f);
}

} // namespace
} // namespace snowcap
