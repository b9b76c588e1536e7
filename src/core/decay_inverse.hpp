#pragma once
// The Decay panel's inverse: from what a technical artist wants ("half gone after 10 s", "gone
// after a minute") to the decay value that does it, at a frame rate and decay timing. Pure
// analytic law (docs/pipeline.md): the half-safe staircase and the half store stay within
// 1.2 % of it above 0.05 (core/snow_math.hpp), and the Decay panel draws the clock's own curve
// beside it. No GL here.

#include "core/settings.hpp"

#include <string>
#include <variant>

namespace snowcap {

// What is left of a full print `seconds` after the last contact: per_frame multiplies by the
// decay once a step (decay^(seconds x fps)), delta_time by pow(decay, dt x 60) (decay^(seconds
// x 60), any frame rate).
double remainingAfter(double decay, DecayTiming timing, double fps, double seconds);

// The half-life: the time in which the print loses half of what it has.
double halfLifeS(double decay, DecayTiming timing, double fps);

// The decay for which remainingAfter(decay, timing, fps, seconds) == fraction, or one line
// saying why there is none: fraction outside (0, 1), a time that is not > 0 or shorter than one
// step at fps, a frame rate that is not > 0, or a fade so slow that the shader's float decay
// would round to 1 (no fade at all).
std::variant<double, std::string> decayFor(double fraction, double seconds, DecayTiming timing,
                                           double fps);

} // namespace snowcap
