#include "snow/world_aging.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace snowcap {

float halfBitsToFloat(std::uint16_t bits) {
    const float sign = (bits & 0x8000u) ? -1.0f : 1.0f;
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    if (exponent == 0)
        return sign * std::ldexp(static_cast<float>(mantissa), -24);
    if (exponent == 31)
        return mantissa ? std::nanf("") : sign * INFINITY;
    return sign * std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
}

std::uint16_t floatToHalfBits(float value) {
    const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
    const std::uint16_t sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
    if (std::isnan(value))
        return 0x7e00;
    float a = std::abs(roundToHalf(std::abs(value), HalfRounding::NearestEven));
    if (std::isinf(a) || a > 65504.0f)
        return sign | 0x7c00;
    if (a < std::ldexp(1.0f, -14)) // subnormal: a multiple of 2^-24
        return sign | static_cast<std::uint16_t>(std::lround(std::ldexp(a, 24)));
    int exponent = 0;
    const float m = std::frexp(a, &exponent); // a = m x 2^exponent, m in [0.5, 1)
    const auto mantissa = static_cast<std::uint16_t>(std::lround(std::ldexp(m, 11)) - 1024);
    return sign | static_cast<std::uint16_t>((exponent + 14) << 10) | mantissa;
}

float untouchedMask(const AccumulateLaw& law) {
    return contactMask(1.0f, law);
}

float agingStep(float value, const AgingRun& run) {
    SimStep step;
    step.stepFactor = run.stepFactor;
    step.refillStep = run.refillStep;
    // contactScale multiplies a mask of 0 (untouchedMask() == 0 is a precondition of the
    // store): 0 x any finite scale adds exactly nothing, so the value does not depend on it.
    step.contactScale = 1.0f;
    return accumulateTexel(1.0f, value, run.law, step);
}

void AgingLog::record(const SimStep& step, const AccumulateLaw& law) {
    ++steps_;
    const bool identity = step.stepFactor == 1.0f && step.refillStep == 0.0f;
    // A change of law is logged even on an identity step: the first half-safe step clears any
    // value under the zero floor an earlier unsafe step may have stored.
    if (identity && any_ && law == lastLaw_)
        return;
    lastLaw_ = law;
    any_ = true;
    if (!runs_.empty()) {
        AgingRun& last = runs_.back();
        if (last.first + last.count == steps_ && last.stepFactor == step.stepFactor &&
            last.refillStep == step.refillStep && last.law == law) {
            ++last.count;
            return;
        }
    }
    runs_.push_back({steps_, 1, step.stepFactor, step.refillStep, law});
}

float AgingLog::age(float value, long long fromStep) const {
    // The first run that ends after fromStep.
    auto run = std::upper_bound(
        runs_.begin(), runs_.end(), fromStep,
        [](long long step, const AgingRun& r) { return step < r.first + r.count - 1; });
    for (; run != runs_.end() && value != 0.0f; ++run) {
        const long long start = std::max(run->first, fromStep + 1);
        for (long long s = start; s < run->first + run->count; ++s) {
            const float next = agingStep(value, *run);
            if (next == value)
                break; // a fixed point of this run's step stays one for the rest of the run
            value = next;
            if (value == 0.0f)
                break; // 0 is a fixed point of every step (nothing presses)
        }
    }
    return value;
}

std::uint16_t AgingLog::ageBits(std::uint16_t bits, long long fromStep) const {
    if (bits == 0)
        return 0;
    return floatToHalfBits(age(halfBitsToFloat(bits), fromStep));
}

void AgingLog::forgetBefore(long long step) {
    auto keep =
        std::upper_bound(runs_.begin(), runs_.end(), step,
                         [](long long s, const AgingRun& r) { return s < r.first + r.count - 1; });
    runs_.erase(runs_.begin(), keep);
}

void AgingLog::clear() {
    runs_.clear();
    steps_ = 0;
    any_ = false;
}

} // namespace snowcap
