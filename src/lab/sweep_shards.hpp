#pragma once
// `snowcap sweep --plan DIR --shard K/N` and `--merge DIR` (docs/cluster.md): a planned sweep
// (lab/sweep_plan_file.hpp) run in N shards by a scheduler that already exists (Slurm array
// jobs, Kubernetes Indexed Jobs), and merged into the files one process would have written.
//
// The unit of a share is a batch (a field): packed combinations share one capture, so splitting
// a field would run its capture twice and change nothing else. Shard K of N runs every N-th
// batch starting at K-1, not a contiguous block: the batches of a packed sweep cost the same
// except the last (partly filled), but a sweep over a scene key often orders its cost with the
// index (snow.resolution=256,512,1024,...), and a contiguous block would hand every expensive
// field to the last shard; every N-th spreads a trend evenly and is never worse by more than
// one batch.
//
// A shard runs in DIR/shards/.K.partial-HOST-PID (each batch's results saved there as it ends)
// and becomes DIR/shards/K by one rename once everything, its record (shard.json) last, is
// written. So DIR/shards/K exists only whole: a shard killed midway leaves a partial directory
// that the merge never reads and a rerun replaces; a completed one is skipped when run again.

#include "lab/sweep_plan_file.hpp"
#include "lab/sweep_run.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

struct SweepShard {
    int index = 1; // K, 1 first
    int count = 1; // N
    std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// An environment variable's value, nullopt when unset (std::getenv in the program, a map in
// tests).
using EnvLookup = std::function<std::optional<std::string>(const char*)>;

// "K/N" with 1 <= K <= N, or "env": from Slurm, K = (SLURM_ARRAY_TASK_ID -
// SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP + 1 and N = SLURM_ARRAY_TASK_COUNT (so
// --array=0-3 and --array=1-4 both work); from a Kubernetes Indexed Job, K =
// JOB_COMPLETION_INDEX + 1 and N = `countFlag` (--shard-count) when > 0, else
// SNOWCAP_SHARD_COUNT (Kubernetes does not pass .spec.completions to the pod). One line when
// neither is there or a value is not a number.
std::variant<SweepShard, std::string> parseSweepShard(const std::string& text, int countFlag,
                                                      const EnvLookup& env);

// The batches of shard K of N: K-1, K-1+N, K-1+2N, ... (empty when N exceeds the batches).
std::vector<int> shardBatches(int batchCount, const SweepShard& shard);

// What a completed shard says about itself (DIR/shards/K/shard.json).
struct SweepShardRecord {
    SweepShard shard;
    std::string planId; // SweepPlanFile::id of the plan it ran
    SweepBuild build;   // the snowcap that ran it
    std::vector<int> batches;
    int jobs = 1;
    double wallSeconds = 0.0;
    std::string glRenderer, host;
};

// This machine's name, as a shard record and a staging directory name it.
std::string sweepHostName();

std::filesystem::path shardDirectory(const std::filesystem::path& planDir, int index);
// Where shard `index` is written before it is complete (unique to this host and process).
std::filesystem::path shardStagingDirectory(const std::filesystem::path& planDir, int index);
// Batch b's results in a shard (or worker) directory: "batch_B.json", tiles beside it.
std::filesystem::path sweepBatchFile(const std::filesystem::path& dir, int batch);

std::optional<std::string> writeShardRecord(const std::filesystem::path& dir,
                                            const SweepShardRecord& record);
std::variant<SweepShardRecord, std::string> readShardRecord(const std::filesystem::path& dir);

// Is shard `shard` of this plan, made by this build, already complete in planDir?
bool shardComplete(const std::filesystem::path& planDir, const SweepShard& shard,
                   const SweepPlanFile& file);

// When DIR/shards holds complete shards of this plan from another split (another N), the one
// line that says so: a shard of a second split would replace one of the first and leave neither
// whole (a Slurm rerun of one task, `--array=3`, makes N = 1 under --shard env).
std::optional<std::string> otherSplit(const std::filesystem::path& planDir, const SweepShard& shard,
                                      const SweepPlanFile& file);

// Makes the staging directory shard K: removes a stale DIR/shards/K (another plan's, or another
// split's) and renames staging into its place, then removes partial directories that killed
// runs of K on this host left (their process gone). Returns false when an equal complete shard
// appeared meanwhile (a duplicate run finished first: staging is removed, the other is kept). One
// line on failure.
std::variant<bool, std::string> publishShard(const std::filesystem::path& planDir,
                                             const std::filesystem::path& staging,
                                             const SweepShard& shard, const SweepPlanFile& file);

struct SweepShards {
    std::vector<SweepResult> results;     // every combination's, once
    std::vector<SweepShardRecord> shards; // in order, 1..N
};

// Every shard of planDir checked (all of 1..N there, the same plan id, split and build as the
// plan, each holding its share) and their results read. One line naming every missing or
// mismatched shard when anything is wrong.
std::variant<SweepShards, std::string> gatherSweepShards(const std::filesystem::path& planDir,
                                                         const SweepPlanFile& file,
                                                         const SweepPlan& plan);

} // namespace snowcap
