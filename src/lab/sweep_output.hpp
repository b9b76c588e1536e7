#pragma once
// `snowcap sweep`, what it leaves behind (docs/sweeps.md): the contact sheet (one row per
// combination, one column per --at time), sweep.csv and sweep.json (the inputs and the metrics
// of each combination) and plots/ (each metric against each varied key).

#include "lab/sweep_plan.hpp"
#include "lab/sweep_run.hpp"
#include "lab/sweep_shards.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

// The sheet's geometry: tiles `gap` pixels apart with a `gap` border, so its size says how many
// tiles it holds: width = columns x (tile + gap) + gap, height = rows x (tile + gap) + gap.
inline constexpr int kSheetGap = 4;

// How the sweep ran: sweep.json's "run", the only part of the outputs that differs between two
// runs of the same sweep (timings, hosts, processes); sheet.png, sweep.csv, plots/ and the rest
// of sweep.json are the same bytes whether one process ran it or shards merged it.
struct SweepRunInfo {
    int jobs = 1;
    double wallSeconds = 0.0; // the whole run (a merge: the merge itself)
    std::string glRenderer;
    std::string stage = "lit";
    std::vector<SweepShardRecord> shards; // merged from these; empty for one process
};

// PSNR in dB of two tiles' RGB (peak 255); +infinity when they are equal.
double tilePsnr(const ImageRgba8& a, const ImageRgba8& b);

// Whether DIR's outputs may be replaced (sheet.png, sweep.csv and sweep.json regular files or
// nothing, plots/ a directory of regular files or nothing); one line naming the first that is
// not. Checked before a sweep or merge starts, and again before the outputs are renamed in.
std::optional<std::string> checkSweepOutputs(const std::filesystem::path& dir);

// `results` holds every combination (any order). Writes DIR/sheet.png, sweep.csv, sweep.json
// and plots/*.png, all or nothing: every file is written first into a directory beside them,
// and renamed into place only when all of them are (and no SIGINT / SIGTERM came). One line on
// failure.
std::optional<std::string> writeSweepOutputs(const std::filesystem::path& dir,
                                             const SweepPlan& plan,
                                             std::vector<SweepResult> results,
                                             const SweepRunInfo& info);

} // namespace snowcap
