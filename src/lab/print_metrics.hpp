#pragma once
// What a run says about its prints, shared by `render` (stats.json) and `sweep`: how long a
// probe's print took to fade (measured from the run's own steps, never extrapolated), what the
// sim clock predicts for the same fade, and the relief of the surface (deepest print, rim
// crest) as the material displaces it.

#include "core/settings.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"

#include <optional>
#include <string>
#include <vector>

namespace snowcap {

// A print's fade at one probe. The fade starts at the last step the probe held its peak (the
// highest value of the run: the contact's end, to within one half-safe decay quantum), and each
// time is from there to the first later step at or below 50 % / 10 % of the peak, or exactly 0.
// Not reached (nullopt) when the run ends first, or when the probe never saw a print.
struct MeasuredFade {
    std::optional<double> peak;   // the highest value (nullopt: never above 0)
    std::optional<double> startS; // scenario time the fade starts at
    std::optional<double> to50S, to10S, toZeroS;
};
// `values[k]` is the probe after step k + 1 (RunRecorder); NaN entries (outside) count as 0.
MeasuredFade measureFade(const std::vector<float>& values, double dtS);

// The same fade as the sim clock predicts it for a full print (fadeCurve at the run's fps, no
// contact after t = 0), within `horizonS`; nullopt past it.
struct PredictedFade {
    std::optional<double> to50S, to10S, toZeroS;
};
PredictedFade predictFade(const SimSettings& sim, double fps, double horizonS = 3600.0);

// What a sim's pane label and render's closing lines say of it, by how much: a mask sim's
// predicted fade of a full print ("half-life 11.6 s, 10 % after 38.4 s", "gone after 4.0 s"
// for a linear refill, "no fade within 1 h"), a snowpack's state now ("mean depth 29.7 cm,
// mass 3021 kg"; reads the state back). Empty when the snow is off.
std::string simHeadline(const SnowField& field, int s, double fps);

// The surface's relief over a sim's region: the Height stage seen from straight above at the
// buffer's resolution (at most kMaxReliefSide pixels a side), no deformers drawn. Depths are
// positive cm below the undisturbed top; the crest is cm above it (0 without rims).
struct Relief {
    double deepestCm = 0.0;
    double crestCm = 0.0;
};
inline constexpr int kMaxReliefSide = 256;
Relief measureRelief(SnowField& field, SceneRenderer& renderer, int sim, const Settings& settings);

} // namespace snowcap
