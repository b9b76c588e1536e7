#include "core/sim_clock.hpp"

#include <algorithm>
#include <cmath>

namespace snowcap {

float AgeClock::next(double dtSeconds) {
    pendingS_ += std::max(dtSeconds, 0.0);
    const double released = std::floor(pendingS_ / kQuantum) * kQuantum;
    pendingS_ -= released;
    return static_cast<float>(released);
}

float LinearRefill::next(double amount) {
    pending_ += std::max(amount, 0.0);
    const double released = std::floor(pending_ / kQuantum) * kQuantum;
    pending_ -= released;
    return static_cast<float>(released);
}

double decayAt(const std::vector<SimSettings::DecayKey>& keys, double decay, double timeS) {
    if (keys.empty())
        return decay;
    if (timeS <= keys.front().timeS)
        return keys.front().decay;
    for (std::size_t i = 1; i < keys.size(); ++i) {
        if (timeS < keys[i].timeS) {
            const double span = keys[i].timeS - keys[i - 1].timeS;
            const double f = span > 0.0 ? (timeS - keys[i - 1].timeS) / span : 1.0;
            return keys[i - 1].decay + f * (keys[i].decay - keys[i - 1].decay);
        }
    }
    return keys.back().decay;
}

float contactScale(ContactTiming timing, AccumulateMode mode, double dtSeconds) {
    if (timing == ContactTiming::PerFrame || mode == AccumulateMode::Max)
        return 1.0f;
    // 1/60 in double times 60 is within an ulp of 1, and the float rounding makes it exactly
    // 1.0f: at 60 fps the pass adds the mask itself, bit for bit the original.
    return static_cast<float>(dtSeconds * 60.0);
}

const SimStep& SimClock::advance(double dtSeconds) {
    const AccumulateLaw& s = law_;
    timeS_ += dtSeconds;
    SimStep step;
    step.dtS = dtSeconds;
    step.timeS = timeS_;
    // The decay of the time the step ends at, rounded to float: the GPU sim has always taken
    // the factor from the float the parameter block carried, and every scenario's buffers stay
    // bit for bit as they were.
    step.decay = static_cast<float>(decayAt(s.decayKeys, s.decay, timeS_));
    if (s.refill == RefillMode::Linear) {
        step.refillStep = linearRefill_.next(s.refillRatePerS * dtSeconds);
    } else {
        const double exponent = decayExponent(step.decay, s.decayTiming, dtSeconds);
        step.stepFactor =
            s.halfSafe ? quantizer_.next(exponent) : static_cast<float>(std::exp(-exponent));
    }
    step.ageStepS = ageClock_.next(dtSeconds);
    step.contactScale = contactScale(s.contactTiming, s.mode, dtSeconds);
    last_ = step;
    return last_;
}

void SimClock::reset() {
    quantizer_.reset();
    ageClock_.reset();
    linearRefill_.reset();
    timeS_ = 0.0;
    last_ = {};
}

void SimClock::restore(const State& state) {
    timeS_ = state.timeS;
    quantizer_.restore(state.decayPending);
    ageClock_.restore(state.agePendingS);
    linearRefill_.restore(state.refillPending);
}

std::vector<double> fadeCurve(const AccumulateLaw& law, double fps, double horizonS,
                              double stopBelow) {
    SimClock clock(law);
    const double dt = 1.0 / fps;
    const long long steps = std::llround(std::max(horizonS, 0.0) * fps);
    std::vector<double> left{1.0};
    double value = 1.0;
    for (long long i = 0; i < steps && value > stopBelow; ++i) {
        const SimStep& step = clock.advance(dt);
        value = law.refill == RefillMode::Linear ? std::max(value - step.refillStep, 0.0)
                                                 : value * step.stepFactor;
        if (law.halfSafe && value < kZeroFloor)
            value = 0.0; // the pass's zero floor
        left.push_back(value);
    }
    return left;
}

} // namespace snowcap
