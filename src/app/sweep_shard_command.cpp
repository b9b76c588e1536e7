// `snowcap sweep` beyond one process (docs/cluster.md): --plan DIR writes the plan and stops,
// --plan DIR --shard K/N runs one shard of it into DIR/shards/K, --merge DIR checks that every
// shard is there and writes the outputs one process would have written. The scheduler (Slurm,
// Kubernetes) decides where and when shards run; snowcap only makes each step safe to repeat: a
// shard appears whole or not at all, a completed one is skipped, a merge writes nothing until
// every shard checks out.
#include "app/commands.hpp"
#include "app/sweep_batches.hpp"
#include "build_commit.hpp"
#include "lab/run_guard.hpp"
#include "lab/sweep_output.hpp"
#include "lab/sweep_plan_file.hpp"
#include "lab/sweep_shards.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <set>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

SweepBuild thisBuild() {
    return {SNOWCAP_VERSION, SNOWCAP_COMMIT};
}

int failed(int code, const std::string& message) {
    spdlog::error("{}", message);
    return code;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct LoadedPlan {
    SweepPlanFile file;
    SweepPlan plan;
};

// plan.json read, made by this build, and planned again here to the same settings.
std::variant<LoadedPlan, std::string> loadPlan(const fs::path& dir) {
    auto read = readSweepPlanFile(dir);
    if (auto* error = std::get_if<std::string>(&read))
        return *error;
    LoadedPlan loaded{std::get<SweepPlanFile>(std::move(read)), {}};
    if (!(loaded.file.build == thisBuild()))
        return fmt::format("{}: planned by snowcap {}, this is snowcap {}: plan, shards and merge "
                           "must be one build",
                           (dir / kSweepPlanName).string(), loaded.file.build.text(),
                           thisBuild().text());
    auto planned = replanSweep(loaded.file);
    if (auto* error = std::get_if<std::string>(&planned))
        return fmt::format("{}/{}", dir.string(), *error);
    loaded.plan = std::get<SweepPlan>(std::move(planned));
    return loaded;
}

int writePlan(const CommonOptions& common, const SweepOptions& options) {
    auto run = sweepRunOptionsFrom(options);
    if (auto* error = std::get_if<std::string>(&run))
        return failed(2, *error);
    auto planned = planSweepFrom(common, options);
    if (auto* error = std::get_if<std::string>(&planned))
        return failed(2, *error);
    const SweepPlan& plan = std::get<SweepPlan>(planned);
    if (auto error = writeSweepPlanFile(options.planDir, plan, std::get<SweepRunOptions>(run),
                                        options.stage, thisBuild()))
        return failed(2, *error);
    auto written = readSweepPlanFile(options.planDir);
    if (auto* error = std::get_if<std::string>(&written))
        return failed(1, *error);
    spdlog::info("sweep: planned {} combinations in {} batch{} into {} (plan {}); run shards with "
                 "--plan {} --shard K/N, then --merge {}",
                 plan.combinations.size(), plan.batches.size(),
                 plan.batches.size() == 1 ? "" : "es", (options.planDir / kSweepPlanName).string(),
                 std::get<SweepPlanFile>(written).id, options.planDir.string(),
                 options.planDir.string());
    return 0;
}

int runShard(const CommonOptions& common, const SweepOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    auto parsed = parseSweepShard(options.shard, options.shardCount, [](const char* name) {
        const char* value = std::getenv(name);
        return value ? std::optional<std::string>(value) : std::nullopt;
    });
    if (auto* error = std::get_if<std::string>(&parsed))
        return failed(2, *error);
    const SweepShard shard = std::get<SweepShard>(parsed);
    auto loaded = loadPlan(options.planDir);
    if (auto* error = std::get_if<std::string>(&loaded))
        return failed(2, *error);
    const auto& [file, plan] = std::get<LoadedPlan>(loaded);
    const fs::path final = shardDirectory(options.planDir, shard.index);
    if (shardComplete(options.planDir, shard, file)) {
        spdlog::info("sweep: shard {} of plan {} is already complete in {}; skipped", shard.text(),
                     file.id, final.string());
        return 0;
    }
    if (auto error = otherSplit(options.planDir, shard, file))
        return failed(2, *error);
    RunGuard::catchInterrupts(); // as render: a SIGINT or SIGTERM stops it with one line
    const std::vector<int> batches = shardBatches(static_cast<int>(plan.batches.size()), shard);
    const fs::path staging = shardStagingDirectory(options.planDir, shard.index);
    std::error_code ec;
    fs::remove_all(staging, ec);
    fs::create_directories(staging, ec);
    if (ec)
        return failed(2, fmt::format("{}: cannot create ({})", staging.string(), ec.message()));
    long long totalSteps = 0, combinations = 0;
    for (int b : batches) {
        totalSteps += plan.batches[b].settings.run.frames;
        combinations += static_cast<long long>(plan.batches[b].combinations.size());
    }
    const int jobs = std::max(1, std::min<int>(options.jobs, static_cast<int>(batches.size())));
    spdlog::info("sweep: shard {} of plan {}: {} of {} batches ({} combinations), {} job{}",
                 shard.text(), file.id, batches.size(), plan.batches.size(), combinations, jobs,
                 jobs == 1 ? "" : "s");
    const double dt = 1.0 / plan.batches.front().settings.run.fps;
    ProgressReporter progress({.mode = progressModeForStderr(options.progress),
                               .label = "sweep " + shard.text(),
                               .total = totalSteps,
                               .simulatedTotalS = totalSteps * dt},
                              std::cerr);
    const std::string command = "sweep --shard " + shard.text();
    auto ran = runSweepBatches(plan, sweepRunOptions(file), batches, jobs, common.debugGl, staging,
                               true, progress, command);
    progress.finish();
    if (const int signal = RunGuard::interruptedBy()) { // after its last step: still not kept
        fs::remove_all(staging, ec);
        return failed(128 + signal, fmt::format("{}: interrupted ({}); nothing of it was kept",
                                                command, signal == SIGINT ? "SIGINT" : "SIGTERM"));
    }
    if (auto* error = std::get_if<std::string>(&ran)) {
        fs::remove_all(staging, ec);
        return failed(1, *error);
    }
    const std::vector<SweepResult>& results = std::get<0>(ran);
    SweepShardRecord record;
    record.shard = shard;
    record.planId = file.id;
    record.build = thisBuild();
    record.batches = batches;
    record.jobs = jobs;
    record.glRenderer = results.empty() ? "" : results.front().glRenderer;
    record.host = sweepHostName();
    record.wallSeconds = secondsSince(started);
    if (auto error = writeShardRecord(staging, record)) {
        fs::remove_all(staging, ec);
        return failed(1, *error);
    }
    auto published = publishShard(options.planDir, staging, shard, file);
    if (auto* error = std::get_if<std::string>(&published))
        return failed(1, *error);
    if (!std::get<bool>(published)) {
        spdlog::info("sweep: shard {} was completed meanwhile by another run; kept that one",
                     shard.text());
        return 0;
    }
    spdlog::info("sweep: shard {} in {:.1f} s; wrote {}", shard.text(), record.wallSeconds,
                 final.string());
    return 0;
}

int merge(const SweepOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    auto loaded = loadPlan(options.mergeDir);
    if (auto* error = std::get_if<std::string>(&loaded))
        return failed(2, *error);
    const auto& [file, plan] = std::get<LoadedPlan>(loaded);
    const fs::path outDir = options.outDir.empty() ? options.mergeDir : options.outDir;
    if (auto refused = checkSweepOutputs(outDir))
        return failed(2, *refused);
    RunGuard::catchInterrupts(); // an interrupt replaces none of the outputs
    auto gathered = gatherSweepShards(options.mergeDir, file, plan);
    if (auto* error = std::get_if<std::string>(&gathered))
        return failed(2, *error);
    SweepShards& shards = std::get<SweepShards>(gathered);
    SweepRunInfo info;
    info.stage = file.stage;
    info.shards = shards.shards;
    std::set<std::string> renderers;
    for (const SweepShardRecord& r : shards.shards)
        if (!r.glRenderer.empty())
            renderers.insert(r.glRenderer);
    if (renderers.size() > 1)
        spdlog::warn("sweep --merge: the shards ran on {} different GL renderers (sweep.json's "
                     "run.shards names each); tiles may differ from one process's",
                     renderers.size());
    std::error_code ec;
    fs::create_directories(outDir, ec);
    if (ec)
        return failed(2, fmt::format("{}: cannot create output directory ({})", outDir.string(),
                                     ec.message()));
    info.wallSeconds = secondsSince(started);
    if (auto error = writeSweepOutputs(outDir, plan, std::move(shards.results), info)) {
        const int signal = RunGuard::interruptedBy();
        return failed(signal ? 128 + signal : 1, *error);
    }
    spdlog::info("sweep: merged {} shards of plan {} ({} combinations); wrote {}",
                 info.shards.size(), file.id, plan.combinations.size(),
                 (outDir / "sheet.png").string());
    return 0;
}

} // namespace

int runSweepBeyondOneProcess(const CommonOptions& common, const SweepOptions& options) {
    const bool given = options.requestGiven || !common.overrides.empty();
    if (!options.mergeDir.empty()) {
        if (!options.planDir.empty() || !options.shard.empty() || given)
            return failed(2, "sweep --merge DIR: takes everything from DIR/plan.json; give no "
                             "--plan, --shard or request options with it");
        return merge(options);
    }
    if (options.planDir.empty())
        return failed(2, "sweep --shard: name the plan with --plan DIR");
    if (options.shard.empty()) {
        if (!options.outDir.empty())
            return failed(2, "sweep --plan DIR: writes only the plan; --out belongs to a "
                             "one-process sweep or --merge");
        return writePlan(common, options);
    }
    if (given || !options.outDir.empty())
        return failed(2, fmt::format("sweep --shard: the request comes from {}; give only --plan "
                                     "DIR --shard K/N [--jobs N]",
                                     (options.planDir / kSweepPlanName).string()));
    return runShard(common, options);
}

} // namespace snowcap
