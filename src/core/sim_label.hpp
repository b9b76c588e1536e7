#pragma once
// What a pane, a picture or a video says about one sim of a comparison: its model's key figures
// ("decay 0.9995 (delta_time)", "snowpack 30 cm at 120 kg/m3") and every key in which it
// differs from the sim it is compared with ("rims on", "persistence world"), so a label names
// what is being compared and not only the decay. The keys come from the parameter table
// (core/params.hpp), so a switch added there shows up here without an edit.

#include "core/settings.hpp"

#include <span>
#include <string>
#include <vector>

namespace snowcap {

// The sim `s` is compared with: A with B, every other sim with A (-1 when there is only one).
int comparedSim(int s, int count);

// "decay 0.9995 (delta_time)" for the mask model, "snowpack 30 cm at 120 kg/m3" for a snowpack.
std::string simSummary(const SimSettings& sim);

// The keys (sim.X.* and its material and snowpack tables, as `key value`) in which `mine`
// differs from `other`, in the table's order, leaving out what simSummary already says.
std::vector<std::string> simDifferences(const SimSettings& mine, const SimSettings& other);

// simSummary and then each difference from the compared sim: "decay 0.9995 (delta_time), rims
// on".
std::string simLabel(std::span<const SimSettings> sims, int s);

} // namespace snowcap
