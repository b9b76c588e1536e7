// A sweep beyond one process (CPU only; the GL runs are tests/app/SweepShardsTest.sh): which
// batches a shard gets, K/N from the command line and from Slurm's and Kubernetes' variables,
// plan.json written and read back (a shard refuses a plan that resolves differently), and the
// merge's check naming every missing or mismatched shard in one line.
#include "lab/sweep_plan_file.hpp"
#include "lab/sweep_shards.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <set>
#include <unistd.h>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

EnvLookup envOf(std::map<std::string, std::string> values) {
    return [values = std::move(values)](const char* name) -> std::optional<std::string> {
        const auto it = values.find(name);
        return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
}

std::string shardText(const std::variant<SweepShard, std::string>& parsed) {
    if (const auto* error = std::get_if<std::string>(&parsed))
        return "error: " + *error;
    return std::get<SweepShard>(parsed).text();
}

TEST(SweepShards, EveryBatchRunsInExactlyOneShardEveryNth) {
    for (int batches : {1, 2, 7, 8, 9, 64})
        for (int n : {1, 2, 3, 4, 7, 10}) {
            std::vector<int> runs(batches, 0);
            std::size_t most = 0, fewest = batches;
            for (int k = 1; k <= n; ++k) {
                const std::vector<int> share = shardBatches(batches, {k, n});
                for (std::size_t i = 0; i < share.size(); ++i) {
                    ++runs[share[i]];
                    EXPECT_EQ(share[i], k - 1 + static_cast<int>(i) * n); // every N-th from K-1
                }
                most = std::max(most, share.size());
                fewest = std::min(fewest, share.size());
            }
            for (int b = 0; b < batches; ++b)
                EXPECT_EQ(runs[b], 1)
                    << "batch " << b << " of " << batches << ", " << n << " shards";
            EXPECT_LE(most - fewest, 1u) << batches << " batches, " << n << " shards";
        }
}

TEST(SweepShards, ReadsKOfNFromTheCommandLine) {
    const EnvLookup none = envOf({});
    EXPECT_EQ(shardText(parseSweepShard("3/7", 0, none)), "3/7");
    EXPECT_EQ(shardText(parseSweepShard("1/1", 0, none)), "1/1");
    for (const char* bad : {"0/3", "4/3", "3", "a/3", "3/", "/3", "1/0", "-1/3", "1/3x"})
        EXPECT_EQ(shardText(parseSweepShard(bad, 0, none)).rfind("error: --shard", 0), 0u) << bad;
}

TEST(SweepShards, ReadsSlurmArraysWhateverTheirFirstIndexAndStep) {
    // --array=1-4 and --array=0-3 are both shards 1..4 of 4; --array=0-6:2 is 4 tasks too.
    EXPECT_EQ(shardText(parseSweepShard("env", 0,
                                        envOf({{"SLURM_ARRAY_TASK_ID", "3"},
                                               {"SLURM_ARRAY_TASK_MIN", "1"},
                                               {"SLURM_ARRAY_TASK_COUNT", "4"}}))),
              "3/4");
    EXPECT_EQ(shardText(parseSweepShard("env", 0,
                                        envOf({{"SLURM_ARRAY_TASK_ID", "0"},
                                               {"SLURM_ARRAY_TASK_MIN", "0"},
                                               {"SLURM_ARRAY_TASK_COUNT", "4"},
                                               {"SLURM_ARRAY_TASK_STEP", "1"}}))),
              "1/4");
    EXPECT_EQ(shardText(parseSweepShard("env", 0,
                                        envOf({{"SLURM_ARRAY_TASK_ID", "6"},
                                               {"SLURM_ARRAY_TASK_MIN", "0"},
                                               {"SLURM_ARRAY_TASK_COUNT", "4"},
                                               {"SLURM_ARRAY_TASK_STEP", "2"}}))),
              "4/4");
    const std::string missing =
        shardText(parseSweepShard("env", 0, envOf({{"SLURM_ARRAY_TASK_ID", "2"}})));
    EXPECT_NE(missing.find("SLURM_ARRAY_TASK_MIN"), std::string::npos) << missing;
    const std::string word = shardText(parseSweepShard("env", 0,
                                                       envOf({{"SLURM_ARRAY_TASK_ID", "x"},
                                                              {"SLURM_ARRAY_TASK_MIN", "0"},
                                                              {"SLURM_ARRAY_TASK_COUNT", "2"}})));
    EXPECT_NE(word.find("SLURM_ARRAY_TASK_ID='x'"), std::string::npos) << word;
}

TEST(SweepShards, ReadsKubernetesIndexedJobsWithTheCountFromTheFlagOrTheEnvironment) {
    EXPECT_EQ(shardText(parseSweepShard("env", 5, envOf({{"JOB_COMPLETION_INDEX", "0"}}))), "1/5");
    EXPECT_EQ(shardText(parseSweepShard(
                  "env", 0, envOf({{"JOB_COMPLETION_INDEX", "4"}, {"SNOWCAP_SHARD_COUNT", "5"}}))),
              "5/5");
    EXPECT_NE(shardText(parseSweepShard("env", 0, envOf({{"JOB_COMPLETION_INDEX", "1"}})))
                  .find("--shard-count"),
              std::string::npos);
    EXPECT_NE(shardText(parseSweepShard("env", 4, envOf({{"JOB_COMPLETION_INDEX", "4"}})))
                  .find("K must be in 1..N"),
              std::string::npos); // index 4 of 4 completions does not exist
    EXPECT_NE(shardText(parseSweepShard("env", 0, envOf({}))).find("JOB_COMPLETION_INDEX"),
              std::string::npos);
}

TEST(SweepShards, RangeChecksSixtyFourBitValuesBeforeNarrowingThem) {
    // 4294967297 is 2^32 + 1: cut to 32 bits it would run as shard 1.
    EXPECT_NE(shardText(parseSweepShard("4294967297/2", 0, envOf({}))).find("K must be in 1..N"),
              std::string::npos);
    EXPECT_NE(shardText(parseSweepShard("1/4294967297", 0, envOf({}))).find("N in 1..100000"),
              std::string::npos);
    const std::string slurm =
        shardText(parseSweepShard("env", 0,
                                  envOf({{"SLURM_ARRAY_TASK_ID", "4294967296"},
                                         {"SLURM_ARRAY_TASK_MIN", "0"},
                                         {"SLURM_ARRAY_TASK_COUNT", "2"}})));
    EXPECT_NE(slurm.find("--shard 4294967297/2: K must be"), std::string::npos) << slurm;
    const std::string huge = shardText(parseSweepShard(
        "env", 0,
        envOf({{"JOB_COMPLETION_INDEX", "9223372036854775807"}, {"SNOWCAP_SHARD_COUNT", "2"}})));
    EXPECT_NE(huge.find("out of range"), std::string::npos) << huge;
}

SweepPlan decayPlan(std::vector<std::string> values) {
    SweepRequest request;
    request.scenario = "press_release";
    request.axes = {{"sim.b.decay", std::move(values)}};
    request.atS = {0.5};
    auto planned = planSweep(request);
    EXPECT_TRUE(std::holds_alternative<SweepPlan>(planned)) << std::get<std::string>(planned);
    return std::get<SweepPlan>(std::move(planned));
}

std::string readText(const fs::path& path) {
    std::ifstream file(path);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

TEST(SweepPlanFile, RoundTripsAndRefusesAPlanThatResolvesDifferently) {
    const fs::path dir = testing::TempDir() + "/sweep_plan_file";
    fs::remove_all(dir);
    const SweepPlan plan = decayPlan({"0.9", "0.95", "0.99"});
    SweepRunOptions run;
    run.tileWidth = 96;
    run.tileHeight = 64;
    ASSERT_FALSE(writeSweepPlanFile(dir, plan, run, "height", {"9.9.9", "abc"}));
    auto read = readSweepPlanFile(dir);
    ASSERT_TRUE(std::holds_alternative<SweepPlanFile>(read)) << std::get<std::string>(read);
    const SweepPlanFile& file = std::get<SweepPlanFile>(read);
    EXPECT_EQ(file.build.text(), "9.9.9 (abc)");
    EXPECT_EQ(file.id.size(), 16u);
    EXPECT_EQ(file.stage, "height");
    EXPECT_EQ(file.tileWidth, 96);
    EXPECT_EQ(file.request.axes.at(0).values, plan.request.axes.at(0).values);
    auto again = replanSweep(file);
    ASSERT_TRUE(std::holds_alternative<SweepPlan>(again)) << std::get<std::string>(again);
    EXPECT_EQ(std::get<SweepPlan>(again).batches.size(), plan.batches.size());

    // The same request planned twice is the same plan (the same id); another is another.
    const fs::path twin = dir.string() + "_twin";
    ASSERT_FALSE(writeSweepPlanFile(twin, plan, run, "height", {"9.9.9", "abc"}));
    EXPECT_EQ(std::get<SweepPlanFile>(readSweepPlanFile(twin)).id, file.id);
    ASSERT_FALSE(
        writeSweepPlanFile(twin, decayPlan({"0.9", "0.95"}), run, "height", {"9.9.9", "abc"}));
    EXPECT_NE(std::get<SweepPlanFile>(readSweepPlanFile(twin)).id, file.id);

    // A node whose scenario resolves to another value is refused, naming the key.
    SweepPlanFile edited = file;
    edited.settings[1]["snow"]["depth_cm"] = 12345.0;
    auto refused = replanSweep(edited);
    ASSERT_TRUE(std::holds_alternative<std::string>(refused));
    const std::string& message = std::get<std::string>(refused);
    EXPECT_NE(message.find("combination 1"), std::string::npos) << message;
    EXPECT_NE(message.find("snow.depth_cm"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);

    EXPECT_NE(std::get<std::string>(readSweepPlanFile(dir / "nowhere")).find("cannot open"),
              std::string::npos);
}

// The plan goes through a temporary named for this host and process; a link planted under
// that name (or a stale file of an earlier run) is removed, never written through.
TEST(SweepPlanFile, ALinkPlantedUnderTheTemporarysNameIsNotFollowed) {
    const fs::path dir = testing::TempDir() + "/sweep_plan_planted";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path victim = dir.string() + "_victim";
    std::ofstream(victim) << "keep me\n";
    const fs::path temp =
        dir / (".plan.json.tmp-" + sweepHostName() + "-" + std::to_string(getpid()));
    fs::create_symlink(victim, temp);
    ASSERT_FALSE(writeSweepPlanFile(dir, decayPlan({"0.9", "0.95"}), {}, "lit", {"1", "c"}));
    std::ifstream kept(victim);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(kept), {}), "keep me\n");
    EXPECT_FALSE(fs::exists(fs::symlink_status(temp)));
    EXPECT_TRUE(std::holds_alternative<SweepPlanFile>(readSweepPlanFile(dir)));

    // A directory there cannot be removed: one line naming it, and no plan.
    const fs::path other = dir.string() + "_blocked";
    fs::remove_all(other);
    fs::create_directories(other / temp.filename() / "inside");
    const auto refused = writeSweepPlanFile(other, decayPlan({"0.9"}), {}, "lit", {"1", "c"});
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->find((other / temp.filename()).string() + ": cannot create"),
              std::string::npos)
        << *refused;
    EXPECT_FALSE(fs::exists(other / "plan.json"));
}

TEST(SweepShards, TheMergeNamesEveryMissingOrMismatchedShardInOneLine) {
    const fs::path dir = testing::TempDir() + "/sweep_gather";
    fs::remove_all(dir);
    // Nine decays: two fields (eight and one), split in four shards (two of them empty).
    const SweepPlan plan =
        decayPlan({"0.9", "0.91", "0.92", "0.93", "0.94", "0.95", "0.96", "0.97", "0.98"});
    ASSERT_EQ(plan.batches.size(), 2u);
    ASSERT_FALSE(writeSweepPlanFile(dir, plan, {}, "lit", {"1.0", "c0ffee"}));
    const SweepPlanFile file = std::get<SweepPlanFile>(readSweepPlanFile(dir));
    const auto gather = [&] {
        auto gathered = gatherSweepShards(dir, file, plan);
        return std::holds_alternative<std::string>(gathered) ? std::get<std::string>(gathered)
                                                             : std::string("merged");
    };
    EXPECT_NE(gather().find("no shards"), std::string::npos) << gather();

    const auto record = [&](int k, int n) {
        SweepShardRecord r;
        r.shard = {k, n};
        r.planId = file.id;
        r.build = file.build;
        r.batches = shardBatches(static_cast<int>(plan.batches.size()), r.shard);
        fs::create_directories(shardDirectory(dir, k));
        return r;
    };
    // Shards 3 and 4 of 4 are empty; 3 is complete, 4 is from another plan, 2 is of another
    // build, 1 is missing, and a killed run's partial directory is not a shard.
    ASSERT_FALSE(writeShardRecord(shardDirectory(dir, 3), record(3, 4)));
    SweepShardRecord other = record(4, 4);
    other.planId = "0000000000000000";
    ASSERT_FALSE(writeShardRecord(shardDirectory(dir, 4), other));
    SweepShardRecord older = record(2, 4);
    older.build.commit = "deadbeef";
    ASSERT_FALSE(writeShardRecord(shardDirectory(dir, 2), older));
    fs::create_directories(dir / "shards" / ".1.partial-host-123");
    ASSERT_FALSE(writeShardRecord(dir / "shards" / ".1.partial-host-123", record(1, 4)));
    fs::remove_all(shardDirectory(dir, 1));

    const std::string message = gather();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_NE(message.find("missing shard 1/4"), std::string::npos) << message;
    EXPECT_NE(message.find("shard 2 was run by snowcap 1.0 (deadbeef)"), std::string::npos)
        << message;
    EXPECT_NE(message.find("shard 4 is from another plan"), std::string::npos) << message;
    EXPECT_EQ(message.find("shard 3 "), std::string::npos) << message;
    EXPECT_NE(message.find("nothing written"), std::string::npos) << message;
    // Shard 3/4 of this plan is there: a shard of another split is refused before it runs.
    const auto refused = otherSplit(dir, {1, 1}, file);
    ASSERT_TRUE(refused.has_value());
    EXPECT_NE(refused->find("split 4 ways"), std::string::npos) << *refused;
    EXPECT_FALSE(otherSplit(dir, {1, 4}, file).has_value());
    EXPECT_TRUE(shardComplete(dir, {3, 4}, file));
    EXPECT_FALSE(shardComplete(dir, {3, 5}, file)); // of another split
    EXPECT_FALSE(shardComplete(dir, {4, 4}, file));
    EXPECT_FALSE(shardComplete(dir, {1, 4}, file));
}

} // namespace
} // namespace snowcap
