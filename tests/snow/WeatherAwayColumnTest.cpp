// A column away from every window under wind (core/weather_laws.hpp, weatherAwayColumn;
// docs/snowpack.md section 6.3): a following snowpack's undisturbed column and its world store's
// columns receive what they send. The oracle is the weather's own CPU reference: on a flat field
// of equal columns under an even wind every texel of WeatherReference is the column replayed
// alone, bit for bit, tick after tick; drift turns the column over (its depth changes) and never
// changes its mass. Under gusts the field ripples, and its mean mass stays the column's within a
// measured figure. The store's log replays the same law.
#include "core/weather_laws.hpp"
#include "snow/snowpack_store.hpp"
#include "snow/weather_reference.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSize = 24;
constexpr float kTexelCm = 4.0f;

SnowpackConstants constants() {
    SnowpackConstants c;
    c.texelCm = kTexelCm;
    return c;
}

// Settled snow, denser than the 120 kg/m3 that drifted snow lands at: the turn-over shows.
SnowColumn settled() {
    return {26.0f, columnMass(30.0f, 120.0f), 0.0f, 0.0f};
}

WeatherSettings windySky() {
    WeatherSettings w;
    w.snowfallCmH = 6.0;
    w.airTempC = -5.0;
    w.windMS = 9.0;
    w.windTowardDeg = 30.0; // both faces carry
    w.timeScale = 60.0;
    return w;
}

WindSettings wind(double gustAmount) {
    WindSettings wind;
    wind.gustAmount = gustAmount;
    return wind;
}

bool sameBits(const SnowColumn& a, const SnowColumn& b) {
    return std::memcmp(&a, &b, sizeof(SnowColumn)) == 0;
}

TEST(WeatherAwayColumn, IsEveryTexelOfAFlatFieldUnderAnEvenWind) {
    const SnowpackConstants c = constants();
    WeatherClock clock(windySky(), SnowpackSettings{}, wind(0.0), {0.0f, 0.0f, 1.0f});
    WeatherReference reference(c, kSize, {-48.0f, 96.0f});
    SnowpackGrid grid{kSize, std::vector<SnowColumn>(kSize * kSize, settled())};
    const std::vector<std::uint8_t> inside(kSize * kSize, 0);
    SnowColumn alone = settled(), noDrift = settled();
    std::uint64_t fell = 0;
    int ticks = 0;
    for (const WeatherTick& tick : clock.advance(4.0)) {
        reference.tick(grid, inside, tick);
        const WeatheredColumn w = weatherAwayColumn(alone, tick, c);
        alone = w.column;
        fell += w.inQuanta;
        EXPECT_EQ(w.outQuanta, 0u); // dry snow: nothing drains
        noDrift = weatherColumn(noDrift, tick, true, {0.0f, 0.0f, 1.0f}).column;
        for (int t = 0; t < kSize * kSize; ++t)
            ASSERT_TRUE(sameBits(grid.columns[t], alone)) << "tick " << ticks << " texel " << t;
        ++ticks;
    }
    ASSERT_EQ(ticks, 120);
    // The drift ran (the reference counted it across its border) and moved no mass: the column
    // holds its snow and what fell, exactly, as the column without drift does.
    EXPECT_GT(reference.totals().driftInQuanta, 100000u);
    EXPECT_EQ(reference.totals().driftInQuanta, reference.totals().driftOutQuanta);
    EXPECT_EQ(alone.massKgM2, noDrift.massKgM2);
    EXPECT_EQ(double(alone.massKgM2),
              double(settled().massKgM2) + double(fell) * double(kWeatherQuantum));
    // It turned the settled top over to loose snow: deeper than without drift.
    std::printf("[ away ] 120 ticks: %.4f cm with drift, %.4f cm without, %.3f kg/m2 drifted "
                "through a texel\n",
                alone.depthCm, noDrift.depthCm,
                double(reference.totals().driftInQuanta) * double(kWeatherQuantum) / (2.0 * kSize));
    EXPECT_GT(alone.depthCm, noDrift.depthCm + 0.5f);
}

TEST(WeatherAwayColumn, UnderGustsTheFieldRipplesAboutIt) {
    // Gusts sweep the field (the wind varies along it), so its texels send and receive
    // different amounts: the field ripples in mass, which a column without a place cannot.
    // Its mean stays the column's: what the texels gain and lose cancels over the interior.
    const SnowpackConstants c = constants();
    WeatherClock clock(windySky(), SnowpackSettings{}, wind(0.6), {0.0f, 0.0f, 1.0f});
    WeatherReference reference(c, kSize, {-48.0f, 96.0f});
    SnowpackGrid grid{kSize, std::vector<SnowColumn>(kSize * kSize, settled())};
    const std::vector<std::uint8_t> inside(kSize * kSize, 0);
    SnowColumn alone = settled();
    for (const WeatherTick& tick : clock.advance(4.0)) {
        reference.tick(grid, inside, tick);
        alone = weatherAwayColumn(alone, tick, c).column;
    }
    double sum = 0.0, worst = 0.0, worstDepth = 0.0, depthSum = 0.0;
    for (const SnowColumn& column : grid.columns) {
        sum += column.massKgM2;
        depthSum += column.depthCm;
        worst = std::max(worst, std::abs(double(column.massKgM2) - double(alone.massKgM2)));
        worstDepth = std::max(worstDepth, std::abs(double(column.depthCm - alone.depthCm)));
    }
    const double n = double(kSize) * kSize;
    const double mean = sum / n;
    std::printf("[ away ] gusts 0.6: field mean %.4f kg/m2 (alone %.4f), worst texel %.4f kg/m2 "
                "and %.4f cm off; mean depth %.4f cm (alone %.4f)\n",
                mean, double(alone.massKgM2), worst, worstDepth, depthSum / n,
                double(alone.depthCm));
    EXPECT_GT(worst, 0.01) << "the gusts should ripple the field";
    // The field's mean mass is the column's within what crossed the region's borders unevenly.
    EXPECT_NEAR(mean, double(alone.massKgM2), 0.005 * double(alone.massKgM2)); // 0.16 % measured
}

TEST(WeatherAwayColumn, TheStoreReplaysItWithTheSimsConstants) {
    SnowpackConstants c = constants();
    c.initialDensity = 140.0f; // not the default: the log must carry the sim's
    WeatherClock clock(windySky(), SnowpackSettings{}, wind(0.0), {0.0f, 0.0f, 1.0f});
    SnowpackLog log;
    SnowColumn expected = settled();
    std::uint64_t fell = 0;
    for (const WeatherTick& tick : clock.advance(1.0)) {
        log.record(tick, c);
        const WeatheredColumn w = weatherAwayColumn(expected, tick, c);
        expected = w.column;
        fell += w.inQuanta;
    }
    SkyQuanta sky;
    const SnowColumn aged = log.age(settled(), 0, &sky);
    EXPECT_TRUE(sameBits(aged, expected));
    EXPECT_EQ(sky.in, fell);
    EXPECT_EQ(sky.out, 0u);
    // With the default constants the loose snow lands at another density: another depth.
    SnowColumn defaults = settled();
    WeatherClock again(windySky(), SnowpackSettings{}, wind(0.0), {0.0f, 0.0f, 1.0f});
    SnowpackConstants d;
    d.texelCm = kTexelCm;
    for (const WeatherTick& tick : again.advance(1.0))
        defaults = weatherAwayColumn(defaults, tick, d).column;
    EXPECT_NE(defaults.depthCm, aged.depthCm);
    EXPECT_EQ(defaults.massKgM2, aged.massKgM2);
}

} // namespace
} // namespace snowcap
