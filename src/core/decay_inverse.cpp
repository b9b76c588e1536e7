#include "core/decay_inverse.hpp"

#include <cmath>
#include <cstdio>

namespace snowcap {

namespace {

// The number of times the law applies the decay per second of fade.
double stepsPerSecond(DecayTiming timing, double fps) {
    return timing == DecayTiming::PerFrame ? fps : 60.0;
}

std::string format(const char* pattern, double a, double b = 0.0) {
    char line[160];
    std::snprintf(line, sizeof(line), pattern, a, b);
    return line;
}

} // namespace

double remainingAfter(double decay, DecayTiming timing, double fps, double seconds) {
    return std::pow(decay, seconds * stepsPerSecond(timing, fps));
}

double halfLifeS(double decay, DecayTiming timing, double fps) {
    return std::log(0.5) / (std::log(decay) * stepsPerSecond(timing, fps));
}

std::variant<double, std::string> decayFor(double fraction, double seconds, DecayTiming timing,
                                           double fps) {
    if (!std::isfinite(fraction) || fraction <= 0.0 || fraction >= 1.0)
        return format("the fraction left must be between 0 and 1 (exclusive), got %g", fraction);
    if (!std::isfinite(fps) || fps <= 0.0)
        return format("the frame rate must be > 0, got %g", fps);
    if (!std::isfinite(seconds) || seconds <= 0.0)
        return format("the time must be > 0 s, got %g", seconds);
    if (seconds * fps < 1.0)
        return format("%g s is shorter than one step at %g fps", seconds, fps);
    // decay = fraction^(1 / n): through logarithms, so 1 - decay keeps its digits.
    const double decay = std::exp(std::log(fraction) / (seconds * stepsPerSecond(timing, fps)));
    if (static_cast<float>(decay) >= 1.0f)
        return format("a fade to %g in %g s needs a decay so close to 1 that the shader's float "
                      "rounds it to 1 (no fade); choose a shorter time",
                      fraction, seconds);
    return decay;
}

} // namespace snowcap
