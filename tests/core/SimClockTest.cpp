// The sim clock: what one step does with time, for run and skipped steps alike.
#include "core/sim_clock.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(SimClock, ContactScaleIsExactlyOneAtSixtyFps) {
    // Every scenario runs at 60 fps: delta_time contact timing must be the original there, bit
    // for bit, whichever way the step was computed.
    EXPECT_EQ(contactScale(ContactTiming::DeltaTime, AccumulateMode::Add, 1.0 / 60.0), 1.0f);
    const double fps = 60.0;
    EXPECT_EQ(contactScale(ContactTiming::DeltaTime, AccumulateMode::Add, 1.0 / fps), 1.0f);
    EXPECT_EQ(contactScale(ContactTiming::DeltaTime, AccumulateMode::Add, 1.0 / 30.0), 2.0f);
    EXPECT_EQ(contactScale(ContactTiming::DeltaTime, AccumulateMode::Add, 1.0 / 240.0), 0.25f);
    EXPECT_FLOAT_EQ(contactScale(ContactTiming::DeltaTime, AccumulateMode::Add, 1.0 / 144.0),
                    60.0f / 144.0f);
    for (double dt : {1.0 / 30.0, 1.0 / 144.0, 0.1}) {
        EXPECT_EQ(contactScale(ContactTiming::PerFrame, AccumulateMode::Add, dt), 1.0f);
        EXPECT_EQ(contactScale(ContactTiming::DeltaTime, AccumulateMode::Max, dt), 1.0f);
    }
}

TEST(SimClock, AStepReadsTheDecayKeysAtTheTimeItEndsAt) {
    SimSettings sim;
    sim.decayKeys = {{0.0, 0.95}, {1.0, 0.95}, {1.0, 0.999}};
    SimClock clock(AccumulateLaw::of(sim, CaptureSettings{}));
    // (At float precision, as the GPU sim has always applied it.)
    for (int i = 0; i < 59; ++i)
        EXPECT_EQ(clock.advance(1.0 / 60.0).decay, 0.95f) << i;
    EXPECT_EQ(clock.advance(1.0 / 60.0 + 1e-9).decay, 0.999f); // ends just past the key
    EXPECT_NEAR(clock.timeS(), 1.0, 1e-8);
    clock.reset();
    EXPECT_EQ(clock.timeS(), 0.0);
    EXPECT_EQ(clock.advance(0.5).decay, 0.95f);
}

TEST(SimClock, LinearRefillReplacesTheDecayFactor) {
    SimSettings sim;
    sim.refill = RefillMode::Linear;
    sim.refillRatePerS = 0.1;
    SimClock clock(AccumulateLaw::of(sim, CaptureSettings{}));
    double released = 0.0;
    for (int i = 0; i < 600; ++i) {
        const SimStep& step = clock.advance(1.0 / 60.0);
        EXPECT_EQ(step.stepFactor, 1.0f);
        released += step.refillStep;
    }
    EXPECT_NEAR(released, 1.0, LinearRefill::kQuantum);
}

TEST(SimClock, ConfigureKeepsTimeAndRemainders) {
    // A live edit (a new decay) must not restart the clock: two clocks, one edited to the same
    // settings halfway, stay identical.
    SimSettings sim;
    sim.decay = 0.99;
    SimClock straight(AccumulateLaw::of(sim, CaptureSettings{})),
        edited(AccumulateLaw::of(sim, CaptureSettings{}));
    for (int i = 0; i < 100; ++i) {
        if (i == 50)
            edited.configure(AccumulateLaw::of(sim, CaptureSettings{}));
        const SimStep a = straight.advance(1.0 / 45.0);
        const SimStep b = edited.advance(1.0 / 45.0);
        ASSERT_EQ(a.stepFactor, b.stepFactor) << i;
        ASSERT_EQ(a.ageStepS, b.ageStepS) << i;
        ASSERT_EQ(a.timeS, b.timeS) << i;
    }
}

TEST(SimClock, FadeCurveFollowsTheClocksLaw) {
    SimSettings sim;
    sim.decay = 0.999;
    // 94.2 % after 1 s at any rate with delta_time (the half-safe staircase lags under 1.2 %).
    for (double fps : {30.0, 60.0, 144.0}) {
        const std::vector<double> curve =
            fadeCurve(AccumulateLaw::of(sim, CaptureSettings{}), fps, 1.0);
        ASSERT_EQ(curve.size(), std::size_t(fps) + 1);
        EXPECT_EQ(curve.front(), 1.0);
        EXPECT_NEAR(curve.back() / analyticRemaining(0.999, 1.0), 1.0, 0.012) << fps;
    }
    // per_frame: 144 fps fades as 2.4 s at 60 fps would.
    sim.decayTiming = DecayTiming::PerFrame;
    EXPECT_NEAR(fadeCurve(AccumulateLaw::of(sim, CaptureSettings{}), 144.0, 1.0).back() /
                    analyticRemaining(0.999, 2.4),
                1.0, 0.012);
    // Linear refill reaches exactly 0 at 1 / rate; stopBelow ends the curve there.
    sim.refill = RefillMode::Linear;
    sim.refillRatePerS = 0.5;
    const std::vector<double> linear =
        fadeCurve(AccumulateLaw::of(sim, CaptureSettings{}), 60.0, 5.0, 0.0);
    EXPECT_EQ(linear.back(), 0.0);
    EXPECT_NEAR((linear.size() - 1) / 60.0, 2.0, 2.0 / 60.0);
}

} // namespace
} // namespace snowcap
