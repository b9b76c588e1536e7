#include "lab/sweep_shards.hpp"

#include "io/image.hpp"
#include "lab/json_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unistd.h>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

constexpr const char* kRecordName = "shard.json";
constexpr std::uint64_t kMaxRecordBytes = 16ull << 20; // a list of batch numbers and names
constexpr long long kMaxShards = 100000;

std::optional<long long> integer(const std::string& text) {
    long long value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty())
        return std::nullopt;
    return value;
}

std::string joined(const std::vector<std::string>& parts, const char* separator) {
    std::string text;
    for (const std::string& part : parts)
        text += (text.empty() ? "" : separator) + part;
    return text;
}

// K and N checked while they are still 64-bit: 4294967297 is refused, not taken as 1.
std::variant<SweepShard, std::string> checkedShard(long long k, long long n) {
    if (n < 1 || n > kMaxShards || k < 1 || k > n)
        return fmt::format("--shard {}/{}: K must be in 1..N and N in 1..{}", k, n, kMaxShards);
    return SweepShard{static_cast<int>(k), static_cast<int>(n)};
}

std::variant<SweepShard, std::string> shardFromEnv(int countFlag, const EnvLookup& env) {
    const auto number = [&](const char* name) -> std::variant<long long, std::string> {
        const std::optional<std::string> value = env(name);
        const std::optional<long long> parsed = value ? integer(*value) : std::nullopt;
        if (!parsed)
            return fmt::format("--shard env: {}='{}' is not a whole number", name,
                               clipForMessage(*value, 40));
        if (*parsed < 0 || *parsed > (1ll << 53)) // no sum or difference of two can overflow
            return fmt::format("--shard env: {}={} is out of range", name, *parsed);
        return *parsed;
    };
    if (env("SLURM_ARRAY_TASK_ID")) {
        long long v[4] = {0, 0, 0, 1};
        const char* names[4] = {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN",
                                "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP"};
        for (int i = 0; i < 4; ++i) {
            if (!env(names[i])) {
                if (i == 3)
                    continue; // older Slurm: a step of 1
                return fmt::format("--shard env: SLURM_ARRAY_TASK_ID is set but {} is not",
                                   names[i]);
            }
            auto n = number(names[i]);
            if (auto* error = std::get_if<std::string>(&n))
                return *error;
            v[i] = std::get<long long>(n);
        }
        if (v[3] < 1 || v[0] < v[1] || (v[0] - v[1]) % v[3] != 0)
            return fmt::format("--shard env: task {} is not in the array {}..:{}", v[0], v[1],
                               v[3]);
        return checkedShard((v[0] - v[1]) / v[3] + 1, v[2]);
    }
    if (env("JOB_COMPLETION_INDEX")) {
        auto index = number("JOB_COMPLETION_INDEX");
        if (auto* error = std::get_if<std::string>(&index))
            return *error;
        long long count = countFlag;
        if (count <= 0) {
            if (!env("SNOWCAP_SHARD_COUNT"))
                return std::string("--shard env: JOB_COMPLETION_INDEX is set but not the count: "
                                   "give --shard-count N or SNOWCAP_SHARD_COUNT (the Job's "
                                   "completions)");
            auto n = number("SNOWCAP_SHARD_COUNT");
            if (auto* error = std::get_if<std::string>(&n))
                return *error;
            count = std::get<long long>(n);
        }
        const long long k = std::get<long long>(index);
        return checkedShard(k < std::numeric_limits<long long>::max() ? k + 1 : k, count);
    }
    return std::string("--shard env: neither SLURM_ARRAY_TASK_ID (a Slurm array job) nor "
                       "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set");
}

nlohmann::json buildJson(const SweepBuild& build) {
    return {{"version", build.version}, {"commit", build.commit}};
}

} // namespace

std::string sweepHostName() {
    char name[256] = {};
    if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == 0)
        return "host";
    return name;
}

std::variant<SweepShard, std::string> parseSweepShard(const std::string& text, int countFlag,
                                                      const EnvLookup& env) {
    std::variant<SweepShard, std::string> parsed;
    if (text == "env") {
        parsed = shardFromEnv(countFlag, env);
    } else {
        const auto slash = text.find('/');
        const auto k = integer(text.substr(0, slash));
        const auto n = slash == std::string::npos ? std::nullopt : integer(text.substr(slash + 1));
        if (!k || !n)
            return fmt::format("--shard '{}': expected K/N (shard K of N, 1 first) or env", text);
        parsed = checkedShard(*k, *n);
    }
    return parsed;
}

std::vector<int> shardBatches(int batchCount, const SweepShard& shard) {
    std::vector<int> batches;
    for (int b = shard.index - 1; b < batchCount; b += shard.count)
        batches.push_back(b);
    return batches;
}

fs::path shardDirectory(const fs::path& planDir, int index) {
    return planDir / "shards" / std::to_string(index);
}

fs::path shardStagingDirectory(const fs::path& planDir, int index) {
    return planDir / "shards" /
           fmt::format(".{}.partial-{}-{}", index, sweepHostName(), static_cast<long>(getpid()));
}

fs::path sweepBatchFile(const fs::path& dir, int batch) {
    return dir / fmt::format("batch_{}.json", batch);
}

std::optional<std::string> writeShardRecord(const fs::path& dir, const SweepShardRecord& r) {
    const nlohmann::json out = {
        {"shard", r.shard.index},        {"shards", r.shard.count},     {"plan_id", r.planId},
        {"snowcap", buildJson(r.build)}, {"batches", r.batches},        {"jobs", r.jobs},
        {"wall_seconds", r.wallSeconds}, {"gl_renderer", r.glRenderer}, {"host", r.host}};
    const std::string text = out.dump(2) + "\n";
    return writeFileAtomically(dir / kRecordName,
                               std::vector<std::uint8_t>(text.begin(), text.end()));
}

std::variant<SweepShardRecord, std::string> readShardRecord(const fs::path& dir) {
    const fs::path path = dir / kRecordName;
    auto read = readUntrustedJson(path, kMaxRecordBytes);
    if (auto* error = std::get_if<std::string>(&read))
        return *error;
    const nlohmann::json& in = std::get<nlohmann::json>(read);
    if (!in.is_object())
        return fmt::format("{}: not a shard record", path.string());
    SweepShardRecord r;
    std::string problem;
    const auto integer = [&](const char* name, long long lo, long long hi) -> long long {
        if (!problem.empty())
            return lo;
        auto n = in.contains(name)
                     ? jsonInteger(in.at(name), name, lo, hi)
                     : std::variant<long long, std::string>(fmt::format("no '{}'", name));
        if (auto* error = std::get_if<std::string>(&n))
            return problem = *error, lo;
        return std::get<long long>(n);
    };
    r.shard = {static_cast<int>(integer("shard", 1, kMaxShards)),
               static_cast<int>(integer("shards", 1, kMaxShards))};
    r.jobs = static_cast<int>(integer("jobs", 1, 64));
    if (!problem.empty())
        return fmt::format("{}: {}", path.string(), problem);
    try {
        r.planId = in.at("plan_id").get<std::string>();
        r.build = {in.at("snowcap").at("version").get<std::string>(),
                   in.at("snowcap").at("commit").get<std::string>()};
        for (const nlohmann::json& b : in.at("batches")) {
            auto n = jsonInteger(b, "batches", 0, std::numeric_limits<int>::max());
            if (auto* error = std::get_if<std::string>(&n))
                return fmt::format("{}: {}", path.string(), *error);
            r.batches.push_back(static_cast<int>(std::get<long long>(n)));
        }
        r.wallSeconds = in.at("wall_seconds").get<double>();
        r.glRenderer = in.at("gl_renderer").get<std::string>();
        r.host = in.at("host").get<std::string>();
    } catch (const nlohmann::json::exception& e) {
        return fmt::format("{}: {}", path.string(), e.what());
    }
    return r;
}

bool shardComplete(const fs::path& planDir, const SweepShard& shard, const SweepPlanFile& file) {
    auto record = readShardRecord(shardDirectory(planDir, shard.index));
    const auto* r = std::get_if<SweepShardRecord>(&record);
    return r && r->planId == file.id && r->build == file.build && r->shard.index == shard.index &&
           r->shard.count == shard.count;
}

std::optional<std::string> otherSplit(const fs::path& planDir, const SweepShard& shard,
                                      const SweepPlanFile& file) {
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(planDir / "shards", ec)) {
        if (!integer(entry.path().filename().string()))
            continue;
        auto record = readShardRecord(entry.path());
        const auto* r = std::get_if<SweepShardRecord>(&record);
        if (r && r->planId == file.id && r->shard.count != shard.count)
            return fmt::format("--shard {}: {} holds shard {} of this plan split {} ways; run "
                               "--shard K/{} (remove {} to split it another way)",
                               shard.text(), (planDir / "shards").string(), r->shard.text(),
                               r->shard.count, r->shard.count, (planDir / "shards").string());
    }
    return std::nullopt;
}

std::variant<bool, std::string> publishShard(const fs::path& planDir, const fs::path& staging,
                                             const SweepShard& shard, const SweepPlanFile& file) {
    const fs::path final = shardDirectory(planDir, shard.index);
    std::error_code ec;
    if (shardComplete(planDir, shard, file)) {
        fs::remove_all(staging, ec);
        return false;
    }
    fs::remove_all(final, ec); // another plan's or split's shard K (or none)
    fs::rename(staging, final, ec);
    if (ec) {
        if (shardComplete(planDir, shard, file)) { // a duplicate run renamed first
            fs::remove_all(staging, ec);
            return false;
        }
        return fmt::format("{}: cannot rename to {} ({})", staging.string(), final.string(),
                           ec.message());
    }
    // What killed runs of this shard on this host left behind: never another shard's, nor a
    // run still alive (a duplicate), nor another host's (its processes cannot be asked; the
    // merge ignores partial directories anyway).
    const std::string prefix = fmt::format(".{}.partial-{}-", shard.index, sweepHostName());
    for (const fs::directory_entry& entry : fs::directory_iterator(planDir / "shards", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0)
            continue;
        const auto pid = integer(name.substr(prefix.size()));
        if (pid && *pid > 0 && (kill(static_cast<pid_t>(*pid), 0) == 0 || errno == EPERM))
            continue; // still running
        fs::remove_all(entry.path(), ec);
    }
    return true;
}

std::variant<SweepShards, std::string>
gatherSweepShards(const fs::path& planDir, const SweepPlanFile& file, const SweepPlan& plan) {
    const fs::path shardsDir = planDir / "shards";
    const std::string where = fmt::format("sweep --merge {}", planDir.string());
    std::vector<std::pair<int, SweepShardRecord>> found;
    std::vector<std::string> problems;
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(shardsDir, ec)) {
        const std::string name = entry.path().filename().string();
        const auto index = integer(name);
        if (!index || !entry.is_directory())
            continue; // partial directories (".K.partial-...") and anything else
        if (*index < 1 || *index > kMaxShards) {
            problems.push_back(
                fmt::format("{} is no shard number (1..{})", clipForMessage(name, 40), kMaxShards));
            continue;
        }
        auto record = readShardRecord(entry.path());
        if (auto* error = std::get_if<std::string>(&record)) {
            problems.push_back(fmt::format("shard {} unreadable ({})", name, *error));
            continue;
        }
        found.emplace_back(static_cast<int>(*index), std::get<SweepShardRecord>(record));
    }
    if (found.empty() && problems.empty())
        return fmt::format("{}: no shards in {} (run `snowcap sweep --plan {} --shard K/N`); "
                           "nothing written",
                           where, shardsDir.string(), planDir.string());
    if (found.empty()) // nothing readable: say what is wrong with each
        return fmt::format("{}: {}; nothing written", where, joined(problems, "; "));
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });

    // The split: the count most shards of this plan name.
    std::map<int, int> votes;
    for (const auto& [index, r] : found)
        if (r.planId == file.id)
            ++votes[r.shard.count];
    int count = 0, most = 0;
    for (const auto& [n, v] : votes)
        if (v > most)
            count = n, most = v;
    if (count == 0)
        count = found.front().second.shard.count;

    std::set<int> present;
    for (const auto& [index, r] : found) {
        const std::string name = fmt::format("shard {}", index);
        if (r.planId != file.id)
            problems.push_back(fmt::format("{} is from another plan ({}, this plan is {})", name,
                                           clipForMessage(r.planId, 40), file.id));
        else if (r.build != file.build)
            problems.push_back(fmt::format("{} was run by snowcap {}, the plan made by {}", name,
                                           r.build.text(), file.build.text()));
        else if (r.shard.count != count || r.shard.index != index)
            problems.push_back(fmt::format("{} is shard {} of another split (this one is of {})",
                                           name, r.shard.text(), count));
        else if (r.batches != shardBatches(static_cast<int>(plan.batches.size()), r.shard))
            problems.push_back(fmt::format("{} holds other batches than its share", name));
        else
            present.insert(index);
    }
    std::vector<std::string> missing;
    for (int k = 1; k <= count; ++k)
        if (!present.count(k) &&
            std::none_of(found.begin(), found.end(), [&](const auto& f) { return f.first == k; }))
            missing.push_back(fmt::format("{}/{}", k, count));
    if (!missing.empty())
        problems.insert(problems.begin(),
                        fmt::format("missing shard{} {}", missing.size() == 1 ? "" : "s",
                                    joined(missing, ", ")));
    if (!problems.empty())
        return fmt::format("{}: {}; nothing written", where, joined(problems, "; "));

    SweepShards out;
    for (const auto& [index, r] : found) {
        for (int b : r.batches) {
            auto loaded = loadSweepResults(sweepBatchFile(shardDirectory(planDir, index), b),
                                           sweepResultShape(plan, b, sweepRunOptions(file)));
            if (auto* error = std::get_if<std::string>(&loaded))
                return fmt::format("{}: shard {}: {}; nothing written", where, r.shard.text(),
                                   *error);
            for (SweepResult& result : std::get<0>(loaded))
                out.results.push_back(std::move(result));
        }
        out.shards.push_back(r);
    }
    for (const SweepResult& result : out.results)
        if (result.probeNames != out.results.front().probeNames)
            return fmt::format("{}: combination {} names other probes than combination {}; "
                               "nothing written",
                               where, result.combination, out.results.front().combination);
    std::vector<int> seen(plan.combinations.size(), 0);
    for (const SweepResult& result : out.results)
        if (result.combination >= 0 && result.combination < static_cast<int>(seen.size()))
            ++seen[result.combination];
    for (std::size_t c = 0; c < seen.size(); ++c)
        if (seen[c] != 1)
            return fmt::format("{}: combination {} is in {} shard results, not one; nothing "
                               "written",
                               where, c, seen[c]);
    return out;
}

} // namespace snowcap
