#pragma once
// Time for a sine that runs as long as the run: sin(2 pi f t) in float loses its phase as t
// grows (at one day of run time a float second has steps of 7.8 ms, and 2 pi f t near 3e6 rad
// steps of 0.25 rad: the sway jitters). So the CPU hands the shader the time wrapped, in double,
// by a whole number of the sine's periods: the same sine, at a precision that stops decaying.
//
// The span is the least whole number of periods that reaches kPhaseWrapS, so a run shorter than
// that sees its times unchanged, bit for bit; after it, float time keeps steps under 0.12 ms.

#include <cmath>

namespace snowcap {

inline constexpr double kPhaseWrapS = 1000.0;

// `timeS` (>= 0) wrapped by a whole number of `periodS`. The period should be computed from the
// frequency exactly as the shader holds it (a float), so that whole periods are whole for it.
inline double wrappedTimeS(double timeS, double periodS) {
    if (!(periodS > 0.0) || !std::isfinite(periodS) || !(timeS >= kPhaseWrapS))
        return timeS;
    const double span = periodS * std::ceil(kPhaseWrapS / periodS);
    return std::fmod(timeS, span);
}

} // namespace snowcap
