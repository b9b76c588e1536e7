#pragma once
// What the case groups of `snowcap bench` share (bench_cases.cpp, bench_frames.cpp).

#include "bench/bench_cases.hpp"
#include "core/settings.hpp"
#include "lab/session.hpp"
#include "snow/snow_field.hpp"

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

namespace snowcap::bench {

inline constexpr double kDt = 1.0 / 60.0;
inline constexpr const char* kScenario = "decay_compare"; // the viewer's default scene

// The scenario with the user's --set first and the case's own keys last: a case's size or
// switch is what it measures, so it must win; everything else is the user's to change.
std::variant<Settings, std::string> scenarioSettings(const Context& context,
                                                     const std::vector<std::string>& caseKeys);
// A case group's scenario at buffer side `size` (snow.resolution, then `caseKeys`), with the
// harness's label for that size and its texel count.
struct SizedScenario {
    std::string label;
    long long texels = 0;
    Settings settings;
};
std::variant<SizedScenario, std::string> sizedScenario(const Context& context, int size,
                                                       std::vector<std::string> caseKeys = {});
// The scenario as scenarioSettings gives it, and a session (field, renderer, deformers) of it:
// what the cases that step or draw a whole scene start from.
struct ScenarioSession {
    Settings settings;
    Session session;
};
std::variant<ScenarioSession, std::string>
scenarioSession(const Context& context, const std::vector<std::string>& caseKeys);
// Every snow texture a field holds (sims and captures).
std::size_t fieldBytes(const SnowField& field);
// Capture and accumulate passes a field has run.
long long passTotal(const SnowField& field);
// The floor of screen-sized passes: a copy of an R16F buffer with as many texels as the screen
// has pixels (timed once per screen).
void screenCopyFloor(Context& context, const Screen& screen);
// The floor of buffer-sized passes at `size` (an R16F copy), unless this run has it already.
void copyFloor(Context& context, int size);
// The copy both floors time: `source` into `target` with debug/copy.frag.
void drawCopy(Context& context, const gpu::Framebuffer& target, const gpu::Texture2D& source);

} // namespace snowcap::bench
