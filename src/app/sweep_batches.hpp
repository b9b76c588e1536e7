#pragma once
// `snowcap sweep` inside the app: what sweep_command.cpp (one process) and
// sweep_shard_command.cpp (--plan, --shard, --merge: docs/cluster.md) share.

#include "app/commands.hpp"
#include "lab/progress.hpp"
#include "lab/sweep_plan.hpp"
#include "lab/sweep_run.hpp"

#include <filesystem>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// Runs `batches` of the plan: in this process (one context, one lab) when jobs <= 1, else in
// `jobs` forked workers. Each batch's results are saved in workDir (sweepBatchFile) as it ends
// when `save` is set, and always with workers (they hand them back that way). A SIGINT or
// SIGTERM (RunGuard::catchInterrupts) stops it: workDir is removed, one line names `command`,
// and the process exits 128 + the signal.
std::variant<std::vector<SweepResult>, std::string>
runSweepBatches(const SweepPlan& plan, const SweepRunOptions& run, const std::vector<int>& batches,
                int jobs, bool debugGl, const std::filesystem::path& workDir, bool save,
                ProgressReporter& progress, const std::string& command = "sweep");

// --tile and --stage as run options; one line for a bad --tile.
std::variant<SweepRunOptions, std::string> sweepRunOptionsFrom(const SweepOptions& options);

// The request on the command line, planned (every combination loaded and checked).
std::variant<SweepPlan, std::string> planSweepFrom(const CommonOptions& common,
                                                   const SweepOptions& options);

// --plan DIR (alone or with --shard) and --merge DIR.
int runSweepBeyondOneProcess(const CommonOptions& common, const SweepOptions& options);

} // namespace snowcap
