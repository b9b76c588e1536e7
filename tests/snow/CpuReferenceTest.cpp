#include "snow/cpu_reference.hpp"
#include "snow/snow_params.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace snowcap {
namespace {

using enum HalfRounding;

// ---- the contact mask -----------------------------------------------------------------------

// What the pass reads besides the contact: the sim's law and one step's amounts.
struct Pass {
    AccumulateLaw law;
    SimStep step; // factor 1, contact scale 1, no refill
};

// Sim A's law as the app makes it from the default settings, with a step that changes nothing.
Pass defaultConstants() {
    const Settings settings;
    return {AccumulateLaw::of(settings.sims[0], settings.capture, NearestEven), SimStep{}};
}

// The window depth the capture writes for a deformer whose bottom is at `zCm`.
float windowDepthAt(double zCm) {
    const Settings settings;
    const double cameraZ = settings.snow.surfaceZCm + settings.snow.captureZCm;
    return static_cast<float>((zCm - cameraZ) / settings.capture.farCm);
}

TEST(CpuReferenceMask, DefaultGeometry) {
    const Pass c = defaultConstants();
    EXPECT_EQ(c.law.captureFarCm, 2000.0f);
    EXPECT_EQ(c.law.captureOffsetCm, 150.0f);
    EXPECT_EQ(c.law.invCaptureDistance, 1.0f / 250.0f);
    // The GPU pass reads the same law from its uniform block.
    const SnowParamsBlock block = makeSnowParams(Settings{}, Region{}, 0);
    EXPECT_EQ(block.captureFarCm, c.law.captureFarCm);
    EXPECT_EQ(block.captureOffsetCm, c.law.captureOffsetCm);
    EXPECT_EQ(block.invCaptureDistance, c.law.invCaptureDistance);
    EXPECT_EQ(block.zeroFloor, c.law.zeroFloor());

    EXPECT_EQ(contactMask(1.0f, c.law), 0.0f); // "far": nothing was drawn there
    // A deformer bottom exactly at the snow top is SceneDepth 100 cm: no press yet.
    EXPECT_EQ(windowDepthAt(0.0), 100.0f / 2000.0f);
    EXPECT_NEAR(contactMask(windowDepthAt(0.0), c.law), 0.0f, 1e-6f);
    // 50 cm below the top: 50 / 250.
    EXPECT_NEAR(contactMask(windowDepthAt(-50.0), c.law), 0.2f, 1e-6f);
    // At the camera, 100 cm below the top.
    EXPECT_NEAR(contactMask(windowDepthAt(-100.0), c.law), 0.4f, 1e-6f);
    EXPECT_EQ(contactMask(0.0f, c.law), contactMask(windowDepthAt(-100.0), c.law));
}

TEST(CpuReferenceMask, Clamps) {
    const Pass c = defaultConstants();
    // Above the snow top: the normalised depth passes 1 and the mask stays 0, never negative.
    for (float depth : {0.06f, 0.2f, 0.5f, 0.999f, 1.0f})
        EXPECT_EQ(contactMask(depth, c.law), 0.0f) << depth;
    // Past the offset (SceneDepth below -150 cm): the mask stops at 1.
    EXPECT_EQ(contactMask(-0.075f, c.law), 1.0f);
    EXPECT_EQ(contactMask(-0.5f, c.law), 1.0f);
    for (float depth = -0.2f; depth <= 1.0f; depth += 0.01f) {
        const float mask = contactMask(depth, c.law);
        EXPECT_GE(mask, 0.0f);
        EXPECT_LE(mask, 1.0f);
    }
}

// ---- one texel of the pass ------------------------------------------------------------------

// Constants under which the hand computations are exact in binary: offset 128, distance 256,
// far 1024, so window depth 1/16 (SceneDepth 64) gives mask 0.25.
Pass exactConstants(AccumulateMode mode, bool halfSafe, float stepFactor) {
    Pass c;
    c.law.captureFarCm = 1024.0f;
    c.law.captureOffsetCm = 128.0f;
    c.law.invCaptureDistance = 1.0f / 256.0f;
    c.law.mode = mode;
    c.law.halfSafe = halfSafe;
    c.step.stepFactor = stepFactor;
    return c;
}
constexpr float kQuarterMaskDepth = 1.0f / 16.0f;

TEST(CpuReferenceAccumulate, AddMode) {
    for (bool halfSafe : {false, true}) {
        Pass c = exactConstants(AccumulateMode::Add, halfSafe, 0.75f);
        EXPECT_EQ(contactMask(kQuarterMaskDepth, c.law), 0.25f);
        EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, 0.5f, c.law, c.step),
                  0.5625f);                                            // (0.25 + 0.5) * 0.75
        EXPECT_EQ(accumulateTexel(1.0f, 0.5f, c.law, c.step), 0.375f); // no contact: decay
        EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, 0.0f, c.law, c.step), 0.1875f);
        // saturate: 0.25 + 0.9 > 1 stays 1 with no decay, and 1.15 * 0.75 is not clamped.
        c.step.stepFactor = 1.0f;
        EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, 0.9f, c.law, c.step), 1.0f);
        c.step.stepFactor = 0.75f;
        EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, 1.0f, c.law, c.step), 0.9375f);
    }
}

TEST(CpuReferenceAccumulate, MaxModeKeepsTheLarger) {
    const Pass c = exactConstants(AccumulateMode::Max, false, 0.75f);
    EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, 0.5f, c.law, c.step),
              0.375f); // decayed 0.375 > 0.25
    EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, 0.2f, c.law, c.step), 0.25f); // mask 0.25 > 0.15
    EXPECT_EQ(accumulateTexel(1.0f, 0.5f, c.law, c.step), 0.375f);             // no contact: decay
    EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, 0.0f, c.law, c.step), 0.25f); // a press, not a sum
    EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, 1.0f, c.law, c.step), 0.75f); // never above 1
}

TEST(CpuReferenceAccumulate, StoreRounding) {
    // (0.25 + 0.1) * 1 = 0.35 = 1433.6 ulps of 2^-12: the store decides 1433 or 1434.
    Pass c = exactConstants(AccumulateMode::Add, false, 1.0f);
    const float previous = 0.1f;
    c.law.storeRounding = Truncate;
    EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, previous, c.law, c.step), 1433.0f / 4096.0f);
    c.law.storeRounding = NearestEven;
    EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, previous, c.law, c.step), 1434.0f / 4096.0f);
    // Half-safe rounds to nearest itself, whatever the store would do.
    c = exactConstants(AccumulateMode::Add, true, 1.0f);
    for (HalfRounding store : {Truncate, NearestEven}) {
        c.law.storeRounding = store;
        EXPECT_EQ(accumulateTexel(kQuarterMaskDepth, previous, c.law, c.step), 1434.0f / 4096.0f);
    }
}

TEST(CpuReferenceAccumulate, HalfSafeZeroFloor) {
    Pass c = exactConstants(AccumulateMode::Add, true, 0.5f);
    EXPECT_EQ(accumulateTexel(1.0f, 2.0f * kZeroFloor, c.law, c.step),
              kZeroFloor);                                                    // at the floor: kept
    EXPECT_EQ(accumulateTexel(1.0f, 1.5f * kZeroFloor, c.law, c.step), 0.0f); // below it: gone
    c.law.halfSafe = false; // the original keeps it
    EXPECT_EQ(accumulateTexel(1.0f, 1.5f * kZeroFloor, c.law, c.step), 0.75f * kZeroFloor);
}

TEST(CpuReferenceAccumulate, BuffersMatchTexels) {
    std::mt19937 random(5);
    std::uniform_real_distribution<float> depth(-0.1f, 1.0f), value(0.0f, 1.0f);
    std::vector<float> depths(4096), previous(4096), next(4096);
    for (std::size_t i = 0; i < depths.size(); ++i) {
        // A quarter of the texels far, as where no deformer is.
        depths[i] = i % 4 == 0 ? 1.0f : depth(random);
        previous[i] = roundToHalf(value(random), NearestEven);
    }
    for (AccumulateMode mode : {AccumulateMode::Add, AccumulateMode::Max}) {
        for (bool halfSafe : {false, true}) {
            for (HalfRounding store : {Truncate, NearestEven}) {
                Pass c = defaultConstants();
                c.law.mode = mode;
                c.law.halfSafe = halfSafe;
                c.law.storeRounding = store;
                c.step.stepFactor = 0.993f;
                // Qualified: with vector arguments ADL would also find std::accumulate.
                snowcap::accumulateBuffers(depths, previous, next, c.law, c.step);
                for (std::size_t i = 0; i < next.size(); ++i)
                    ASSERT_EQ(next[i], accumulateTexel(depths[i], previous[i], c.law, c.step)) << i;
            }
        }
    }
}

// ---- a texel through time -------------------------------------------------------------------

// The press_release scenario: mask 0.2 for the first second, then nothing.
struct Fade {
    std::vector<float> values; // after each step
    double fps;
    int pressSteps;

    // Seconds between the release and the end of step i.
    double sinceRelease(int i) const { return (i + 1 - pressSteps) / fps; }
    float at(double secondsAfterRelease) const {
        return values[pressSteps - 1 + int(std::lround(secondsAfterRelease * fps))];
    }
    // The first step after the release that stores exactly 0, or -1.
    int zeroStep() const {
        for (int i = pressSteps; i < int(values.size()); ++i)
            if (values[i] == 0.0f)
                return i;
        return -1;
    }
};

Fade pressRelease(const SimSettings& sim, HalfRounding store, double fps, double secondsAfter) {
    TexelSimulation simulation{sim, store, fps};
    const int pressSteps = int(std::lround(fps));
    const int steps = pressSteps + int(std::lround(secondsAfter * fps));
    Fade fade{{}, fps, pressSteps};
    fade.values =
        simulation.run(steps, [&](int step, double) { return step < pressSteps ? 0.2f : 0.0f; });
    return fade;
}

SimSettings simWith(double decay, DecayTiming timing, bool halfSafe) {
    SimSettings sim;
    sim.decay = decay;
    sim.decayTiming = timing;
    sim.halfSafe = halfSafe;
    return sim;
}

// The largest |value / analytic - 1| after the release while analytic > 0.05: below that the
// mask x50 of the material is saturated anyway and relative error stops mattering.
double worstRelativeError(const Fade& fade, double decay) {
    double worst = 0.0;
    for (int i = fade.pressSteps - 1; i < int(fade.values.size()); ++i) {
        const double analytic = analyticRemaining(decay, fade.sinceRelease(i));
        if (analytic <= 0.05)
            break;
        worst = std::max(worst, std::abs(fade.values[i] / analytic - 1.0));
    }
    return worst;
}

std::string caseName(double decay, double fps, HalfRounding store) {
    std::string decayText = std::to_string(decay);
    decayText.erase(decayText.find_last_not_of('0') + 1);
    return "decay" + decayText + "_fps" + std::to_string(int(fps)) + "_" + toString(store);
}

// The half-safe design (the default) follows decay^(t * 60) at every frame rate, under either
// rounding of the store, and reaches exactly 0 in finite time.
void expectHalfSafeFade(double decay, std::initializer_list<double> fpsList) {
    // Seconds from 1.0 to the zero floor, analytically; the run goes on past it.
    const double floorSeconds = std::log(double(kZeroFloor)) / (60.0 * std::log(decay));
    for (double fps : fpsList) {
        for (HalfRounding store : {Truncate, NearestEven}) {
            const std::string name = caseName(decay, fps, store);
            SCOPED_TRACE(name);
            const Fade fade = pressRelease(simWith(decay, DecayTiming::DeltaTime, true), store, fps,
                                           1.05 * floorSeconds + 1.0);
            ASSERT_EQ(fade.values[fade.pressSteps - 1], 1.0f); // add saturates while pressed
            const double worst = worstRelativeError(fade, decay);
            EXPECT_LT(worst, 0.02);
            const int zero = fade.zeroStep();
            ASSERT_GE(zero, 0) << "never reached 0";
            const double zeroSeconds = fade.sinceRelease(zero);
            // The floor is 2^-12, so zero comes as the analytic curve passes it: within the
            // staircase's lag (under 1 %) and a couple of steps.
            EXPECT_NEAR(zeroSeconds, floorSeconds, 0.01 * floorSeconds + 2.0 / fps);
            for (int i = zero; i < int(fade.values.size()); ++i)
                ASSERT_EQ(fade.values[i], 0.0f) << "came back at step " << i;
            testing::Test::RecordProperty("zero_s_" + name, std::to_string(zeroSeconds));
            testing::Test::RecordProperty("worst_error_" + name, std::to_string(worst));
            std::cout << "  " << name << ": worst error " << 100.0 * worst << " %, 0 after "
                      << zeroSeconds << " s\n";
        }
    }
}

TEST(CpuReferenceHalfSafeFade, Decay0999) {
    expectHalfSafeFade(0.999, {30, 60, 144, 240});
}
TEST(CpuReferenceHalfSafeFade, Decay095) {
    expectHalfSafeFade(0.95, {30, 60, 144, 240});
}
TEST(CpuReferenceHalfSafeFade, Decay099) {
    expectHalfSafeFade(0.99, {30, 60, 144, 240});
}
// ~500 s to reach 0.05 and ~1390 s to reach 0: the slowest decay worth offering.
TEST(CpuReferenceHalfSafeFade, Decay09999) {
    expectHalfSafeFade(0.9999, {60, 240});
}

TEST(CpuReferenceHalfSafeFade, RoundingModesGiveIdenticalValues) {
    for (double fps : {30.0, 144.0}) {
        const SimSettings sim = simWith(0.999, DecayTiming::DeltaTime, true);
        EXPECT_EQ(pressRelease(sim, Truncate, fps, 150.0).values,
                  pressRelease(sim, NearestEven, fps, 150.0).values);
    }
}

// ---- the original design's failures, kept visible ------------------------------------------

TEST(CpuReferenceOriginalFade, NearestEvenPerFrameSticksForever) {
    const Fade fade =
        pressRelease(simWith(0.999, DecayTiming::PerFrame, false), NearestEven, 60.0, 400.0);
    // 500 subnormal ulps: 500 x 0.999 = 499.5 is a tie, and ties go back to the even 500.
    const float stuck = 500.0f * std::ldexp(1.0f, -24);
    EXPECT_EQ(fade.values[20000 - 1], stuck);
    EXPECT_NEAR(stuck, 2.98e-5f, 0.005e-5f);
    EXPECT_EQ(fade.values.back(), stuck);
    EXPECT_EQ(fade.zeroStep(), -1);
}

TEST(CpuReferenceOriginalFade, NearestEvenDeltaTimeStallsAtHighFrameRates) {
    // k = 0.999^(60/fps) moves a value by less than half an ulp long before it is small.
    const struct { double fps, stall; } cases[] = {{144.0, 0.585}, {240.0, 0.976}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.fps);
        const Fade fade =
            pressRelease(simWith(0.999, DecayTiming::DeltaTime, false), NearestEven, c.fps, 300.0);
        EXPECT_NEAR(fade.at(60.0), c.stall, 0.01);
        EXPECT_EQ(fade.at(300.0), fade.at(60.0)); // stuck, not slow
        EXPECT_GT(worstRelativeError(fade, 0.999), 1.0);
    }
}

TEST(CpuReferenceOriginalFade, TruncationLosesTooFast) {
    const Fade fade =
        pressRelease(simWith(0.999, DecayTiming::PerFrame, false), Truncate, 60.0, 300.0);
    const int zero = fade.zeroStep();
    ASSERT_GE(zero, 0);
    const int framesAfterRelease = zero + 1 - fade.pressSteps;
    EXPECT_GT(framesAfterRelease, 7000);
    EXPECT_LT(framesAfterRelease, 9000);
    RecordProperty("truncate_zero_frames_after_release", framesAfterRelease);
    std::cout << "  truncate, 60 fps: 0 after " << framesAfterRelease << " frames\n";
    EXPECT_GT(worstRelativeError(fade, 0.999), 0.20);
}

// ---- per-frame timing depends on the frame rate ---------------------------------------------

TEST(CpuReferenceTiming, PerFrameDependsOnFrameRate) {
    const SimSettings sim = simWith(0.999, DecayTiming::PerFrame, true);
    const float at30 = pressRelease(sim, NearestEven, 30.0, 3.0).at(2.0);
    const float at120 = pressRelease(sim, NearestEven, 120.0, 3.0).at(2.0);
    // 2 s of real time is 60 frames at 30 fps and 240 at 120 fps.
    EXPECT_NEAR(at30 / std::pow(0.999, 60), 1.0, 0.02);
    EXPECT_NEAR(at120 / std::pow(0.999, 240), 1.0, 0.02);
    EXPECT_NEAR(std::log(at120) / std::log(at30), 4.0, 0.5);
}

TEST(CpuReferenceTiming, DeltaTimeDoesNot) {
    const SimSettings sim = simWith(0.999, DecayTiming::DeltaTime, true);
    const float at30 = pressRelease(sim, NearestEven, 30.0, 3.0).at(2.0);
    const float at120 = pressRelease(sim, NearestEven, 120.0, 3.0).at(2.0);
    EXPECT_NEAR(at120 / at30, 1.0, 0.02);
    EXPECT_NEAR(at30 / analyticRemaining(0.999, 2.0), 1.0, 0.02);
}

// contact_timing: a light mask (0.02) held for 1/6 s of world time. "per_frame" adds it once a
// step, 8x as often at 240 fps as at 30; "delta_time" adds mask x dt x 60 and leaves the same
// value at any rate (the GL side: tests/snow/ContactTimingGLTest.cpp).
TEST(CpuReferenceContactTiming, DeltaTimeAddsTheSameOverTheSameWorldTime) {
    auto heldFor = [](ContactTiming timing, double fps) {
        TexelSimulation simulation;
        simulation.sim.contactTiming = timing;
        simulation.fps = fps;
        return simulation.run(int(std::lround(fps / 6.0)), [](int, double) { return 0.02f; })
            .back();
    };
    const float perFrame30 = heldFor(ContactTiming::PerFrame, 30.0);
    const float perFrame240 = heldFor(ContactTiming::PerFrame, 240.0);
    const float delta60 = heldFor(ContactTiming::DeltaTime, 60.0);
    EXPECT_EQ(heldFor(ContactTiming::PerFrame, 60.0), delta60); // the same pass at 60 fps
    for (double fps : {30.0, 144.0, 240.0})
        EXPECT_NEAR(heldFor(ContactTiming::DeltaTime, fps) / delta60, 1.0, 0.02) << fps;
    EXPECT_NEAR(perFrame240 / perFrame30, 8.0, 0.25);
    EXPECT_NEAR(delta60, 0.2, 0.005); // 10 steps of 0.02, less 0.17 s of 0.999 per 1/60 s
}

// refill = "linear": a released print of value v is exactly 0 after v / rate seconds, within one
// step, at any frame rate and whatever the driver's half rounding.
TEST(CpuReferenceLinearRefill, FlatAtValueOverRate) {
    for (double fps : {30.0, 60.0, 144.0})
        for (HalfRounding store : {Truncate, NearestEven}) {
            SimSettings sim = simWith(0.999, DecayTiming::DeltaTime, true);
            sim.refill = RefillMode::Linear;
            sim.refillRatePerS = 0.1;
            const Fade fade = pressRelease(sim, store, fps, 10.0);
            const float released = fade.values[fade.pressSteps - 1];
            int zero = -1;
            for (std::size_t i = fade.pressSteps; i < fade.values.size() && zero < 0; ++i)
                if (fade.values[i] == 0.0f)
                    zero = static_cast<int>(i);
            ASSERT_GE(zero, 0) << fps;
            EXPECT_NEAR(fade.sinceRelease(zero), released / 0.1, 1.0 / fps) << fps;
        }
}

TEST(CpuReferenceDecayKeys, LinearBetweenKeysHeldOutside) {
    SimSettings sim;
    sim.decay = 0.5; // ignored once there are keys
    EXPECT_EQ(decayAt(sim, 3.0), 0.5);
    sim.decayKeys = {{1.0, 0.99}, {3.0, 0.95}, {3.0, 0.9}};
    EXPECT_EQ(decayAt(sim, 0.0), 0.99);
    EXPECT_NEAR(decayAt(sim, 2.0), 0.97, 1e-12);
    EXPECT_EQ(decayAt(sim, 3.0), 0.9); // two keys at one time: a jump
    EXPECT_EQ(decayAt(sim, 100.0), 0.9);
}

// The age channel's increments are whole sixteenths, so ages stay exact in a half float and
// track real time within one quantum at any frame rate.
TEST(CpuReferenceAgeClock, TracksTimeWithinAQuantumAndStaysHalfExact) {
    for (double fps : {30.0, 60.0, 144.0, 240.0}) {
        AgeClock clock;
        float age = 0.0f;
        for (int step = 1; step <= static_cast<int>(100.0 * fps); ++step) {
            age = std::min(age + clock.next(1.0 / fps), AgeClock::kMaxAgeS);
            ASSERT_EQ(roundToHalf(age, Truncate), age);
            ASSERT_NEAR(age, step / fps, AgeClock::kQuantum + 1e-9) << fps;
        }
    }
}

} // namespace
} // namespace snowcap
