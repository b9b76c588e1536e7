// The Decay panel's inverse (core/decay_inverse.hpp): from a target fade to the decay value.
#include "core/decay_inverse.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(DecayInverse, ForwardMatchesTheWriteUpsFigures) {
    // Foliage Snow Interaction, decay 0.999 at 60 fps: 94.2 % after 1 s, 54.9 % after 10 s,
    // and at 30 fps per_frame keeps twice as long; delta_time does not depend on the rate.
    EXPECT_NEAR(remainingAfter(0.999, DecayTiming::PerFrame, 60.0, 1.0), 0.942, 5e-4);
    EXPECT_NEAR(remainingAfter(0.999, DecayTiming::PerFrame, 60.0, 10.0), 0.549, 5e-4);
    EXPECT_NEAR(remainingAfter(0.999, DecayTiming::PerFrame, 30.0, 20.0),
                remainingAfter(0.999, DecayTiming::PerFrame, 60.0, 10.0), 1e-12);
    EXPECT_EQ(remainingAfter(0.999, DecayTiming::DeltaTime, 144.0, 10.0),
              remainingAfter(0.999, DecayTiming::DeltaTime, 30.0, 10.0));
    EXPECT_NEAR(halfLifeS(0.999, DecayTiming::DeltaTime, 60.0), 11.55, 0.01);
}

TEST(DecayInverse, InverseThenForwardReturnsTheTarget) {
    for (DecayTiming timing : {DecayTiming::PerFrame, DecayTiming::DeltaTime})
        for (double fps : {30.0, 60.0, 144.0})
            for (double fraction : {0.5, 0.1, 0.001, 1.0 / 4096.0})
                for (double seconds : {0.5, 1.0, 11.55, 60.0, 115.0, 600.0}) {
                    const auto decay = decayFor(fraction, seconds, timing, fps);
                    ASSERT_TRUE(std::holds_alternative<double>(decay))
                        << std::get<std::string>(decay);
                    const double d = std::get<double>(decay);
                    EXPECT_GT(d, 0.0);
                    EXPECT_LT(d, 1.0);
                    // Within float precision of the target, relative (the decay is applied in
                    // float by the shader; here it is double, so this is far inside that).
                    EXPECT_NEAR(remainingAfter(d, timing, fps, seconds) / fraction, 1.0, 1e-6)
                        << "fraction " << fraction << " after " << seconds << " s at " << fps;
                }
}

TEST(DecayInverse, ForwardThenInverseReturnsTheDecay) {
    for (double decay : {0.5, 0.95, 0.99, 0.999, 0.9995})
        for (DecayTiming timing : {DecayTiming::PerFrame, DecayTiming::DeltaTime}) {
            const double h = halfLifeS(decay, timing, 60.0);
            const auto back = decayFor(0.5, h, timing, 60.0);
            ASSERT_TRUE(std::holds_alternative<double>(back));
            EXPECT_NEAR(std::get<double>(back), decay, 1e-12);
        }
}

TEST(DecayInverse, ImpossibleTargetsSayWhy) {
    auto message = [](double fraction, double seconds, DecayTiming timing, double fps) {
        const auto result = decayFor(fraction, seconds, timing, fps);
        return std::holds_alternative<std::string>(result) ? std::get<std::string>(result)
                                                           : std::string();
    };
    EXPECT_NE(message(0.0, 10, DecayTiming::DeltaTime, 60).find("between 0 and 1"),
              std::string::npos);
    EXPECT_NE(message(1.0, 10, DecayTiming::DeltaTime, 60).find("between 0 and 1"),
              std::string::npos);
    EXPECT_NE(message(NAN, 10, DecayTiming::DeltaTime, 60).find("between 0 and 1"),
              std::string::npos);
    EXPECT_NE(message(0.5, 0.0, DecayTiming::DeltaTime, 60).find("> 0 s"), std::string::npos);
    EXPECT_NE(message(0.5, -3.0, DecayTiming::PerFrame, 60).find("> 0 s"), std::string::npos);
    EXPECT_NE(message(0.5, 0.001, DecayTiming::PerFrame, 60).find("shorter than one step"),
              std::string::npos);
    EXPECT_NE(message(0.5, 10, DecayTiming::PerFrame, 0).find("frame rate"), std::string::npos);
    // Half gone after ten days: 1 - decay ~ 1e-8, which a float rounds to 1.
    EXPECT_NE(message(0.5, 864000.0, DecayTiming::DeltaTime, 60).find("rounds it to 1"),
              std::string::npos);
}

} // namespace
} // namespace snowcap
