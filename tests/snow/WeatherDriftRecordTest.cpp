// What drifted, per texel (WeatherReference::driftRecord, docs/weather.md §2), on the CPU
// reference: it sums to the drift's border in minus out, it shows the deposit in a trench's
// upwind half and the erosion around it, and no wind records nothing.
#include "snow/SnowpackCaptureSupport.hpp"
#include "snow/weather_reference.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <gtest/gtest.h>
#include <numeric>
#include <vector>

namespace snowcap {
namespace {

constexpr int kSize = 64;
constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;
const glm::vec3 kSun(-0.6f, -0.45f, 0.35f);

// A trench across the wind: a box 4 cm above the ground over x 26..37, pressed for `steps`.
std::vector<float> captureAt(int step, const SnowpackConstants& c) {
    return test::boxCapture(kSize, step < 10, 26, 0, 38, kSize, 4.0f, c);
}

std::int64_t sumOf(std::span<const std::int32_t> record) {
    return std::accumulate(record.begin(), record.end(), std::int64_t{0});
}

// The border's in less its out, in quanta: what the record must sum to.
std::int64_t borderQuanta(const WeatherTotals& totals) {
    return static_cast<std::int64_t>(totals.driftInQuanta) -
           static_cast<std::int64_t>(totals.driftOutQuanta);
}

// A storm with gusts and snowfall over a pressed trench: the record is the drift's alone, and
// over the region what arrived less what was sent is what crossed the border, to the quantum.
TEST(WeatherDriftRecord, SumsToTheDriftsBorderInMinusOut) {
    WeatherSettings w;
    w.snowfallCmH = 4.0;
    w.windMS = 15.0;
    w.windTowardDeg = 200.0; // mostly -X, a little -Y: both faces, both borders reversed
    w.timeScale = 60.0;
    const SnowpackSettings s;
    WeatheredSnowpack pack(kSize, s, w, WindSettings{}, kSun, kCaptureZ, kFar, 1.0);
    for (int step = 0; step < 120; ++step)
        pack.step(captureAt(step, pack.snowpack().constants()), 1.0 / 60.0);
    const WeatherTotals& totals = pack.weather().totals();
    const std::span<const std::int32_t> record = pack.weather().driftRecord();
    EXPECT_EQ(sumOf(record), borderQuanta(totals));
    EXPECT_GT(totals.driftInQuanta, 0u);
    EXPECT_GT(totals.driftOutQuanta, 0u);
    EXPECT_LT(totals.driftInQuanta, totals.inQuanta); // the snowfall is not in the record
    const auto [least, most] = std::minmax_element(record.begin(), record.end());
    EXPECT_LT(*least, 0); // erosion somewhere
    EXPECT_GT(*most, 0);  // deposit somewhere
}

// The trench of WeatherDrift.ConservesMassAndFillsATrenchFromItsUpwindWall (15 m/s towards +X,
// no gusts): the record shows the deposit in the trench's upwind half, more than in its
// downwind half, where the depth shows it.
TEST(WeatherDriftRecord, ShowsTheDepositInATrenchsUpwindHalf) {
    WeatherSettings w;
    w.windMS = 15.0;
    WindSettings calmGusts;
    calmGusts.gustAmount = 0.0;
    const SnowpackSettings s;
    WeatheredSnowpack pack(kSize, s, w, calmGusts, kSun, kCaptureZ, kFar, 1.0);
    for (int step = 0; step < 186; ++step)
        pack.step(captureAt(step < 6 ? 0 : 10, pack.snowpack().constants()), 1.0 / 60.0);
    const std::span<const std::int32_t> record = pack.weather().driftRecord();
    EXPECT_EQ(sumOf(record), borderQuanta(pack.weather().totals()));
    const auto meanKgM2 = [&](int x0, int x1) {
        double sum = 0.0;
        for (int y = 8; y < 56; ++y)
            for (int x = x0; x < x1; ++x)
                sum += record[static_cast<std::size_t>(y) * kSize + x];
        return sum * kWeatherQuantum / ((x1 - x0) * 48.0);
    };
    const double upwindHalf = meanKgM2(26, 32), downwindHalf = meanKgM2(32, 38);
    const auto [least, most] = std::minmax_element(record.begin(), record.end());
    std::printf("drift record: trench upwind half %+.4f kg/m2, downwind half %+.4f; texels "
                "%+.4f .. %+.4f kg/m2\n",
                upwindHalf, downwindHalf, *least * kWeatherQuantum, *most * kWeatherQuantum);
    EXPECT_GT(upwindHalf, 0.0);
    EXPECT_GT(upwindHalf, downwindHalf);
    EXPECT_LT(*least, 0);
}

TEST(WeatherDriftRecord, NoWindRecordsNothing) {
    WeatherSettings w;
    w.snowfallCmH = 6.0;
    w.airTempC = 3.0;
    w.sunWM2 = 800.0;
    w.timeScale = 600.0;
    const SnowpackSettings s;
    WeatheredSnowpack pack(kSize, s, w, WindSettings{}, kSun, kCaptureZ, kFar, 1.0);
    for (int step = 0; step < 30; ++step)
        pack.step(captureAt(step, pack.snowpack().constants()), 1.0 / 60.0);
    EXPECT_GT(pack.massInKg(), 0.0);
    const std::span<const std::int32_t> record = pack.weather().driftRecord();
    EXPECT_TRUE(std::all_of(record.begin(), record.end(), [](std::int32_t q) { return q == 0; }));
}

} // namespace
} // namespace snowcap
