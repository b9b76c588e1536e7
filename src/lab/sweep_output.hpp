#pragma once
// `snowcap sweep`, what it leaves behind (docs/sweeps.md): the contact sheet (one row per
// combination, one column per --at time), sweep.csv and sweep.json (the inputs and the metrics
// of each combination) and plots/ (each metric against each varied key).

#include "lab/sweep_plan.hpp"
#include "lab/sweep_run.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

// The sheet's geometry: tiles `gap` pixels apart with a `gap` border, so its size says how many
// tiles it holds: width = columns x (tile + gap) + gap, height = rows x (tile + gap) + gap.
inline constexpr int kSheetGap = 4;

struct SweepRunInfo {
    int jobs = 1;
    double wallSeconds = 0.0;
    std::string glRenderer;
    std::string stage = "lit";
};

// PSNR in dB of two tiles' RGB (peak 255); +infinity when they are equal.
double tilePsnr(const ImageRgba8& a, const ImageRgba8& b);

// `results` holds every combination (any order). Writes DIR/sheet.png, sweep.csv, sweep.json
// and plots/*.png; one line on failure.
std::optional<std::string> writeSweepOutputs(const std::filesystem::path& dir,
                                             const SweepPlan& plan,
                                             std::vector<SweepResult> results,
                                             const SweepRunInfo& info);

} // namespace snowcap
