// Frozen mud ([ground] kind = "mud" under a sky below 0 C, docs/ground.md section 5) on the CPU
// reference: when the sky freezes the ground, and a contact over frozen mud that presses no
// print, ploughs the snow as over rock and leaves the prints already made as they are.
#include "core/ground.hpp"
#include "core/weather_laws.hpp"
#include "snow/SnowpackCaptureSupport.hpp"
#include "snow/snowpack_reference.hpp"

#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <vector>

namespace snowcap {
namespace {

constexpr int kSize = 40;
constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;
constexpr double kTexelCm = 2.0;
constexpr float kMudMaxCm = 5.0f;

WeatherSettings::Key airKey(double atS, double airTempC) {
    WeatherSettings::Key key;
    key.atS = atS;
    key.values[4] = airTempC; // air_temp_c (the order of WeatherSettings' members)
    return key;
}

TEST(FrozenGround, TheSkyFreezesTheMudBelowZero) {
    // No sky that acts (the default -5 C, nothing falling, no wind, never above 0): the ground
    // is as it was before frozen mud, never frozen.
    const WeatherSettings none;
    EXPECT_FALSE(weatherActive(none));
    EXPECT_FALSE(groundFrozenAt(none, 0.0));
    EXPECT_FALSE(groundFrozenAt(none, 100.0));
    // -5 C warming to +5 C over 10 s: frozen until the air passes 0 C at 5 s.
    WeatherSettings warming;
    warming.airTempC = -5.0;
    warming.keys = {airKey(10.0, 5.0)};
    ASSERT_TRUE(weatherActive(warming));
    EXPECT_TRUE(groundFrozenAt(warming, 0.0));
    EXPECT_TRUE(groundFrozenAt(warming, 4.9));
    EXPECT_FALSE(groundFrozenAt(warming, 5.0)); // 0 C is not below 0
    EXPECT_FALSE(groundFrozenAt(warming, 5.1));
    EXPECT_FALSE(groundFrozenAt(warming, 60.0));
    // Snow falling at -2 C: a sky that acts, frozen.
    WeatherSettings snowing;
    snowing.airTempC = -2.0;
    snowing.snowfallCmH = 2.0;
    EXPECT_TRUE(groundFrozenAt(snowing, 3.0));
    snowing.airTempC = 1.0;
    EXPECT_FALSE(groundFrozenAt(snowing, 3.0));
    // A sky that is only cold: it does not act, but it is a sky, and it freezes the mud. The
    // defaults stand for no sky, so -5 C written out is none.
    WeatherSettings cold;
    cold.airTempC = -10.0;
    EXPECT_FALSE(weatherActive(cold));
    EXPECT_TRUE(weatherGiven(cold));
    EXPECT_TRUE(groundFrozenAt(cold, 0.0));
    WeatherSettings coldingToThaw; // -10 C warming to -1 C: cold throughout, given by its keys
    coldingToThaw.airTempC = -10.0;
    coldingToThaw.keys = {airKey(10.0, -1.0)};
    EXPECT_FALSE(weatherActive(coldingToThaw));
    EXPECT_TRUE(groundFrozenAt(coldingToThaw, 9.0));
    WeatherSettings writtenDefault;
    writtenDefault.airTempC = -5.0;
    EXPECT_FALSE(weatherGiven(writtenDefault));
    EXPECT_FALSE(groundFrozenAt(writtenDefault, 0.0));
    // The contact over frozen ground stops on its surface, the print's bottom.
    EXPECT_EQ(frozenGroundContactCm(-3.0f, 0.0f), 0.0f);
    EXPECT_EQ(frozenGroundContactCm(-8.0f, 3.0f), -3.0f);
    EXPECT_EQ(frozenGroundContactCm(-1.0f, 3.0f), -1.0f);
    EXPECT_EQ(frozenGroundContactCm(12.0f, 0.0f), 12.0f);
    EXPECT_EQ(frozenGroundContactCm(3.0e38f, 3.0f), 3.0e38f);
}

double massKg(const SnowpackGrid& grid) {
    double kgM2 = 0.0;
    for (const SnowColumn& c : grid.columns)
        kgM2 += double(c.massKgM2);
    return kgM2 * std::pow(kTexelCm * 0.01, 2.0);
}

TEST(FrozenGround, AContactOnFrozenMudPressesNoPrintAndThePrintsStay) {
    SnowpackSettings settings;
    settings.depthCm = 10.0;
    SnowpackReference mud(kSize, settings, kCaptureZ, kFar, kTexelCm, kMudMaxCm);
    SnowpackReference rock(kSize, settings, kCaptureZ, kFar, kTexelCm, 0.0f);
    const SnowpackConstants& c = mud.constants();
    const double start = massKg(mud.grid());
    const auto feet = [&](int x0, float bottomCm) {
        std::vector<float> depth = test::emptyCapture(kSize);
        test::stampBox(depth, kSize, x0, 8, x0 + 6, 16, bottomCm, c);
        return depth;
    };
    // Frozen: feet 3 cm and 8 cm below the ground through the snow press no print; the snow
    // under them is ploughed into rims as on rock, bit for bit.
    mud.setGroundFrozen(true);
    rock.setGroundFrozen(true); // rock takes no print: nothing to freeze
    for (int step = 0; step < 10; ++step) {
        std::vector<float> depth = feet(4, -3.0f);
        test::stampBox(depth, kSize, 14, 8, 20, 16, -8.0f, c);
        mud.step(depth, 1.0 / 60.0);
        rock.step(depth, 1.0 / 60.0);
    }
    int printed = 0, differ = 0;
    for (std::size_t t = 0; t < mud.grid().columns.size(); ++t) {
        const SnowColumn& m = mud.grid().columns[t];
        const SnowColumn& r = rock.grid().columns[t];
        printed += m.groundPrintCm > 0.0f;
        differ += m.depthCm != r.depthCm || m.massKgM2 != r.massKgM2;
    }
    const SnowColumn underFoot = mud.grid().at(6, 12);
    EXPECT_EQ(printed, 0);
    EXPECT_EQ(differ, 0);
    EXPECT_LT(underFoot.massKgM2, kPloughQuantum);
    EXPECT_NEAR(massKg(mud.grid()), start, start * 1e-6);
    // Thawed: a foot 3 cm into the mud beside them presses a 3 cm print.
    mud.setGroundFrozen(false);
    for (int step = 0; step < 10; ++step)
        mud.step(feet(24, -3.0f), 1.0 / 60.0);
    const SnowColumn thawedPrint = mud.grid().at(26, 12);
    EXPECT_EQ(thawedPrint.groundPrintCm, 3.0f);
    // Frozen again: a foot 8 cm below the ground in that print leaves it at 3 cm (the bound is
    // 5), then 20 s with no contact leave every print as it was, to the bit.
    mud.setGroundFrozen(true);
    for (int step = 0; step < 10; ++step)
        mud.step(feet(24, -8.0f), 1.0 / 60.0);
    const SnowpackGrid pressed = mud.grid();
    for (int step = 0; step < 1200; ++step)
        mud.step(test::emptyCapture(kSize), 1.0 / 60.0);
    int kept = 0, moved = 0, inPrint = 0;
    for (std::size_t t = 0; t < pressed.columns.size(); ++t) {
        const float before = pressed.columns[t].groundPrintCm;
        inPrint += before > 0.0f;
        moved += mud.grid().columns[t].groundPrintCm != before;
        kept += before == 3.0f && mud.grid().columns[t].groundPrintCm == 3.0f;
    }
    std::printf("frozen mud: feet 3 and 8 cm below the ground, frozen: %d texels printed, %d "
                "columns differ from rock's, %.3g kg/m2 left under a foot; thawed: a %.2f cm "
                "print; frozen again, an 8 cm foot in it: %.2f cm; after 20 s %d of %d printed "
                "texels kept their print, %d changed; mass %.6f of %.6f kg\n",
                printed, differ, underFoot.massKgM2, thawedPrint.groundPrintCm,
                pressed.at(26, 12).groundPrintCm, kept, inPrint, moved, massKg(mud.grid()), start);
    EXPECT_EQ(pressed.at(26, 12).groundPrintCm, 3.0f);
    EXPECT_EQ(inPrint, 6 * 8);
    EXPECT_EQ(kept, inPrint);
    EXPECT_EQ(moved, 0);
    EXPECT_NEAR(massKg(mud.grid()), start, start * 1e-6);
}

} // namespace
} // namespace snowcap
