// Settling under the sky (settleClimate, core/weather_laws.hpp): one clock for every slow process
// (the sky's time_scale drives settling too) and the snow at the sky's air temperature, capped at
// 0 C; without a sky, the snowpack's own temperature_c and rate, as before.
#include "core/weather_laws.hpp"
#include "snow/weather_reference.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(SettleClimate, WithoutASkyItIsTheSnowpacksOwn) {
    SnowpackSettings snowpack;
    snowpack.settleTimeScale = 7.0;
    snowpack.temperatureC = -12.0;
    const SettleClimate climate = settleClimate(snowpack, WeatherSettings{}, 5.0, 3);
    EXPECT_EQ(climate.dtS, static_cast<float>(3 * snowpack.settleIntervalS * 7.0));
    EXPECT_EQ(climate.temperatureC, -12.0f);
}

TEST(SettleClimate, UnderASkyItRunsOnTheSkysClockAtItsAirTemperature) {
    SnowpackSettings snowpack;
    WeatherSettings weather;
    weather.timeScale = 3600.0;
    weather.airTempC = -15.0;
    SettleClimate climate = settleClimate(snowpack, weather, 1.0, 2);
    EXPECT_EQ(climate.dtS, static_cast<float>(2 * snowpack.settleIntervalS * 3600.0));
    EXPECT_EQ(climate.temperatureC, -15.0f);
    // settle_time_scale stays a multiplier on top; a thaw's air leaves the snow at 0 C.
    snowpack.settleTimeScale = 0.5;
    weather.airTempC = 4.0;
    climate = settleClimate(snowpack, weather, 1.0, 2);
    EXPECT_EQ(climate.dtS, static_cast<float>(2 * snowpack.settleIntervalS * 0.5 * 3600.0));
    EXPECT_EQ(climate.temperatureC, 0.0f);
}

TEST(SettleClimate, AMultiDayColdSpellSettlesTheSnowOnTheWeathersClock) {
    // Ten seconds of run at an hour a second and -2 C: ten settling ticks of an hour each at
    // -2 C, the law applied tick by tick to the untouched column (before, settling ran at nature's
    // rate and -5 C whatever the sky: ten seconds of it).
    SnowpackSettings snowpack;
    WeatherSettings weather;
    weather.timeScale = 3600.0;
    weather.airTempC = -2.0;
    WeatheredSnowpack pack(8, snowpack, weather, WindSettings{}, {0.0f, 0.0f, 1.0f}, -100.0, 2000.0,
                           1.0);
    const std::vector<float> nothing(64, 1.0f);
    for (int i = 0; i < 300; ++i)
        pack.step(nothing, 1.0 / 30.0);
    SnowColumn expected = initialColumn(pack.snowpack().constants());
    for (int tick = 0; tick < 10; ++tick)
        expected = settleColumn(expected, 3600.0f, -2.0f, pack.snowpack().constants());
    const SnowColumn& settled = pack.snowpack().grid().at(4, 4);
    EXPECT_EQ(settled.depthCm, expected.depthCm);
    // Ten hours at -2 C take about 9 % off 30 cm of 120 kg/m3 snow.
    EXPECT_LT(settled.depthCm, 0.93f * 30.0f);
    EXPECT_GT(settled.depthCm, 0.85f * 30.0f);
}

} // namespace
} // namespace snowcap
