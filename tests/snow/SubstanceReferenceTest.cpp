// The substances on the CPU reference: sand never melts, sand slopes end at its angle of repose,
// mud keeps a print that snow slumps, sand drifts above its own threshold (docs/ground.md).
#include "core/substance.hpp"
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
const glm::vec3 kSun(-0.6f, -0.45f, 0.35f); // look.sun_direction's default

SnowpackSettings of(Substance substance) {
    SnowpackSettings s;
    applySubstance(s, substance);
    return s;
}

std::vector<float> nothing(int size) {
    return std::vector<float>(static_cast<std::size_t>(size) * size, 1.0f);
}

double totalMass(const SnowpackGrid& grid) {
    double mass = 0.0;
    for (const SnowColumn& c : grid.columns)
        mass += c.massKgM2 + c.waterKgM2;
    return mass;
}

// The steepest step (cm) between 4-neighbours over the grid.
float steepestStep(const SnowpackGrid& grid) {
    float worst = 0.0f;
    for (int y = 0; y < grid.size; ++y)
        for (int x = 0; x < grid.size; ++x) {
            const float d = grid.at(x, y).depthCm;
            if (x + 1 < grid.size)
                worst = std::max(worst, std::abs(d - grid.at(x + 1, y).depthCm));
            if (y + 1 < grid.size)
                worst = std::max(worst, std::abs(d - grid.at(x, y + 1).depthCm));
        }
    return worst;
}

TEST(SubstanceSand, NeverMelts) {
    constexpr int n = 32;
    WeatherSettings hot;
    hot.airTempC = 30.0;
    hot.sunWM2 = 1200.0;
    hot.timeScale = 36000.0; // ten hours a second: 100 hours
    for (Substance substance : {Substance::Sand, Substance::Snow}) {
        WeatheredSnowpack pack(n, of(substance), hot, WindSettings{}, kSun, kCaptureZ, kFar, 1.0);
        const double start = pack.massKg();
        for (int i = 0; i < 600; ++i)
            pack.step(nothing(n), 1.0 / 60.0);
        float water = 0.0f;
        for (const SnowColumn& c : pack.snowpack().grid().columns)
            water = std::max(water, c.waterKgM2);
        if (substance == Substance::Sand) {
            std::printf("sand, 100 h at +30 C under 1200 W/m2: mass %.6f kg of %.6f, most water "
                        "%g kg/m2, out %g kg\n",
                        pack.massKg(), start, water, pack.massOutKg());
            EXPECT_EQ(water, 0.0f);
            EXPECT_EQ(pack.massOutKg(), 0.0);
            EXPECT_EQ(pack.massKg(), start);
        } else { // the same sky melts snow to the ground: the test can see a melt
            EXPECT_GT(pack.massOutKg(), 0.5 * start);
        }
    }
}

// A pile (a cone 30 cm above a 10 cm bed) and a pit (down to the ground) slump until every
// slope is at or below the angle of repose: sand's 34 degrees, where snow stands steeper.
TEST(SubstanceSand, PileAndPitRelaxToTheAngleOfRepose) {
    constexpr int n = 48;
    float steepest[2] = {0.0f, 0.0f};
    int k = 0;
    for (Substance substance : {Substance::Sand, Substance::Snow}) {
        SnowpackSettings s = of(substance);
        s.depthCm = 10.0;
        SnowpackReference pack(n, s, kCaptureZ, kFar, 1.0);
        const float density = static_cast<float>(s.densityKgM3);
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const float r = std::hypot(x + 0.5f - 16.0f, y + 0.5f - 24.0f);
                float depth = 10.0f + std::max(0.0f, 30.0f - 3.0f * r); // the pile
                if (x >= 32 && x < 40 && y >= 20 && y < 28)
                    depth = 0.0f; // the pit
                SnowColumn& c = pack.grid().at(x, y);
                c.depthCm = depth;
                c.massKgM2 = columnMass(depth, density);
            }
        const double start = totalMass(pack.grid());
        const float before = steepestStep(pack.grid());
        for (int i = 0; i < 600; ++i) // 10 s, 9600 slump iterations
            pack.step(nothing(n), 1.0 / 60.0);
        steepest[k] = steepestStep(pack.grid());
        const float repose = reposeStepCm(density, pack.constants());
        std::printf("%s: steepest step %.3f cm a texel before, %.4f after; its repose %.4f (%.1f "
                    "deg); mass %.3e relative\n",
                    substance == Substance::Sand ? "sand" : "snow", before, steepest[k], repose,
                    std::atan(steepest[k]) * 180.0 / 3.14159265,
                    totalMass(pack.grid()) / start - 1);
        EXPECT_GT(before, 2.0f * repose);
        EXPECT_LE(steepest[k], repose * 1.001f + 1e-4f);
        EXPECT_NEAR(totalMass(pack.grid()), start, start * 1e-5);
        ++k;
    }
    // Sand ends at tan 34 = 0.675 cm a texel, below snow's slopes (50 degrees for fresh snow).
    EXPECT_LE(steepest[0], std::tan(34.0f * 3.14159265f / 180.0f) * 1.001f);
    EXPECT_GT(steepest[1], steepest[0] + 0.3f);
}

// The same print (a box pressed 10 cm above the ground for half a second, 8 cm wide, into
// 30 cm on 2 cm texels), then ten seconds without a contact: snow's walls slump into it, mud's
// stand.
TEST(SubstanceMud, KeepsAPrintThatSnowSlumps) {
    constexpr int n = 48;
    float kept[2] = {0.0f, 0.0f};
    int k = 0;
    for (Substance substance : {Substance::Mud, Substance::Snow}) {
        SnowpackReference pack(n, of(substance), kCaptureZ, kFar, 2.0);
        const SnowpackConstants& c = pack.constants();
        std::vector<float> press = nothing(n);
        const float window = (10.0f - c.cameraAboveGroundCm) / c.captureFarCm;
        for (int y = 8; y < 40; ++y)
            for (int x = 22; x < 26; ++x)
                press[static_cast<std::size_t>(y) * n + x] = window;
        for (int i = 0; i < 30; ++i)
            pack.step(press, 1.0 / 60.0);
        const float pressed = 30.0f - pack.grid().at(24, 24).depthCm;
        for (int i = 0; i < 600; ++i)
            pack.step(nothing(n), 1.0 / 60.0);
        // The print's depth below the untouched top, across its middle (x 22..25 at y 24).
        float floor = 0.0f;
        for (int x = 22; x < 26; ++x)
            floor += pack.grid().at(x, 24).depthCm / 4.0f;
        kept[k] = (30.0f - floor) / pressed;
        std::printf("%s: print %.2f cm deep when pressed, %.2f cm (%.0f %%) ten seconds later\n",
                    substance == Substance::Mud ? "mud" : "snow", pressed, 30.0f - floor,
                    100.0f * kept[k]);
        EXPECT_NEAR(pressed, 20.0f, 0.01f);
        ++k;
    }
    EXPECT_GE(kept[0], 0.9f);           // mud keeps its print
    EXPECT_LE(kept[1], kept[0] - 0.1f); // snow's walls slump into it
}

// Sand drifts above its own threshold (Bagnold's flux) and keeps its mass; below it, nothing.
TEST(SubstanceSand, DriftsAboveItsOwnThreshold) {
    // The threshold and the flux: 0.2 m/s; at u* = 0.5, 1.29 / 9.81 x 0.125 kg/m/s.
    EXPECT_EQ(bagnoldFlux(0.19f, 0.2f), 0.0f);
    EXPECT_NEAR(bagnoldFlux(0.5f, 0.2f), 1.29 / 9.81 * 0.125, 1e-6);
    WeatherTick sand, snow;
    sand.driftThresholdMS = 0.2f;
    EXPECT_EQ(substanceFlux(0.5f, 1600.0f, snow), 0.0f); // snow's law: 1600 kg/m3 never moves
    EXPECT_GT(substanceFlux(0.5f, 1600.0f, sand), 0.0f);
    constexpr int n = 48;
    for (double wind : {3.0, 12.0}) {
        WeatherSettings w;
        w.windMS = wind; // u* = 0.10 m/s (0.16 on a crest: below 0.2) and 0.42 m/s
        w.timeScale = 60.0;
        WindSettings steady;
        steady.gustAmount = 0.0;
        SnowpackSettings s = of(Substance::Sand);
        s.depthCm = 15.0;
        WeatheredSnowpack pack(n, s, w, steady, kSun, kCaptureZ, kFar, 2.0);
        // A ridge across the wind to be carried off.
        for (int y = 0; y < n; ++y)
            for (int x = 20; x < 24; ++x) {
                SnowColumn& c = pack.snowpack().grid().at(x, y);
                c.depthCm = 15.5f;
                c.massKgM2 = columnMass(15.5f, 1600.0f);
            }
        const double start = pack.massKg();
        for (int i = 0; i < 120; ++i)
            pack.step(nothing(n), 1.0 / 60.0);
        const double moved = pack.massKg() - start - pack.massInKg() + pack.massOutKg();
        std::printf("sand in %.0f m/s: in %.4f kg, out %.4f kg, budget %.2e of %.3f kg\n", wind,
                    pack.massInKg(), pack.massOutKg(), moved / start, start);
        if (wind < 5.0) {
            EXPECT_EQ(pack.massInKg(), 0.0);
            EXPECT_EQ(pack.massOutKg(), 0.0);
        } else {
            EXPECT_GT(pack.massOutKg(), 0.0);
        }
        EXPECT_NEAR(moved, 0.0, start * 1e-5);
    }
}

} // namespace
} // namespace snowcap
