// The snowpack's laws on the CPU reference alone: mass, rims, compaction limits, slump, the
// frame rate, settling against its published rate, and the storage format measurement.
#include "core/snow_math.hpp"
#include "core/snowpack_laws.hpp"
#include "snow/snowpack_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <random>
#include <tuple>
#include <vector>

namespace snowcap {
namespace {

constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;

// A box seen from below: its bottom at `bottomCm` above the ground over [x0, x1) x [y0, y1).
struct Box {
    double x0, y0, x1, y1, bottomCm;
};

// The capture of some boxes (the lowest bottom wins, as the depth test keeps it).
std::vector<float> captureOf(const std::vector<Box>& boxes, int size, const SnowpackConstants& c) {
    std::vector<float> depth(static_cast<std::size_t>(size) * size, 1.0f);
    for (const Box& box : boxes) {
        const float window =
            static_cast<float>((box.bottomCm - c.cameraAboveGroundCm) / c.captureFarCm);
        for (int y = std::max(0, static_cast<int>(std::floor(box.y0)));
             y < std::min(size, static_cast<int>(std::ceil(box.y1))); ++y)
            for (int x = std::max(0, static_cast<int>(std::floor(box.x0)));
                 x < std::min(size, static_cast<int>(std::ceil(box.x1))); ++x) {
                const double cx = x + 0.5, cy = y + 0.5; // texel centres, as the rasteriser
                if (cx < box.x0 || cx >= box.x1 || cy < box.y0 || cy >= box.y1)
                    continue;
                float& d = depth[static_cast<std::size_t>(y) * size + x];
                d = std::min(d, window);
            }
    }
    return depth;
}

double totalMass(const SnowpackGrid& grid) {
    double mass = 0.0;
    for (const SnowColumn& c : grid.columns)
        mass += c.massKgM2;
    return mass;
}

// Two walkers' feet (planted half a second each, 15 cm strides, down to 8 .. 14 cm above the
// ground) and a ploughing box (its bottom 3 cm above the ground), on a 1 cm grid.
std::vector<Box> walkersAndPlough(double t, int size) {
    std::vector<Box> boxes;
    const double span = size - 30.0;
    for (int walker = 0; walker < 2; ++walker) {
        const int stepIndex = static_cast<int>(std::floor(t * 2.0));
        const bool left = (stepIndex % 2) == 0;
        const double phase = std::fmod(stepIndex * 15.0, 2.0 * span);
        const double along = 10.0 + (phase < span ? phase : 2.0 * span - phase);
        const double lane = walker == 0 ? 0.25 * size : 0.7 * size;
        const double y = lane + (left ? -6.0 : 6.0);
        const double lift = std::fmod(t * 2.0, 1.0); // 0 .. 1 over the half second
        if (lift < 0.8) {
            const double bottom = 8.0 + 6.0 * walker;
            if (walker == 0)
                boxes.push_back({along, y - 5.0, along + 25.0, y + 5.0, bottom});
            else
                boxes.push_back({y - 5.0, along, y + 5.0, along + 25.0, bottom});
        }
    }
    // The plough crosses back and forth at 20 cm/s.
    const double ploughSpan = size - 24.0;
    const double p = std::fmod(t * 20.0, 2.0 * ploughSpan);
    const double px = 2.0 + (p < ploughSpan ? p : 2.0 * ploughSpan - p);
    boxes.push_back({px, 0.45 * size - 10.0, px + 20.0, 0.45 * size + 10.0, 3.0});
    return boxes;
}

SnowpackSettings defaults() {
    return SnowpackSettings{};
}

// The long runs (10,000 steps, and the 3000-step trench) at 120 slump iterations a second
// instead of the default 960: the CPU reference runs every iteration on every texel, and at
// 960 Hz the trench alone took 112 s (loaded machine; 4.3 s at 120 Hz). Slump moves mass by
// explicit pairwise sums at any rate, and the rate is not what these tests measure; the GPU
// step at the default rate keeps the mass in `render`'s budget (docs/snowpack.md, section 7).
SnowpackSettings longRun() {
    SnowpackSettings settings;
    settings.slumpRateHz = 120.0;
    return settings;
}

// ---- the laws one by one ---------------------------------------------------------------------

TEST(SnowpackLaws, CompactionKeepsMassUpToMaxDensity) {
    const SnowpackConstants c = snowpackConstants(defaults(), kCaptureZ, kFar, 1.0);
    const SnowColumn fresh{30.0f, 36.0f, 0.0f, 0.0f}; // 30 cm of 120 kg/m3
    // 30 cm of 120 kg/m3 (36 kg/m2) pressed to 20 cm: 180 kg/m3, nothing ploughed.
    Compaction half = compactColumn(fresh, 20.0f, c);
    EXPECT_TRUE(half.inside);
    EXPECT_FLOAT_EQ(half.column.depthCm, 20.0f);
    EXPECT_FLOAT_EQ(half.column.massKgM2, 36.0f);
    EXPECT_FLOAT_EQ(densityOf(half.column), 180.0f);
    EXPECT_EQ(half.ploughQuanta, 0u);
    // Pressed to 2 cm: 2 cm hold 9 kg/m2 at 450; 27 kg/m2 go.
    Compaction deep = compactColumn(fresh, 2.0f, c);
    EXPECT_NEAR(densityOf(deep.column), 450.0f, 1e-3f);
    EXPECT_NEAR(deep.column.depthCm, 2.0f, 1e-5f);
    EXPECT_NEAR(deep.ploughQuanta * kPloughQuantum, 27.0f, 1e-4f);
    EXPECT_NEAR(columnMass(deep.column) + deep.ploughQuanta * kPloughQuantum, 36.0f, 1e-5f);
    // A contact above the top touches nothing; one below the ground takes everything.
    EXPECT_FALSE(compactColumn(fresh, 31.0f, c).inside);
    Compaction through = compactColumn(fresh, -5.0f, c);
    EXPECT_LT(through.column.depthCm, 1e-5f);
    EXPECT_NEAR(through.ploughQuanta * kPloughQuantum, 36.0f, 1e-4f);
}

// The compaction law is the shallow-snow sinkage of Shallow snow sinkage (CRREL 95-7): a
// column of depth h and density rho0 compacted to the final density rho_f sinks by
// z = h (1 - rho0 / rho_f); with rho_f = max_density_kg_m3, a contact down to z compacts
// everything and one deeper starts to plough. Checked over that report's test snow (10 to
// 37 cm of 110 to 250 kg/m3) and its final densities (0.50 Mg/m3 up to 210 kPa of contact
// pressure, 0.65 above 700 kPa), and at the lab's defaults (30 cm of 120 at 450: 22 cm).
TEST(SnowpackLaws, CompactionLimitIsTheShallowSnowSinkage) {
    for (float finalDensity : {500.0f, 550.0f, 600.0f, 650.0f, 450.0f})
        for (float depth : {10.0f, 22.0f, 37.0f, 30.0f})
            for (float initial : {110.0f, 160.0f, 250.0f, 120.0f}) {
                SnowpackSettings settings = defaults();
                settings.depthCm = depth;
                settings.densityKgM3 = initial;
                settings.maxDensityKgM3 = finalDensity;
                const SnowpackConstants c = snowpackConstants(settings, kCaptureZ, kFar, 1.0);
                const SnowColumn column{depth, columnMass(depth, initial), 0.0f, 0.0f};
                const float sinkage = depth * (1.0f - initial / finalDensity);
                SCOPED_TRACE(testing::Message() << depth << " cm of " << initial << " to "
                                                << finalDensity << ": sinkage " << sinkage);
                // Just short of the sinkage: all compacted, denser but not past rho_f.
                const Compaction shallower = compactColumn(column, depth - sinkage + 0.01f, c);
                EXPECT_EQ(shallower.ploughQuanta, 0u);
                EXPECT_LE(densityOf(shallower.column), finalDensity);
                EXPECT_GT(densityOf(shallower.column), finalDensity * 0.99f);
                // 1 mm past it: rho_f reached, the rest ploughed, the mass kept.
                const Compaction deeper = compactColumn(column, depth - sinkage - 0.1f, c);
                EXPECT_GT(deeper.ploughQuanta, 0u);
                EXPECT_NEAR(densityOf(deeper.column), finalDensity, finalDensity * 1e-5f);
                EXPECT_NEAR(columnMass(deeper.column) + deeper.ploughQuanta * kPloughQuantum,
                            column.massKgM2, column.massKgM2 * 1e-5f);
            }
}

TEST(SnowpackLaws, ContactHeightFromTheCapture) {
    const SnowpackConstants c = snowpackConstants(defaults(), kCaptureZ, kFar, 1.0);
    // The camera is 100 cm below the 30 cm deep snow's top: 70 cm below the ground.
    EXPECT_FLOAT_EQ(c.cameraAboveGroundCm, -70.0f);
    EXPECT_NEAR(contactHeightCm(80.0f / 2000.0f, c), 10.0f, 1e-4f);
    EXPECT_GT(contactHeightCm(1.0f, c), 1e30f);
    EXPECT_GT(contactHeightCm(std::nanf(""), c), 1e30f);
}

TEST(SnowpackLaws, ReposeAngleFollowsDensity) {
    const SnowpackConstants c = snowpackConstants(defaults(), kCaptureZ, kFar, 1.0);
    EXPECT_NEAR(reposeTan(80.0f, c), std::tan(50.0 * M_PI / 180.0), 1e-5);
    EXPECT_NEAR(reposeTan(450.0f, c), std::tan(39.0 * M_PI / 180.0), 1e-5);
    EXPECT_GT(reposeTan(120.0f, c), reposeTan(300.0f, c)); // powder holds steeper walls
}

// Anderson's law at the defaults: 30 cm of 120 kg/m3 at -5 C settles by 2.3e-6 /s of
// metamorphism and 2.2e-7 /s of overburden: about 0.9 % an hour.
TEST(SnowpackLaws, SettlingRateIsAndersons) {
    const float rate = settlingRatePerS(120.0f, 36.0f, -5.0f);
    const double metamorphism = 2.8e-6 * std::exp(-0.042 * 5.0);
    const double overburden =
        9.81 * 18.0 / (6.051e7 * std::exp(0.081 * 5.0) * std::exp(0.018 * 120.0));
    EXPECT_NEAR(rate, metamorphism + overburden, 1e-9);
    EXPECT_NEAR(metamorphism, 2.27e-6, 0.01e-6);
    EXPECT_NEAR(overburden, 2.24e-7, 0.01e-7);
    const double hourLoss = 1.0 - std::exp(-rate * 3600.0);
    EXPECT_NEAR(hourLoss, 0.0089, 0.0005);
    // Warmer settles faster, denser slower.
    EXPECT_GT(settlingRatePerS(120.0f, 36.0f, -1.0f), rate);
    EXPECT_LT(settlingRatePerS(300.0f, 36.0f, -5.0f), rate);
}

// Settling over an hour (time scale 3600, 1 s of simulated time) at any frame rate: the density
// follows the law's integral and every rate gives the same state.
TEST(SnowpackLaws, SettlingIsFrameRateIndependent) {
    SnowpackSettings s = defaults();
    s.settleTimeScale = 3600.0;
    std::vector<float> finalDensity;
    for (double fps : {30.0, 60.0, 144.0, 240.0}) {
        SnowpackReference ref(8, s, kCaptureZ, kFar, 1.0);
        const std::vector<float> none(64, 1.0f);
        const int steps = static_cast<int>(std::lround(10.0 * fps));
        for (int i = 0; i < steps; ++i)
            ref.step(none, 1.0 / fps);
        finalDensity.push_back(densityOf(ref.grid().at(3, 3)));
        EXPECT_NEAR(totalMass(ref.grid()), 64 * 36.0, 64 * 36.0 * 1e-5);
    }
    for (float d : finalDensity)
        EXPECT_EQ(d, finalDensity[0]);
    // Ten hours by the law, integrated finely in doubles.
    double rho = 120.0;
    for (int i = 0; i < 36000; ++i)
        rho += rho * settlingRatePerS(static_cast<float>(rho), 36.0f, -5.0f) * 1.0;
    EXPECT_NEAR(finalDensity[0], rho, rho * 0.002);
    EXPECT_GT(finalDensity[0], 128.0f); // about 8.5 % in ten hours
}

// ---- mass and rims ---------------------------------------------------------------------------

// 10,000 steps of two walkers and a ploughing box at 60 fps over a 96 cm region of 1 cm
// texels: the mass stays within 1e-4 of what it was.
TEST(SnowpackMass, ConservedOverTenThousandSteps) {
    const int size = 96;
    SnowpackReference ref(size, longRun(), kCaptureZ, kFar, 1.0);
    const double start = totalMass(ref.grid());
    std::uint64_t ploughed = 0;
    double worst = 0.0;
    for (int i = 0; i < 10000; ++i) {
        const double t = (i + 1) / 60.0;
        const auto report =
            ref.step(captureOf(walkersAndPlough(t, size), size, ref.constants()), 1.0 / 60.0);
        ploughed += report.ploughedQuanta;
        if (i % 500 == 499)
            worst = std::max(worst, std::abs(totalMass(ref.grid()) - start) / start);
    }
    const double error = std::abs(totalMass(ref.grid()) - start) / start;
    std::printf("snowpack mass: relative error %.3g after 10000 steps (worst %.3g), %.0f kg/m2 "
                "ploughed\n",
                error, worst, static_cast<double>(ploughed) * kPloughQuantum);
    EXPECT_LT(error, 1e-4);
    EXPECT_LT(worst, 1e-4);
    EXPECT_GT(ploughed, 0u); // the plough did plough
}

// A box pressed 2 cm above the ground and lifted: what left the box's footprint is in the rims
// around it, raised above the untouched snow.
TEST(SnowpackMass, PressedBoxLeavesRimsOfTheDisplacedMass) {
    const int size = 96;
    SnowpackReference ref(size, defaults(), kCaptureZ, kFar, 1.0);
    const Box box{32, 36, 64, 60, 2.0};
    const auto pressed = captureOf({box}, size, ref.constants());
    const std::vector<float> none(static_cast<std::size_t>(size) * size, 1.0f);
    for (int i = 0; i < 30; ++i)
        ref.step(pressed, 1.0 / 60.0);
    const float initial = columnMass(30.0f, 120.0f);
    // Displaced from under the box and raised around it, per texel (kg/m2), and the crest.
    const auto budget = [&] {
        double displaced = 0.0, rims = 0.0;
        float crest = 0.0f;
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x) {
                const float m = columnMass(ref.grid().at(x, y));
                if (x >= 32 && x < 64 && y >= 36 && y < 60)
                    displaced += initial - m;
                else {
                    rims += m - initial;
                    crest = std::max(crest, ref.grid().at(x, y).depthCm);
                }
            }
        return std::tuple{displaced, rims, crest};
    };
    const auto [displaced, rims, crest] = budget(); // the last pressed step
    ref.step(none, 1.0 / 60.0);                     // lifted
    std::printf("pressed box: displaced %.4f kg/m2 x texels, rims %.4f, crest %.2f cm\n", displaced,
                rims, crest);
    EXPECT_GT(displaced, 32 * 24 * 26.9); // 27 of 36 kg/m2 per texel
    EXPECT_NEAR(rims, displaced, displaced * 1e-4);
    EXPECT_GT(crest, 34.0f); // a real raised edge
    // Two seconds later the rims have slumped (some back into the print): still all there.
    for (int i = 0; i < 119; ++i)
        ref.step(none, 1.0 / 60.0);
    const auto [displacedLater, rimsLater, crestLater] = budget();
    std::printf("two seconds later: displaced %.4f, rims %.4f, crest %.2f cm\n", displacedLater,
                rimsLater, crestLater);
    EXPECT_NEAR(rimsLater, displacedLater, displaced * 1e-4);
    EXPECT_GT(crestLater, 32.0f);
    EXPECT_LT(crestLater, crest);
}

// Re-walking a trench fifty times: never denser than max_density, never a negative depth.
TEST(SnowpackMass, RewalkedTrenchStaysWithinLimits) {
    const int size = 96;
    SnowpackReference ref(size, longRun(), kCaptureZ, kFar, 1.0);
    const float maxDensity = ref.constants().maxDensity;
    for (int i = 0; i < 3000; ++i) {
        const double t = i / 60.0;
        const double p = std::fmod(t * 60.0, 140.0); // 60 cm/s, back and forth
        const double x = 4.0 + (p < 70.0 ? p : 140.0 - p);
        const double bottom = 4.0 + 3.0 * std::sin(t * 7.0); // 1 .. 7 cm above the ground
        ref.step(captureOf({{x, 40, x + 16, 52, bottom}}, size, ref.constants()), 1.0 / 60.0);
        for (const SnowColumn& c : ref.grid().columns) {
            ASSERT_GE(c.depthCm, 0.0f) << "step " << i;
            ASSERT_LE(densityOf(c), maxDensity * (1.0f + 1e-6f))
                << "step " << i << " depth " << c.depthCm;
        }
    }
}

// ---- slump -----------------------------------------------------------------------------------

float steepest(const SnowpackGrid& g) {
    float s = 0.0f;
    for (int y = 0; y < g.size; ++y)
        for (int x = 0; x < g.size; ++x) {
            if (x + 1 < g.size)
                s = std::max(s, std::abs(g.at(x + 1, y).depthCm - g.at(x, y).depthCm));
            if (y + 1 < g.size)
                s = std::max(s, std::abs(g.at(x, y + 1).depthCm - g.at(x, y).depthCm));
        }
    return s;
}

// Random spikes and pits: every slump iteration leaves the steepest step no steeper, and the
// field ends within the angle of repose; the mass stays.
TEST(SnowpackSlump, NeverSteepensASlope) {
    const int size = 48;
    SnowpackReference ref(size, defaults(), kCaptureZ, kFar, 1.0);
    std::mt19937 random(7);
    std::uniform_real_distribution<float> depth(0.0f, 60.0f);
    for (SnowColumn& c : ref.grid().columns)
        c.depthCm = depth(random);
    const double start = totalMass(ref.grid());
    float previous = steepest(ref.grid());
    for (int i = 0; i < 400; ++i) {
        ref.slump();
        const float now = steepest(ref.grid());
        ASSERT_LE(now, previous * (1.0f + 1e-6f)) << "iteration " << i;
        previous = now;
    }
    EXPECT_LT(previous, 1.25f); // tan 50 deg x 1 cm, and a little still relaxing
    EXPECT_NEAR(totalMass(ref.grid()), start, start * 1e-5);
}

// ---- the frame rate --------------------------------------------------------------------------

// The two walkers and the plough dragged through the snow for 8 s at 30, 60, 144 and 240 fps:
// the depth within 1 % of the initial depth of the 240 fps run's on average over the texels,
// and the mass within 1e-4. Single texels differ more (measured: up to 24 cm at 30 fps, 1.3 cm
// at 144) where the plough's front passes: the capture samples its sweep once a frame, and
// where one frame's ploughed snow lands decides what the next frame ploughs, so the rims'
// detail is not frame-rate independent; their mass and the field's mean are.
TEST(SnowpackFrameRate, AnyRateGivesTheSameSnow) {
    const int size = 96;
    std::vector<SnowpackGrid> finals;
    std::vector<double> fpsList{240.0, 144.0, 60.0, 30.0};
    for (double fps : fpsList) {
        SnowpackReference ref(size, defaults(), kCaptureZ, kFar, 1.0);
        const double start = totalMass(ref.grid());
        const int steps = static_cast<int>(std::lround(8.0 * fps));
        for (int i = 0; i < steps; ++i) {
            const double t = (i + 1) / fps;
            ref.step(captureOf(walkersAndPlough(t, size), size, ref.constants()), 1.0 / fps);
        }
        EXPECT_NEAR(totalMass(ref.grid()), start, start * 1e-4) << fps;
        finals.push_back(ref.grid());
    }
    for (std::size_t k = 1; k < finals.size(); ++k) {
        double worst = 0.0, sum = 0.0;
        for (std::size_t t = 0; t < finals[0].columns.size(); ++t) {
            const double d = std::abs(finals[k].columns[t].depthCm - finals[0].columns[t].depthCm);
            worst = std::max(worst, d);
            sum += d;
        }
        std::printf("%g fps vs 240: depth differs by %.4f cm at most, %.5f cm on average\n",
                    fpsList[k], worst, sum / static_cast<double>(finals[0].columns.size()));
        EXPECT_LE(sum / static_cast<double>(finals[0].columns.size()), 0.3) << fpsList[k];
    }
}

// ---- the storage format ----------------------------------------------------------------------

// The mass run with every channel stored as a half float after each step (what an RGBA16F state
// would hold) against the float state: halves lose the mass; RGBA32F is the format.
TEST(SnowpackFormat, HalfFloatsCannotHoldTheMass) {
    const int size = 96;
    double errors[2] = {0.0, 0.0};
    for (int half = 0; half < 2; ++half) {
        SnowpackReference ref(size, longRun(), kCaptureZ, kFar, 1.0);
        const double start = totalMass(ref.grid());
        for (int i = 0; i < 10000; ++i) {
            const double t = (i + 1) / 60.0;
            ref.step(captureOf(walkersAndPlough(t, size), size, ref.constants()), 1.0 / 60.0);
            if (half)
                for (SnowColumn& c : ref.grid().columns) {
                    c.depthCm = roundToHalf(c.depthCm, HalfRounding::NearestEven);
                    c.massKgM2 = roundToHalf(c.massKgM2, HalfRounding::NearestEven);
                }
        }
        errors[half] = std::abs(totalMass(ref.grid()) - start) / start;
    }
    std::printf("storage: RGBA32F relative mass error %.3g, RGBA16F %.3g over 10000 steps\n",
                errors[0], errors[1]);
    EXPECT_LT(errors[0], 1e-4);
    EXPECT_GT(errors[1], 1e-4);
}

} // namespace
} // namespace snowcap
