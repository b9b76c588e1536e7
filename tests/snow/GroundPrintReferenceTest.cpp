// Prints in the ground under a snowpack ([ground] kind = "mud", docs/ground.md section 5) on the
// CPU reference: the law of one column, a print pressed in bare mud that stays, a print pressed
// through the snow, prints that fill with melt water and hold it while the flat mud around
// drains (the budget closing), and grounds other than mud that take none.
#include "core/ground.hpp"
#include "core/weather_laws.hpp"
#include "snow/weather_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <vector>

namespace snowcap {
namespace {

constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;
constexpr float kMudMaxCm = 5.0f; // ground.mud_print_max_cm's default
const glm::vec3 kSun(-0.6f, -0.45f, 0.35f);

// A box from below over [x0, x1) x [y0, y1), its bottom `bottomCm` above ground level.
void stamp(std::vector<float>& depth, int size, int x0, int y0, int x1, int y1, float bottomCm,
           const SnowpackConstants& c) {
    const float window = (bottomCm - c.cameraAboveGroundCm) / c.captureFarCm;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            depth[static_cast<std::size_t>(y) * size + x] = window;
}

std::vector<float> nothing(int size) {
    return std::vector<float>(static_cast<std::size_t>(size) * size, 1.0f);
}

// Three feet below the ground at once: 3 cm (box A), 0.5 cm (B) and 8 cm (C, past the bound).
std::vector<float> threeFeet(int size, const SnowpackConstants& c) {
    std::vector<float> depth = nothing(size);
    stamp(depth, size, 4, 4, 10, 12, -3.0f, c);
    stamp(depth, size, 14, 4, 20, 12, -0.5f, c);
    stamp(depth, size, 24, 4, 30, 12, -8.0f, c);
    return depth;
}

TEST(GroundPrintLaw, AContactBelowTheGroundPressesItAndTheSnowStandsInThePrint) {
    SnowpackConstants c;
    c.initialDensity = 120.0f;
    c.maxDensity = 450.0f;
    c.groundPrintMaxCm = kMudMaxCm;
    // Bare mud: a contact 3 cm below the ground leaves a 3 cm print; 8 cm below, the bound.
    const SnowColumn bare{};
    EXPECT_EQ(compactColumn(bare, -3.0f, c).column.groundPrintCm, 3.0f);
    EXPECT_EQ(compactColumn(bare, -8.0f, c).column.groundPrintCm, kMudMaxCm);
    EXPECT_EQ(compactColumn(bare, 0.5f, c).column.groundPrintCm, 0.0f); // above: none
    EXPECT_EQ(compactColumn(bare, 3.0e38f, c).column.groundPrintCm, 0.0f);
    // The mud does not come back: a shallower contact keeps the deeper print.
    const SnowColumn printed{0.0f, 0.0f, 0.0f, 3.0f};
    EXPECT_EQ(compactColumn(printed, -1.0f, c).column.groundPrintCm, 3.0f);
    EXPECT_EQ(compactColumn(printed, -4.0f, c).column.groundPrintCm, 4.0f);
    // 4 cm of snow in a 3 cm print: its top is 1 cm above the ground. A contact 0.5 cm above
    // the ground compresses it to 3.5 cm above the print's bottom; one at 2 cm is above it.
    const SnowColumn filled{4.0f, columnMass(4.0f, 120.0f), 0.0f, 3.0f};
    const Compaction pressed = compactColumn(filled, 0.5f, c);
    EXPECT_TRUE(pressed.inside);
    EXPECT_EQ(pressed.column.depthCm, 3.5f);
    EXPECT_EQ(pressed.column.massKgM2, filled.massKgM2);
    EXPECT_EQ(pressed.column.groundPrintCm, 3.0f);
    const Compaction above = compactColumn(filled, 2.0f, c);
    EXPECT_FALSE(above.inside);
    EXPECT_EQ(above.column.depthCm, 4.0f);
    // A ground that takes no print: the law is the one before ground prints, bit for bit.
    SnowpackConstants none = c;
    none.groundPrintMaxCm = 0.0f;
    const SnowColumn snow{30.0f, columnMass(30.0f, 120.0f), 0.0f, 0.0f};
    for (float contact : {-3.0f, 0.0f, 12.0f, 29.99f, 3.0e38f}) {
        const Compaction a = compactColumn(snow, contact, none);
        EXPECT_EQ(a.column.groundPrintCm, 0.0f);
        const Compaction b = compactColumn(snow, contact, c);
        if (contact >= 0.0f) { // above the ground the print bound changes nothing
            EXPECT_EQ(a.column.depthCm, b.column.depthCm);
            EXPECT_EQ(a.column.massKgM2, b.column.massKgM2);
            EXPECT_EQ(a.ploughQuanta, b.ploughQuanta);
        }
    }
}

TEST(GroundPrintLaw, APrintHoldsTenKilogramsOfWaterACentimetreAndDrainageLeavesThem) {
    EXPECT_EQ(printHoldsKgM2(0.0f), 0.0f);
    EXPECT_EQ(printHoldsKgM2(0.5f), 5.0f);
    EXPECT_EQ(printHoldsKgM2(3.0f), 30.0f);
    // Whole quanta, rounded down: 0.1 cm is not a binary fraction.
    const float tenth = printHoldsKgM2(0.1f);
    EXPECT_LE(tenth, 1.0f);
    EXPECT_GT(tenth, 1.0f - kWeatherQuantum);
    EXPECT_EQ(tenth * kWeatherQuanta, std::floor(tenth * kWeatherQuanta));
    // Held 0: the drain as before; held: only what is over it drains, never below it.
    EXPECT_EQ(drainedWater(8.0f, 0.25f, 0.0f), 2.0f);
    EXPECT_EQ(drainedWater(8.0f, 0.25f, 5.0f), 0.75f);
    EXPECT_EQ(drainedWater(4.0f, 0.25f, 5.0f), 0.0f);
    EXPECT_EQ(drainedWater(5.0f + kWeatherQuantum, 0.25f, 5.0f), kWeatherQuantum);
}

// The ground kinds: only mud takes a print, and only with a bound above 0.
TEST(GroundPrint, OnlyMudTakesAPrint) {
    GroundSettings ground;
    EXPECT_EQ(ground.mudPrintMaxCm, double(kMudMaxCm)); // the table's default
    for (GroundKind kind : {GroundKind::Colour, GroundKind::Grass, GroundKind::Rock,
                            GroundKind::Texture, GroundKind::Mud}) {
        ground.kind = kind;
        EXPECT_EQ(groundPrintMaxCm(ground), kind == GroundKind::Mud ? kMudMaxCm : 0.0f);
    }
    ground.kind = GroundKind::Mud;
    ground.mudPrintMaxCm = 0.0;
    EXPECT_EQ(groundPrintMaxCm(ground), 0.0f);
}

// Bare mud (no snow), three feet pressed below the ground for 10 steps, then 20 s without a
// contact: the prints are as deep as the feet reached (the third at the bound) and stay to
// the bit; nothing else in the grid has a print. Rock under the same feet takes none.
TEST(GroundPrint, PressedInBareMudStaysAfterTheContactLeaves) {
    constexpr int n = 40;
    SnowpackSettings bare;
    bare.depthCm = 0.0;
    for (float bound : {kMudMaxCm, 0.0f}) { // mud, then rock (groundPrintMaxCm 0)
        SnowpackReference pack(n, bare, kCaptureZ, kFar, 2.0, bound);
        const std::vector<float> feet = threeFeet(n, pack.constants());
        for (int i = 0; i < 10; ++i)
            pack.step(feet, 1.0 / 60.0);
        const std::vector<SnowColumn> pressed = pack.grid().columns;
        for (int i = 0; i < 1200; ++i)
            pack.step(nothing(n), 1.0 / 60.0);
        int printed = 0, changed = 0;
        for (std::size_t t = 0; t < pressed.size(); ++t) {
            printed += pack.grid().columns[t].groundPrintCm > 0.0f;
            changed += pack.grid().columns[t].groundPrintCm != pressed[t].groundPrintCm;
        }
        EXPECT_EQ(changed, 0);
        if (bound == 0.0f) {
            EXPECT_EQ(printed, 0) << "a ground that takes no print";
            continue;
        }
        std::printf("bare mud: prints %.2f, %.2f, %.2f cm (feet at -3, -0.5, -8; bound %.0f) "
                    "after 20 s; %d texels printed\n",
                    pack.grid().at(6, 8).groundPrintCm, pack.grid().at(16, 8).groundPrintCm,
                    pack.grid().at(26, 8).groundPrintCm, kMudMaxCm, printed);
        EXPECT_EQ(printed, 3 * 6 * 8);
        EXPECT_EQ(pack.grid().at(6, 8).groundPrintCm, 3.0f);
        EXPECT_EQ(pack.grid().at(16, 8).groundPrintCm, 0.5f);
        EXPECT_EQ(pack.grid().at(26, 8).groundPrintCm, kMudMaxCm);
        EXPECT_EQ(pack.grid().at(6, 20).groundPrintCm, 0.0f);
    }
}

// 30 cm of snow, a foot 2 cm below the ground: the snow under it is ploughed into rims (the
// mass kept to the ploughing's quanta) and the mud under it takes the print.
TEST(GroundPrint, AFootThroughTheSnowPressesTheMudAndPloughsTheSnow) {
    constexpr int n = 40;
    SnowpackReference pack(n, SnowpackSettings{}, kCaptureZ, kFar, 2.0, kMudMaxCm);
    const auto mass = [&] {
        double m = 0.0;
        for (const SnowColumn& c : pack.grid().columns)
            m += c.massKgM2;
        return m;
    };
    const double before = mass();
    std::vector<float> foot = nothing(n);
    stamp(foot, n, 16, 12, 22, 28, -2.0f, pack.constants());
    for (int i = 0; i < 10; ++i)
        pack.step(foot, 1.0 / 60.0);
    EXPECT_EQ(pack.grid().at(18, 20).groundPrintCm, 2.0f);
    EXPECT_LT(pack.grid().at(18, 20).massKgM2, kPloughQuantum); // pressed bare
    EXPECT_GT(pack.grid().at(15, 20).depthCm, 30.0f);           // the rim beside it
    EXPECT_EQ(pack.grid().at(10, 20).groundPrintCm, 0.0f);
    EXPECT_NEAR(mass(), before, before * 1e-6);
}

struct Thaw {
    double startKg = 0.0, inKg = 0.0, outKg = 0.0, nowKg = 0.0;
    std::vector<SnowColumn> columns;
};

// Bare mud with the three feet's prints, pressed while it is +2 C (frozen mud takes none);
// from 0.25 s it is -5 C, and 10 cm of 100 kg/m3 snow falls on it in the cold (10 kg/m2
// everywhere, 0.5 .. 1.5 s at an hour a second), then +10 C, ten hours a second until 6 s:
// the snow melts (0.5 kg/m2 an hour) and its water drains at drain_per_h = 1.
Thaw thawOverPrints(float bound) {
    constexpr int n = 40;
    SnowpackSettings bare;
    bare.depthCm = 0.0;
    WeatherSettings w;
    w.airTempC = 2.0;
    w.timeScale = 3600.0;
    WeatherSettings::Key thawed, cold, fall, stop, thawKey;
    thawed.atS = 0.25; // the feet press in the first 10 frames (0.17 s), before the frost
    thawed.values[4] = 2.0;
    cold.atS = 0.25;
    cold.values[4] = -5.0;
    fall.atS = 0.5;
    fall.values[0] = 10.0; // snowfall cm/h from 0.5 s
    stop.atS = 1.5;        // each channel a key gives is linear from the one before: hold them
    stop.values[0] = 10.0;
    stop.values[4] = -5.0;
    stop.values[6] = 3600.0;
    thawKey.atS = 1.5;
    thawKey.values[0] = 0.0;
    thawKey.values[4] = 10.0;    // air C
    thawKey.values[6] = 36000.0; // time scale
    WeatherSettings::Key before = fall;
    before.atS = 0.5;
    before.values[0] = 0.0;
    w.keys = {thawed, cold, before, fall, stop, thawKey};
    WeatheredSnowpack pack(n, bare, w, WindSettings{}, kSun, kCaptureZ, kFar, 2.0, {0.0f, 0.0f},
                           bound);
    const std::vector<float> feet = threeFeet(n, pack.snowpack().constants());
    Thaw out;
    out.startKg = pack.massKg();
    for (int i = 0; i < 360; ++i)
        pack.step(i < 10 ? feet : nothing(n), 1.0 / 60.0);
    out.inKg = pack.massInKg();
    out.outKg = pack.massOutKg();
    out.nowKg = pack.massKg();
    out.columns = pack.snowpack().grid().columns;
    return out;
}

TEST(GroundPrint, FillsWithMeltWaterAndHoldsItWhileTheFlatMudDrains) {
    constexpr int n = 40;
    const Thaw mud = thawOverPrints(kMudMaxCm);
    const auto at = [&](const Thaw& run, int x, int y) {
        return run.columns[static_cast<std::size_t>(y) * n + x];
    };
    // Every texel had the same snowfall: the flat mud's column before it melted.
    const float fallen = static_cast<float>(mud.inKg / (0.02 * 0.02) / (n * n));
    float mostSnow = 0.0f, flatWater = 0.0f;
    for (const SnowColumn& c : mud.columns) {
        mostSnow = std::max(mostSnow, c.massKgM2);
        if (c.groundPrintCm == 0.0f)
            flatWater = std::max(flatWater, c.waterKgM2);
    }
    const double error = mud.nowKg - mud.startKg - mud.inKg + mud.outKg;
    std::printf("thaw over mud prints: %.4f kg/m2 fell; water held: 3 cm print %.4f, 0.5 cm "
                "%.4f, 5 cm %.4f kg/m2, flat mud %.4g; snow left %.4g kg/m2; budget: start %.4f "
                "in %.6f out %.6f now %.6f kg, error %.3g kg\n",
                fallen, at(mud, 6, 8).waterKgM2, at(mud, 16, 8).waterKgM2, at(mud, 26, 8).waterKgM2,
                flatWater, mostSnow, mud.startKg, mud.inKg, mud.outKg, mud.nowKg, error);
    EXPECT_NEAR(fallen, 10.0f, 0.01f);
    EXPECT_EQ(mostSnow, 0.0f);                    // all of it melted
    EXPECT_EQ(flatWater, 0.0f);                   // and drained from the flat mud
    EXPECT_EQ(at(mud, 6, 8).waterKgM2, fallen);   // the 3 cm print (30 kg/m2) holds it all
    EXPECT_EQ(at(mud, 26, 8).waterKgM2, fallen);  // so does the 5 cm one
    EXPECT_EQ(at(mud, 16, 8).waterKgM2, 5.0f);    // the 0.5 cm one holds 5 and let the rest go
    EXPECT_EQ(at(mud, 6, 8).groundPrintCm, 3.0f); // the prints stayed through the thaw
    EXPECT_EQ(at(mud, 16, 8).groundPrintCm, 0.5f);
    EXPECT_GT(mud.outKg, 0.0);
    // The water budget closes: held is mass, the rest out. The snow on the prints' rims slumps
    // into them before it melts (their surfaces' step is past its repose), and slumped mass is
    // added in floats at each column's magnitude: a few parts in 1e8 of what fell.
    EXPECT_NEAR(error, 0.0, 1e-6 * mud.inKg);

    // Rock: no prints, every texel drains to nothing; all that fell went out.
    const Thaw rock = thawOverPrints(0.0f);
    for (const SnowColumn& c : rock.columns) {
        ASSERT_EQ(c.groundPrintCm, 0.0f);
        ASSERT_EQ(c.waterKgM2, 0.0f);
    }
    EXPECT_NEAR(rock.outKg, rock.inKg, 1e-9 * rock.inKg);
}

} // namespace
} // namespace snowcap
