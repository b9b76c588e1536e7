#pragma once
// The settings card for Unreal (`snowcap export-ue`, docs/unreal.md): every value the lab tuned
// for one sim, under the name it has in the Unreal write-up (Foliage Snow Interaction), the
// snowcap-only switches with what each needs on the Unreal side, and the fade to expect, run
// through the CPU reference of the accumulate pass (snow/cpu_reference.hpp). No GL.

#include "core/settings.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace snowcap {

// The frame rates and times the card's fade table is given at.
inline constexpr double kCardRates[] = {30.0, 60.0, 144.0};
inline constexpr double kCardTimesS[] = {1.0, 10.0, 60.0};
// The fade is followed this long at most (a slower fade reports null and where it stands then).
inline constexpr double kCardHorizonS = 3600.0;

// One rate's fade of a full print under the sim's clock and the half store (round to nearest,
// what GPUs do): held in contact until the buffer stops rising (at most 1 s), then released.
struct CardFade {
    double fps = 60.0;
    int holdSteps = 0;             // contact steps before the release
    float peak = 0.0f;             // the stored value at the release
    std::vector<float> afterSteps; // the stored value n steps after the release (n = 0: peak)
};
CardFade cardFade(const SimSettings& sim, double fps, double horizonS);

// The card as JSON, keys in reading order (docs/unreal.md has the schema). `settings` as loaded
// (the quality rung is applied here, as the field does); `simIndex` the sim's index; scenario and
// overrides are recorded for the reader.
nlohmann::ordered_json ueSettingsCard(const Settings& settings, int simIndex,
                                      const std::string& scenario,
                                      const std::vector<std::string>& overrides);
// The same card for people: Markdown tables.
std::string ueSettingsCardMarkdown(const nlohmann::ordered_json& card);

// A Python string literal for an Unreal name or path: 'text', quotes and backslashes escaped.
std::string pythonString(std::string_view text);

// A card's Markdown opening, shared by every kind of card: "# TITLE: scenario `S`, sim X" and
// the `--set` overrides it was made with.
std::string ueCardHeading(const char* title, const nlohmann::ordered_json& card);
// An Unreal editor Python script that writes the card's values into the MPC and the snow
// material instance (asset paths at its top, to edit).
std::string ueEditorPython(const nlohmann::ordered_json& card);

} // namespace snowcap
