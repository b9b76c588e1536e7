// The Weather panel's model (core/weather_timeline.hpp) and the falling snow's air
// (core/falling_snow.hpp): what the panel shows at a scrub time, and how many flakes, where.
#include "core/falling_snow.hpp"
#include "core/weather_timeline.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

// calm -> storm at 8 s -> thaw from 15 s (a jump in snowfall at 15 s).
WeatherSettings stormThenThaw() {
    WeatherSettings w;
    w.snowfallCmH = 0.0;
    w.airTempC = -5.0;
    WeatherSettings::Key storm, stop, thaw;
    storm.atS = 8.0;
    storm.values[0] = 24.0; // snowfall
    storm.values[2] = 14.0; // wind
    stop.atS = 15.0;
    stop.values[0] = 0.0; // with storm's 24 at 8 s... a ramp down to 0 at 15 s
    thaw.atS = 15.0;
    thaw.values[4] = 6.0; // air from -5 at 0 to +6 at 15 s
    w.keys = {storm, stop, thaw};
    return w;
}

TEST(WeatherTimeline, TheSkyAtTheScrubTimeIsTheTimelinesValueThere) {
    const WeatherSettings w = stormThenThaw();
    const double duration = 20.0;
    // Half way through the calm's ramp to the storm: 12 cm/h, 7 m/s.
    const Sky at4 = scrubbedSky(w, 4.0, duration);
    EXPECT_DOUBLE_EQ(at4.snowfallCmH, 12.0);
    EXPECT_DOUBLE_EQ(at4.windMS, 7.0);
    EXPECT_NEAR(at4.airTempC, -5.0 + 11.0 * 4.0 / 15.0, 1e-12);
    // At the storm's entry, then half way down its ramp to 0 at 15 s.
    EXPECT_DOUBLE_EQ(scrubbedSky(w, 8.0, duration).snowfallCmH, 24.0);
    EXPECT_DOUBLE_EQ(scrubbedSky(w, 11.5, duration).snowfallCmH, 12.0);
    // Held after the last entry; the scrubber cannot leave [0, duration].
    EXPECT_DOUBLE_EQ(scrubbedSky(w, 18.0, duration).airTempC, 6.0);
    EXPECT_DOUBLE_EQ(clampScrubTime(-3.0, duration), 0.0);
    EXPECT_DOUBLE_EQ(clampScrubTime(99.0, duration), duration);
    EXPECT_DOUBLE_EQ(scrubbedSky(w, 99.0, duration).windMS, skyAt(w, duration).windMS);
    // The panel's values are skyAt's, channel by channel, in the table's order.
    const auto values = skyValues(at4);
    EXPECT_DOUBLE_EQ(values[0], at4.snowfallCmH);
    EXPECT_DOUBLE_EQ(values[2], at4.windMS);
    EXPECT_DOUBLE_EQ(values[4], at4.airTempC);
    EXPECT_STREQ(weatherChannels()[0].key, "snowfall_cm_h");
    EXPECT_STREQ(weatherChannels()[5].key, "sun");
}

TEST(WeatherTimeline, SamplesTheRunAndMarksTheEntriesOfEachKey) {
    const WeatherSettings w = stormThenThaw();
    const WeatherTimeline t = weatherTimeline(w, 20.0, 81); // every 0.25 s
    ASSERT_EQ(t.timesS.size(), 81u);
    EXPECT_DOUBLE_EQ(t.timesS.front(), 0.0);
    EXPECT_DOUBLE_EQ(t.timesS.back(), 20.0);
    EXPECT_DOUBLE_EQ(t.values[0][16], 12.0); // 4 s
    EXPECT_DOUBLE_EQ(t.values[0][32], 24.0); // 8 s
    EXPECT_DOUBLE_EQ(t.values[0][80], 0.0);
    // Ranges over the run; what never changes is not plotted.
    EXPECT_TRUE(t.varies(0));
    EXPECT_DOUBLE_EQ(t.lo[0], 0.0);
    EXPECT_DOUBLE_EQ(t.hi[0], 24.0);
    EXPECT_DOUBLE_EQ(t.lo[4], -5.0);
    EXPECT_DOUBLE_EQ(t.hi[4], 6.0);
    EXPECT_FALSE(t.varies(1)); // density
    EXPECT_FALSE(t.varies(5)); // sun
    // Entries: snowfall at 8 and 15, wind at 8, air at 15.
    EXPECT_EQ(t.keyTimesS[0], (std::vector<double>{8.0, 15.0}));
    EXPECT_EQ(t.keyTimesS[2], (std::vector<double>{8.0}));
    EXPECT_EQ(t.keyTimesS[4], (std::vector<double>{15.0}));
    // A peak between two samples still sets the range: snowfall peaks at 8 s exactly.
    const WeatherTimeline coarse = weatherTimeline(w, 20.0, 4); // 0, 6.67, 13.3, 20
    EXPECT_DOUBLE_EQ(coarse.hi[0], 24.0);
    // The panel spans the run, or the sky's last entry when that comes later.
    EXPECT_DOUBLE_EQ(timelineSpanS(w, 20.0), 20.0);
    EXPECT_DOUBLE_EQ(timelineSpanS(w, 0.5), 15.0);
    // An entry past the end of the run is not marked.
    EXPECT_TRUE(weatherTimeline(w, 10.0, 11).keyTimesS[4].empty());
}

TEST(FallingSnow, FlakesFollowTheSnowfallAndTheLookKey) {
    LookSettings look;
    ASSERT_TRUE(look.fallingSnow); // on by default
    // 2 cm/h of 100 kg/m3 is 2 mm/h of water ("Measurements on new-fallen snow" counts in it).
    EXPECT_DOUBLE_EQ(snowfallWaterMmH(2.0, 100.0), 2.0);
    const double volume = 4.0 * 4.0 * 2.0;
    const int at2 = fallingFlakeCount(look, 2.0, 100.0, volume);
    EXPECT_EQ(at2, static_cast<int>(std::round(look.fallingSnowFlakes * 2.0 * volume)));
    EXPECT_EQ(fallingFlakeCount(look, 4.0, 100.0, volume), 2 * at2); // proportional
    EXPECT_EQ(fallingFlakeCount(look, 0.0, 100.0, volume), 0);
    EXPECT_EQ(fallingFlakeCount(look, 1000.0, 100.0, volume), look.fallingSnowMaxFlakes);
    look.fallingSnow = false;
    EXPECT_EQ(fallingFlakeCount(look, 2.0, 100.0, volume), 0);
}

TEST(FallingSnow, AFlakeIsAFunctionOfTimeThatFallsAndDriftsWithTheWind) {
    WeatherSettings w;
    w.snowfallCmH = 3.0;
    w.windMS = 2.0;
    w.windTowardDeg = 90.0; // towards +Y
    WindSettings wind;
    wind.gustAmount = 0.0;
    const Region region{{100.0, -50.0}, 400.0, 256};
    const LookSettings look;
    const FallingSnowAir a = fallingSnowAir(w, wind, look, region, 10.0, 5.0);
    EXPECT_GT(a.flakes, 0);
    EXPECT_FLOAT_EQ(a.boxes[0].minCm.z, 10.0f); // on the snow's top
    EXPECT_FLOAT_EQ(a.boxes[0].sizeCm.z, 200.0f);
    EXPECT_NEAR(a.windDirection.y, 1.0f, 1e-6f);
    // The same time, the same place; every flake inside the box.
    for (int i = 0; i < 200; ++i) {
        const glm::vec3 p = flakePosition(a, i);
        EXPECT_EQ(p, flakePosition(a, i));
        EXPECT_GE(p.x, a.boxes[0].minCm.x);
        EXPECT_LE(p.x, a.boxes[0].minCm.x + a.boxes[0].sizeCm.x);
        EXPECT_GE(p.z, a.boxes[0].minCm.z);
        EXPECT_LE(p.z, a.boxes[0].minCm.z + a.boxes[0].sizeCm.z);
    }
    // A tenth of a second later each flake is lower by its fall speed (0.6 .. 1.4 m/s) and
    // downwind by the wind's 2 m/s, unless it wrapped round the box.
    FallingSnowAir later = a;
    later.timeS = 5.1;
    int checked = 0;
    for (int i = 0; i < 200; ++i) {
        const glm::vec3 d = flakePosition(later, i) - flakePosition(a, i);
        if (d.z > 0.0f || d.y < 0.0f)
            continue; // wrapped
        ++checked;
        EXPECT_GE(-d.z, kFlakeFallMinCmS * 0.1f - 0.01f);
        EXPECT_LE(-d.z, kFlakeFallMaxCmS * 0.1f + 0.01f);
        EXPECT_NEAR(d.y, 20.0f, 0.01f);
        EXPECT_NEAR(d.x, 0.0f, 0.01f);
    }
    EXPECT_GT(checked, 150);
}

} // namespace
} // namespace snowcap
