// Wind on terrain on the CPU reference: the drift's weighting takes the ground's slope along the
// wind and its curvature (MicroMet), so wind across a ridge scours its windward side and loads
// its lee, and the budget closes.
#include "SlopeTestSupport.hpp"
#include "core/weather_laws.hpp"
#include "snow/snowpack_terrain.hpp"
#include "snow/weather_reference.hpp"
#include "terrain/height_field.hpp"

#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <memory>
#include <numeric>
#include <vector>

namespace snowcap {
namespace {

constexpr double kTexelCm = test::kSlopeTexelCm;
constexpr double kCaptureZ = test::kSlopeCaptureZ;
constexpr double kFar = test::kSlopeFar;
constexpr int kSize = 64;
constexpr double kRidgeCm = 100.0; // the crest's height
constexpr double kHalfWidthCm = 120.0;

// A north-south ridge across the wind, exp(-(x / w)^2) high, its crest on x = 0, on a field
// twice the region's side (the curvature looks past the region's border). Its steepest slope is
// 100 sqrt 2 / 120 exp(-1/2) = 0.71, 35 degrees.
std::shared_ptr<const HeightField> ridge() {
    const int n = 2 * kSize;
    std::vector<float> heightsM;
    for (int row = 0; row < n; ++row)
        for (int column = 0; column < n; ++column) {
            const double x = (column + 0.5 - 0.5 * n) * kTexelCm;
            heightsM.push_back(static_cast<float>(
                0.01 * kRidgeCm * std::exp(-(x / kHalfWidthCm) * (x / kHalfWidthCm))));
        }
    return std::make_shared<const HeightField>(n, n, heightsM, glm::dvec2(0.0),
                                               glm::dvec2(n * kTexelCm));
}

WeatherSettings windyWeather() {
    WeatherSettings weather;
    weather.windMS = 10.0; // towards +X, across the ridge
    weather.timeScale = 60.0;
    return weather;
}

struct RidgeRun {
    double windwardKgM2 = 0.0; // the drift record summed over the windward face (x < 0)
    double leeKgM2 = 0.0;      // and over the lee (x > 0), both within 2 half-widths
    double massError = 0.0;
    std::vector<SnowColumn> columns;
};

// `seconds` of wind at `fps` over the ridge (with `terrain`: the ground's weighting; without, the
// same ground and snow with the weighting of flat ground).
RidgeRun blowOverTheRidge(double fps, double seconds, bool terrain) {
    const auto field = ridge();
    const Region r = test::slopeRegion(kSize);
    const SnowpackSettings snowpack;
    const float corner = static_cast<float>(-0.5 * kSize * kTexelCm);
    WeatheredSnowpack cpu(kSize, snowpack, windyWeather(), WindSettings{}, {0.0f, 0.0f, 1.0f},
                          kCaptureZ, kFar, kTexelCm, {corner, corner});
    cpu.setGround(snowpackGroundCm(*field, r));
    if (terrain)
        cpu.setWindTerrain(windTerrainTerms(*field, r, 2.0 * kHalfWidthCm));
    const std::vector<float> none(static_cast<std::size_t>(kSize) * kSize, 1.0f);
    const int steps = static_cast<int>(std::lround(seconds * fps));
    for (int step = 0; step < steps; ++step)
        cpu.step(none, 1.0 / fps);
    RidgeRun run;
    const auto record = cpu.weather().driftRecord();
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const double xCm = (x + 0.5 - 0.5 * kSize) * kTexelCm;
            const double kg = record[static_cast<std::size_t>(y) * kSize + x] * kWeatherQuantum;
            if (xCm < 0.0 && xCm > -2.0 * kHalfWidthCm)
                run.windwardKgM2 += kg;
            if (xCm > 0.0 && xCm < 2.0 * kHalfWidthCm)
                run.leeKgM2 += kg;
        }
    run.massError =
        (cpu.massKg() - cpu.massStartKg() - cpu.massInKg() + cpu.massOutKg()) / cpu.massStartKg();
    run.columns = cpu.snowpack().grid().columns;
    return run;
}

TEST(WindTerrain, TermsFollowMicroMet) {
    const auto terms = windTerrainTerms(*ridge(), test::slopeRegion(kSize), 2.0 * kHalfWidthCm);
    const auto at = [&](int x) {
        return terms[static_cast<std::size_t>(kSize / 2) * kSize + x];
    };
    float steepest = 0.0f, curviest = 0.0f;
    for (const WindTerrain& t : terms) {
        steepest = std::max(steepest, std::hypot(t.slopeX, t.slopeY));
        curviest = std::max(curviest, std::abs(t.curvature));
        EXPECT_NEAR(t.slopeY, 0.0f, 1e-6f); // a north-south ridge has no slope along y
    }
    // Scaled by the region's largest: the steepest slope is 1 (MicroMet's 0.5 after the
    // weighting's halving), the largest curvature 0.25 (0.5 after its doubling).
    EXPECT_NEAR(steepest, 1.0f, 1e-6f);
    EXPECT_NEAR(curviest, 0.25f, 1e-6f);
    // The windward face rises along +X, the lee falls; the crest is convex, the feet concave.
    EXPECT_GT(at(kSize / 2 - 8).slopeX, 0.5f);
    EXPECT_LT(at(kSize / 2 + 8).slopeX, -0.5f);
    EXPECT_NEAR(at(kSize / 2 - 1).curvature, 0.25f, 0.01f);
    EXPECT_LT(at(kSize / 2 - 20).curvature, 0.0f);
    // Flat ground: every term 0.
    for (const WindTerrain& t : windTerrainTerms(HeightField(), test::slopeRegion(kSize), 100.0))
        EXPECT_TRUE(t.slopeX == 0.0f && t.slopeY == 0.0f && t.curvature == 0.0f);
}

TEST(WindTerrain, WindAcrossARidgeScoursTheWindwardAndLoadsTheLee) {
    const RidgeRun ridgeRun = blowOverTheRidge(30.0, 5.0, true);
    const RidgeRun flatRun = blowOverTheRidge(30.0, 5.0, false);
    std::printf("ridge: windward %.3f, lee %.3f kg/m2 summed; without the ground's weighting "
                "%.4f, %.4f; mass error %.2e\n",
                ridgeRun.windwardKgM2, ridgeRun.leeKgM2, flatRun.windwardKgM2, flatRun.leeKgM2,
                ridgeRun.massError);
    // The record sums kg/m2 over 24 x 64 texels a face: -100 is a mean of -0.065 kg/m2.
    EXPECT_LT(ridgeRun.windwardKgM2, -100.0);
    EXPECT_GT(ridgeRun.leeKgM2, 100.0);
    // Without the ground's weighting the snow on the ridge (parallel to the ground) drifts as on
    // flat ground: nothing gathers or goes.
    EXPECT_LT(std::abs(flatRun.windwardKgM2), 0.01 * std::abs(ridgeRun.windwardKgM2));
    EXPECT_LT(std::abs(flatRun.leeKgM2), 0.01 * ridgeRun.leeKgM2);
    // The budget closes as the snowpack's does (1e-4 of the mass over a run).
    EXPECT_LT(std::abs(ridgeRun.massError), 1e-4);
    ::testing::Test::RecordProperty("windward_kg_m2", std::to_string(ridgeRun.windwardKgM2));
    ::testing::Test::RecordProperty("lee_kg_m2", std::to_string(ridgeRun.leeKgM2));
    ::testing::Test::RecordProperty("mass_error", std::to_string(ridgeRun.massError));
}

// The weather acts on fixed ticks whatever the frame rate, and the snowpack's slump and settling
// on their own fixed ticks: the drift over the ridge is the same at 30, 60, 144 and 240 fps
// (bit for bit on this machine; the bounds are slump's, docs/snowpack_slopes.md section 7).
TEST(WindTerrain, TheDriftOverTheRidgeIsFrameRateIndependent) {
    const RidgeRun reference = blowOverTheRidge(60.0, 2.0, true);
    for (double fps : {30.0, 144.0, 240.0}) {
        const RidgeRun run = blowOverTheRidge(fps, 2.0, true);
        float worstCm = 0.0f;
        for (std::size_t t = 0; t < run.columns.size(); ++t)
            worstCm =
                std::max(worstCm, std::abs(run.columns[t].depthCm - reference.columns[t].depthCm));
        std::printf("%g fps: windward %.4f lee %.4f kg/m2 (60 fps: %.4f, %.4f), worst depth "
                    "%.6f cm, mass error %.2e\n",
                    fps, run.windwardKgM2, run.leeKgM2, reference.windwardKgM2, reference.leeKgM2,
                    worstCm, run.massError);
        EXPECT_NEAR(run.windwardKgM2, reference.windwardKgM2,
                    0.01 * std::abs(reference.windwardKgM2));
        EXPECT_NEAR(run.leeKgM2, reference.leeKgM2, 0.01 * reference.leeKgM2);
        EXPECT_LT(worstCm, 1e-4f);
        EXPECT_LT(std::abs(run.massError), 1e-4);
    }
}

} // namespace
} // namespace snowcap
