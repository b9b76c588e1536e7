// The sun by aspect on the CPU reference: the sun's melt takes the normal of the snow's tops
// standing on the terrain, so a south face melts out before a north face under the same sun,
// by the ratio of their cosines.
#include "core/snowpack_laws.hpp"
#include "snow/weather_reference.hpp"

#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <vector>

namespace snowcap {
namespace {

constexpr int kSize = 16;
constexpr double kTexelCm = 10.0;
constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;
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

} // namespace
} // namespace snowcap
