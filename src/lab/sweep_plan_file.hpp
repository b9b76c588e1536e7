#pragma once
// `snowcap sweep --plan DIR`: the sweep's plan as a file (DIR/plan.json, docs/cluster.md), so a
// scheduler can run it in shards (lab/sweep_shards.hpp) on other processes or machines and
// merge them into what one process would have written.
//
// plan.json holds the request (scenario, --set, --vary, --at, --frames, --sim, --tile,
// --stage), every combination with its index, values, overrides and resolved settings (every
// key, as stats.json's `params`), the fields they run in, and the snowcap version and commit
// that planned it. A shard does not trust the file's settings blindly, nor re-reads the
// scenario blindly: it plans the request again exactly as one process would, and refuses to run
// when any combination resolves to other settings than the plan recorded (a node with another
// scenario file, config or build).

#include "lab/sweep_plan.hpp"
#include "lab/sweep_run.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

namespace snowcap {

// The snowcap that made a file: plan, shard and merge must all be the same one.
struct SweepBuild {
    std::string version; // "0.1.0"
    std::string commit;  // "1a2b3c4d5e6f", "…-dirty", or "unknown" (not built from a checkout)
    bool operator==(const SweepBuild&) const = default;
    std::string text() const { return version + " (" + commit + ")"; }
};

struct SweepPlanFile {
    SweepRequest request;
    std::string stage = "lit"; // --stage, by name
    int tileWidth = 320, tileHeight = 180;
    SweepBuild build;
    std::string id; // the plan's identity: FNV-1a 64 of plan.json's bytes, 16 hex digits
    std::vector<nlohmann::json> settings; // each combination's resolved settings, as recorded
};

inline const char* kSweepPlanName = "plan.json";

// Writes DIR/plan.json atomically (creating DIR); one line on failure.
std::optional<std::string> writeSweepPlanFile(const std::filesystem::path& dir,
                                              const SweepPlan& plan, const SweepRunOptions& run,
                                              const std::string& stage, const SweepBuild& build);

// Reads DIR/plan.json; one line naming the file and the problem.
std::variant<SweepPlanFile, std::string> readSweepPlanFile(const std::filesystem::path& dir);

// Plans the file's request again, as the process that wrote it did, and checks every
// combination resolves to the settings plan.json records; the first difference is one line
// naming the combination and the key.
std::variant<SweepPlan, std::string> replanSweep(const SweepPlanFile& file);

// The run options (tile, stage) the plan asks for.
SweepRunOptions sweepRunOptions(const SweepPlanFile& file);

} // namespace snowcap
