#pragma once
// The Unreal card of a snowpack sim (`snowcap export-ue` on a sim with model = "snowpack",
// docs/unreal.md section 5). The Unreal write-up has no snowpack, so there is nothing to set in
// an existing asset: the card says what building the model in Unreal would need — the state's
// formats and sizes, the four compute passes in their order with what each reads and writes,
// the keys' values — and what it costs: memory and dispatches computed from the settings, and
// the GPU time where a `snowcap bench` report measured it (`--bench FILE`). No GL.

#include "core/settings.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace snowcap {

// `bench` is a `snowcap bench --json` report or null (no timings then: the card says how to
// measure them). Its "snowpack" cases are copied with the machine and renderer they ran on.
nlohmann::ordered_json ueSnowpackCard(const Settings& settings, int simIndex,
                                      const std::string& scenario,
                                      const std::vector<std::string>& overrides,
                                      const nlohmann::json& bench);
std::string ueSnowpackCardMarkdown(const nlohmann::ordered_json& card);
// An Unreal editor Python script that creates the state's two render targets (RTF_RGBA32f, the
// card's resolution); the passes are C++ (global compute shaders) and no script can add them.
std::string ueSnowpackEditorPython(const nlohmann::ordered_json& card);

} // namespace snowcap
