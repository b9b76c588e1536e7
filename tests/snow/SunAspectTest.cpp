// The sun by aspect on the CPU reference: the sun's melt takes the normal of the snow's tops
// standing on the terrain, so a south face melts out before a north face under the same sun,
// by the ratio of their cosines.
#include "SlopeTestSupport.hpp"
#include "core/snowpack_laws.hpp"
#include "core/weather_laws.hpp"
#include "snow/weather_reference.hpp"

#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <gtest/gtest.h>
#include <vector>

namespace snowcap {
namespace {

constexpr double kTexelCm = test::kSlopeTexelCm;
constexpr double kCaptureZ = test::kSlopeCaptureZ;
constexpr double kFar = test::kSlopeFar;
constexpr int kSize = 16;
constexpr double kPi = 3.14159265358979;

// Ground rising to the north (+y) at `riseTan`: a face towards the south; negative: the north.
std::vector<float> tilted(double riseTan) {
    std::vector<float> ground(static_cast<std::size_t>(kSize) * kSize);
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x)
            ground[static_cast<std::size_t>(y) * kSize + x] =
                static_cast<float>(riseTan * kTexelCm * y);
    return ground;
}

// Seconds of run (an hour of sky a second) until the middle texel has no snow left, melted by
// the sun alone (no degree-day term) at `sun`.
double meltOutS(double riseTan, glm::vec3 sun) {
    SnowpackSettings snowpack;
    snowpack.meltTemperatureFactor = 0.0; // the sun alone: its share is what aspect changes
    WeatherSettings weather;
    weather.airTempC = 5.0; // the melt's models act above 0 C
    weather.sunWM2 = 800.0;
    weather.timeScale = 3600.0;
    WeatheredSnowpack cpu(kSize, snowpack, weather, WindSettings{}, sun, kCaptureZ, kFar, kTexelCm);
    cpu.setGround(tilted(riseTan));
    const std::vector<float> none(static_cast<std::size_t>(kSize) * kSize, 1.0f);
    constexpr double fps = 30.0;
    for (int step = 1; step < 200 * 30; ++step) {
        cpu.step(none, 1.0 / fps);
        if (cpu.snowpack().grid().at(kSize / 2, kSize / 2).massKgM2 <= 0.0f)
            return step / fps;
    }
    return 1e9;
}

// A sun 60 degrees high in the south over two 25 degree faces: facing it, the south face takes
// cos 5 deg = 0.996 of the beam, the north face cos 55 deg = 0.574. The south face melts out
// first, and the times are in the inverse ratio of the cosines within 10 %.
TEST(SunAspect, SouthFaceMeltsOutFirstByTheCosines) {
    const double elevation = 60.0 * kPi / 180.0, slope = 25.0 * kPi / 180.0;
    const glm::vec3 sun(0.0f, static_cast<float>(-std::cos(elevation)),
                        static_cast<float>(std::sin(elevation)));
    const double cosSouth = std::sin(elevation + slope); // normal (0, -sin s, cos s)
    const double cosNorth = std::sin(elevation - slope); // normal (0, sin s, cos s)
    const double south = meltOutS(std::tan(slope), sun);
    const double north = meltOutS(-std::tan(slope), sun);
    const double flat = meltOutS(0.0, sun);
    std::printf("melt-out: south %.2f s, flat %.2f s, north %.2f s; north / south %.3f "
                "(cosines %.3f)\n",
                south, flat, north, north / south, cosSouth / cosNorth);
    EXPECT_LT(south, flat);
    EXPECT_LT(flat, north);
    EXPECT_NEAR(north / south, cosSouth / cosNorth, 0.1 * cosSouth / cosNorth);
    EXPECT_NEAR(flat / south, cosSouth / std::sin(elevation), 0.1 * cosSouth / std::sin(elevation));
    ::testing::Test::RecordProperty("north_over_south", std::to_string(north / south));
}

double elevationDeg(glm::dvec3 sun) {
    return std::asin(sun.z) * 180.0 / kPi;
}

// The sun's place from Spencer's declination: at noon it stands in the meridian (south of a
// northern observer) at 90 - latitude + declination; the equinox's declination is about 0 and
// the June solstice's 23.44 degrees (the obliquity); it rises in the east at 6 h on the equinox.
TEST(SolarPosition, NoonEquinoxSolsticeAndSunrise) {
    const glm::dvec3 equinox = solarDirection(46.0, 80.0, 12.0);
    EXPECT_NEAR(elevationDeg(equinox), 44.0, 0.5);
    EXPECT_NEAR(equinox.x, 0.0, 1e-9);
    EXPECT_LT(equinox.y, 0.0); // south
    EXPECT_NEAR(glm::length(equinox), 1.0, 1e-9);
    EXPECT_NEAR(elevationDeg(solarDirection(46.0, 172.0, 12.0)), 90.0 - 46.0 + 23.44, 0.3);
    EXPECT_NEAR(elevationDeg(solarDirection(46.0, 355.0, 12.0)), 90.0 - 46.0 - 23.44, 0.3);
    const glm::dvec3 sunrise = solarDirection(46.0, 80.0, 6.0);
    EXPECT_NEAR(elevationDeg(sunrise), 0.0, 0.5);
    EXPECT_GT(sunrise.x, 0.99); // east
    // Morning and afternoon mirror each other across the meridian.
    const glm::dvec3 morning = solarDirection(46.0, 120.0, 9.5);
    const glm::dvec3 afternoon = solarDirection(46.0, 120.0, 14.5);
    EXPECT_NEAR(morning.x, -afternoon.x, 1e-12);
    EXPECT_NEAR(morning.y, afternoon.y, 1e-12);
    EXPECT_NEAR(morning.z, afternoon.z, 1e-12);
    // South of the tropics the noon sun stands in the north.
    EXPECT_GT(solarDirection(-35.0, 80.0, 12.0).y, 0.0);
    // At midnight it is below the horizon.
    EXPECT_LT(solarDirection(46.0, 172.0, 0.0).z, 0.0);
}

// [weather] sun_hour places the sky's sun; negative keeps look.sun_direction; below the horizon
// it melts nothing.
TEST(SolarPosition, TheSkysSunFollowsTheHour) {
    WeatherSettings weather;
    weather.airTempC = 5.0;
    weather.sunWM2 = 800.0;
    const glm::vec3 look(0.0f, -0.6f, 0.8f);
    EXPECT_EQ(weatherSunDirection(weather, look), look);
    weather.sunHour = 12.0;
    weather.latitudeDeg = 46.0;
    weather.dayOfYear = 80.0;
    const glm::vec3 noon = weatherSunDirection(weather, look);
    EXPECT_NEAR(noon.z, std::sin(44.0 * kPi / 180.0), 0.01);
    WeatherClock clock(weather, SnowpackSettings{}, WindSettings{}, look);
    const auto ticks = clock.advance(0.1);
    ASSERT_FALSE(ticks.empty());
    EXPECT_EQ(ticks[0].sunDirection, noon);
    EXPECT_GT(ticks[0].sunMeltPerCos, 0.0f);
    weather.sunHour = 0.0;
    WeatherClock night(weather, SnowpackSettings{}, WindSettings{}, look);
    const auto dark = night.advance(0.1);
    ASSERT_FALSE(dark.empty());
    EXPECT_EQ(dark[0].sunMeltPerCos, 0.0f);
}

// The thaw by aspect under the sun of a time and place: noon at the March equinox at 46 N puts
// the sun 44 degrees high in the south; a 25 degree south face takes sin 69 = 0.934 of the beam,
// a north face sin 19 = 0.326: the north face melts out 2.87 times later, within 10 %.
TEST(SolarPosition, SouthAndNorthFacesMeltOutByTheCosinesOfTheHour) {
    WeatherSettings weather;
    weather.sunHour = 12.0;
    weather.latitudeDeg = 46.0;
    weather.dayOfYear = 80.0;
    const glm::vec3 sun = weatherSunDirection(weather, {0.0f, 0.0f, 1.0f});
    const double slope = 25.0 * kPi / 180.0;
    const double elevation = std::asin(static_cast<double>(sun.z));
    const double cosSouth = std::sin(elevation + slope), cosNorth = std::sin(elevation - slope);
    const double south = meltOutS(std::tan(slope), sun);
    const double north = meltOutS(-std::tan(slope), sun);
    std::printf("sun %.1f deg high: melt-out south %.2f s, north %.2f s; north / south %.3f "
                "(cosines %.3f)\n",
                elevation * 180.0 / kPi, south, north, north / south, cosSouth / cosNorth);
    EXPECT_LT(south, north);
    EXPECT_NEAR(north / south, cosSouth / cosNorth, 0.1 * cosSouth / cosNorth);
    ::testing::Test::RecordProperty("north_over_south", std::to_string(north / south));
}

} // namespace
} // namespace snowcap
