// Snow over a print in the mud (docs/ground.md section 5): the column stands on the print's
// bottom, so snow that falls on a print fills it from its bottom and the snow's top keeps the
// print's relief (the surface draws depth - print above the ground, GroundPrintSurfaceGL).
#include "core/weather_laws.hpp"
#include "snow/SnowpackCaptureSupport.hpp"
#include "snow/snowpack_reference.hpp"

#include <cstdio>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(SnowInAPrint, SnowfallFillsAPrintFromItsBottom) {
    constexpr int kSize = 40;
    SnowpackSettings settings;
    settings.depthCm = 2.0;
    SnowpackReference mud(kSize, settings, -100.0, 2000.0, 2.0, 5.0f);
    const SnowpackConstants& c = mud.constants();
    std::vector<float> depth = test::emptyCapture(kSize);
    test::stampBox(depth, kSize, 10, 10, 20, 20, -3.0f, c); // a 3 cm print, the snow ploughed
    for (int step = 0; step < 5; ++step)
        mud.step(depth, 1.0 / 60.0);
    // 10 cm of 100 kg/m3 snow (10 kg/m2) falls on every column.
    const std::uint32_t quanta = static_cast<std::uint32_t>(10.0f * kWeatherQuanta);
    const SnowColumn printBefore = mud.grid().at(15, 15), flatBefore = mud.grid().at(35, 35);
    for (SnowColumn& column : mud.grid().columns)
        column = snowfallOnto(column, quanta, 100.0f);
    const SnowColumn print = mud.grid().at(15, 15), flat = mud.grid().at(35, 35);
    // The top above ground level: depth - print.
    const float printTop = print.depthCm - print.groundPrintCm;
    const float flatTop = flat.depthCm - flat.groundPrintCm;
    std::printf("snow in a print: before the fall the print %.2f cm deep holding %.4f cm of "
                "snow, the flat %.2f cm of snow; after 10 cm of snowfall the print's top %.4f cm "
                "above the ground (its bottom %.2f below), the flat's %.4f: a dip of %.4f cm\n",
                printBefore.groundPrintCm, printBefore.depthCm, flatBefore.depthCm, printTop,
                print.groundPrintCm, flatTop, flatTop - printTop);
    EXPECT_EQ(print.groundPrintCm, 3.0f);
    EXPECT_NEAR(print.depthCm, printBefore.depthCm + 10.0f, 1e-4f); // from the print's bottom
    EXPECT_NEAR(printTop, -3.0f + printBefore.depthCm + 10.0f, 1e-4f);
    EXPECT_NEAR(flatTop - printTop, 3.0f + flatBefore.depthCm - printBefore.depthCm, 1e-4f);
}

} // namespace
} // namespace snowcap
