// The time a long-running sine is handed: wrapped by whole periods past kPhaseWrapS, untouched
// before it, and the same sine to float precision however long the run.
#include "core/phase_wrap.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr double kTwoPi = 6.283185307179586;

TEST(PhaseWrap, ARunShorterThanTheSpanKeepsItsTimesBitForBit) {
    for (double t : {0.0, 1.0 / 60.0, 2.0, 24.0, 999.9})
        for (double period : {0.5, 1.0 / 1.85, 3.0, 1.0 / 1e-4})
            EXPECT_EQ(wrappedTimeS(t, period), t) << "t " << t << " period " << period;
}

TEST(PhaseWrap, WrapsByWholePeriodsOnceTheSpanIsReached) {
    const float gustHz = 1.85f; // the shader's float frequency
    const double period = 1.0 / double(gustHz);
    for (double t : {1000.0, 3600.0 + 1.0 / 3.0, 86400.0 * 7 + 0.25}) {
        const double wrapped = wrappedTimeS(t, period);
        EXPECT_GE(wrapped, 0.0);
        EXPECT_LT(wrapped, kPhaseWrapS + period);
        const double periods = (t - wrapped) / period;
        EXPECT_NEAR(periods, std::round(periods), 1e-6) << t;
        // The same sine, in double, to rounding.
        EXPECT_NEAR(std::sin(kTwoPi * gustHz * wrapped), std::sin(kTwoPi * gustHz * t), 1e-7);
    }
    EXPECT_EQ(wrappedTimeS(5000.0, 0.0), 5000.0); // no sine (gust_hz 0): nothing to wrap
}

// What the wrap is for: a week into a run, the shader's float sine of the unwrapped time is
// off by a large part of its amplitude; of the wrapped time it stays within float rounding.
TEST(PhaseWrap, AWeekIntoARunTheFloatSineKeepsItsPhase) {
    const float gustHz = 2.3f * 0.5f + 0.7f; // the foliage flutter at gust_hz 0.5
    const float twoPi = 6.28318530718f;
    double worstWrapped = 0.0, worstRaw = 0.0;
    for (int i = 0; i < 200; ++i) {
        const double t = 7.0 * 86400.0 + i * (1.0 / 60.0);
        const double truth = std::sin(kTwoPi * double(gustHz) * t);
        const float wrapped = float(wrappedTimeS(t, 1.0 / double(gustHz)));
        worstWrapped =
            std::max(worstWrapped, std::abs(double(std::sin(twoPi * gustHz * wrapped)) - truth));
        worstRaw =
            std::max(worstRaw, std::abs(double(std::sin(twoPi * gustHz * float(t))) - truth));
    }
    EXPECT_LT(worstWrapped, 5e-3); // float phase near 1.2e4 rad: steps of 1e-3
    EXPECT_GT(worstRaw, 0.1);      // the loss the wrap removes
}

} // namespace
} // namespace snowcap
