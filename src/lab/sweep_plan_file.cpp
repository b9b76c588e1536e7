#include "lab/sweep_plan_file.hpp"

#include "core/params.hpp"
#include "core/untrusted_file.hpp"
#include "lab/json_file.hpp"
#include "lab/run_outputs.hpp"
#include "lab/sweep_shards.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <iterator>
#include <limits>
#include <unistd.h>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "snowcap-sweep-plan";
constexpr int kFormatVersion = 1;
// A plan holds every combination's resolved settings (about 20 KB each); the most
// combinations a sweep plans (kMaxSweepCombinations) fit well within this.
constexpr std::uint64_t kMaxPlanBytes = 64ull << 20;

bool surfaceOutputKnown(const std::string& stage) {
    return stage == "lit" || stage == "persistent" || stage == "mask" || stage == "height" ||
           stage == "normal";
}

nlohmann::json settingsJson(const Settings& settings) {
    return tomlToJson(params::toToml(settings));
}

// FNV-1a, 64 bits: not a cryptographic hash, only a name that two different plan files get
// with a chance of 2^-64, so shards of another plan are told apart from this one's.
std::string fnv1a64(const std::string& bytes) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (unsigned char c : bytes) {
        hash ^= c;
        hash *= 0x100000001b3ull;
    }
    return fmt::format("{:016x}", hash);
}

// The first place two resolved settings differ, as "key 'snow.resolution': plan 512, here 256".
std::optional<std::string> firstDifference(const nlohmann::json& plan, const nlohmann::json& here,
                                           const std::string& key) {
    const auto named = [&](const std::string& part) {
        return key.empty() ? part : key + "." + part;
    };
    if (plan.is_object() && here.is_object()) {
        for (const auto& [name, value] : plan.items()) {
            if (!here.contains(name))
                return fmt::format("key '{}': in the plan, not here", named(name));
            if (auto d = firstDifference(value, here.at(name), named(name)))
                return d;
        }
        for (const auto& [name, value] : here.items())
            if (!plan.contains(name))
                return fmt::format("key '{}': here, not in the plan", named(name));
        return std::nullopt;
    }
    if (plan.is_array() && here.is_array() && plan.size() == here.size()) {
        for (std::size_t i = 0; i < plan.size(); ++i)
            if (auto d = firstDifference(plan[i], here[i], fmt::format("{}[{}]", key, i)))
                return d;
        return std::nullopt;
    }
    if (plan == here)
        return std::nullopt;
    return fmt::format("key '{}': plan {}, here {}", key, plan.dump(), here.dump());
}

// Writes `text` into `temp`, a file this call creates: O_EXCL never opens a name already
// there, so a link planted under the temporary's name is not followed to what it points at
// (O_NOFOLLOW says the same of the last component). Something left there (an earlier run's
// temporary after a crash, or such a link) is unlinked once, which removes the link and not
// its target, and the create tried again. On disk (fsync) before the caller renames it.
std::optional<std::string> writeNewFile(const fs::path& temp, const std::string& text) {
    constexpr int kFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = ::open(temp.c_str(), kFlags, 0644);
    if (fd < 0 && errno == EEXIST && ::unlink(temp.c_str()) == 0)
        fd = ::open(temp.c_str(), kFlags, 0644);
    if (fd < 0)
        return fmt::format("{}: cannot create ({})", temp.string(), std::strerror(errno));
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        written += std::size_t(n);
    }
    const int writeErrno = errno;
    const bool synced = written == text.size() && ::fsync(fd) == 0;
    if (::close(fd) != 0 || !synced) {
        const int reason = written < text.size() ? writeErrno : errno;
        ::unlink(temp.c_str());
        return fmt::format("{}: cannot write ({})", temp.string(), std::strerror(reason));
    }
    return std::nullopt;
}

} // namespace

SweepRunOptions sweepRunOptions(const SweepPlanFile& file) {
    SweepRunOptions run;
    run.tileWidth = file.tileWidth;
    run.tileHeight = file.tileHeight;
    run.stage = surfaceOutputNamed(file.stage);
    return run;
}

std::optional<std::string> writeSweepPlanFile(const fs::path& dir, const SweepPlan& plan,
                                              const SweepRunOptions& run, const std::string& stage,
                                              const SweepBuild& build) {
    const SweepRequest& request = plan.request;
    nlohmann::json axes = nlohmann::json::array();
    for (const SweepAxis& axis : request.axes)
        axes.push_back({{"key", axis.key}, {"values", axis.values}});
    nlohmann::json batches = nlohmann::json::array();
    for (std::size_t b = 0; b < plan.batches.size(); ++b)
        batches.push_back({{"batch", b},
                           {"combinations", plan.batches[b].combinations},
                           {"slots", plan.batches[b].slots}});
    nlohmann::json combinations = nlohmann::json::array();
    for (const SweepCombination& c : plan.combinations)
        combinations.push_back({{"index", c.index},
                                {"values", c.values},
                                {"overrides", c.overrides},
                                {"label", plan.label(c.index)},
                                {"settings", settingsJson(c.settings)}});
    const nlohmann::json out = {{"format", kFormat},
                                {"format_version", kFormatVersion},
                                {"snowcap", {{"version", build.version}, {"commit", build.commit}}},
                                {"request",
                                 {{"scenario", request.scenario},
                                  {"overrides", request.overrides},
                                  {"vary", axes},
                                  {"at_s", request.atS},
                                  {"frames", request.frames},
                                  {"sim", request.sim},
                                  {"tile", {run.tileWidth, run.tileHeight}},
                                  {"stage", stage}}},
                                {"measured_sim", std::string(1, char('a' + plan.measuredSim))},
                                {"packed", plan.packed},
                                {"field_capacity", sweepFieldCapacity()},
                                {"frames", plan.combinations.front().settings.run.frames},
                                {"batches", batches},
                                {"combinations", combinations}};
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        return fmt::format("{}: cannot create the plan directory ({})", dir.string(), ec.message());
    const std::string text = out.dump(2) + "\n";
    // Many processes may plan the same sweep at once (every pod of a Kubernetes Indexed Job
    // does, docs/cluster.md): the same request gives the same bytes, so a plan already there
    // is left as it is, and a new one goes through a temporary named for this host and process
    // (containers on a shared volume often share a pid), renamed into place.
    const fs::path path = dir / kSweepPlanName;
    if (auto refused = checkReplaceable(path))
        return refused;
    if (std::string existing; !readUntrustedText(path, existing, kMaxPlanBytes) && existing == text)
        return std::nullopt;
    const fs::path temp = dir / fmt::format(".{}.tmp-{}-{}", kSweepPlanName, sweepHostName(),
                                            static_cast<long>(getpid()));
    if (auto error = writeNewFile(temp, text))
        return error;
    fs::rename(temp, path, ec);
    if (ec) {
        const std::string reason = ec.message();
        fs::remove(temp, ec);
        return fmt::format("{}: cannot rename into place ({})", path.string(), reason);
    }
    return std::nullopt;
}

std::variant<SweepPlanFile, std::string> readSweepPlanFile(const fs::path& dir) {
    const fs::path path = dir / kSweepPlanName;
    std::string bytes;
    if (auto error = readUntrustedText(path, bytes, kMaxPlanBytes)) {
        std::error_code ec;
        if (!fs::exists(fs::symlink_status(path, ec)))
            return fmt::format("{}: cannot open (plan it first with `snowcap sweep ... --plan {}`)",
                               path.string(), dir.string());
        return *error;
    }
    const nlohmann::json in = nlohmann::json::parse(bytes, nullptr, false);
    if (in.is_discarded() || !in.is_object() || in.value("format", "") != kFormat)
        return fmt::format("{}: not a snowcap sweep plan", path.string());
    if (!in.contains("format_version") || in["format_version"] != kFormatVersion)
        return fmt::format("{}: plan format {}, this snowcap reads {}", path.string(),
                           clipForMessage(in.value("format_version", nlohmann::json()).dump(), 40),
                           kFormatVersion);
    SweepPlanFile file;
    file.id = fnv1a64(bytes);
    // Every field of the request within the bounds the command line puts on it, before
    // anything is planned, allocated or drawn (a shard runs what the file says).
    std::string problem;
    const auto check = [&](auto&& value, auto&& into) {
        if (!problem.empty())
            return;
        if (auto* error = std::get_if<std::string>(&value))
            problem = *error;
        else
            into = static_cast<std::remove_reference_t<decltype(into)>>(std::get<0>(value));
    };
    try {
        file.build.version = in.at("snowcap").at("version").get<std::string>();
        file.build.commit = in.at("snowcap").at("commit").get<std::string>();
        const nlohmann::json& r = in.at("request");
        file.request.scenario = r.at("scenario").get<std::string>();
        file.request.overrides = r.at("overrides").get<std::vector<std::string>>();
        for (const nlohmann::json& axis : r.at("vary"))
            file.request.axes.push_back({axis.at("key").get<std::string>(),
                                         axis.at("values").get<std::vector<std::string>>()});
        const nlohmann::json& at = r.at("at_s");
        if (!at.is_array() || at.empty() || at.size() > kMaxSweepTimes)
            problem = fmt::format("'at_s' holds {} times, not 1..{}", at.is_array() ? at.size() : 0,
                                  kMaxSweepTimes);
        for (std::size_t t = 0; problem.empty() && t < at.size(); ++t)
            check(jsonReal(at[t], "at_s", 1e-9, kMaxSweepSeconds), file.request.atS.emplace_back());
        check(jsonInteger(r.at("frames"), "frames", 0, std::numeric_limits<int>::max()),
              file.request.frames);
        file.request.sim = r.at("sim").get<std::string>();
        const nlohmann::json& tile = r.at("tile");
        if (problem.empty() && (!tile.is_array() || tile.size() != 2))
            problem = "'tile' is not [width, height]";
        if (problem.empty()) {
            check(jsonInteger(tile[0], "tile", kMinSweepTile, kMaxSweepTile), file.tileWidth);
            check(jsonInteger(tile[1], "tile", kMinSweepTile, kMaxSweepTile), file.tileHeight);
        }
        file.stage = r.at("stage").get<std::string>();
        if (problem.empty() && !surfaceOutputKnown(file.stage))
            problem = fmt::format("'stage' is '{}', not lit, persistent, mask, height or normal",
                                  clipForMessage(file.stage, 40));
        const nlohmann::json& combinations = in.at("combinations");
        if (!combinations.is_array())
            problem = "'combinations' is not a list";
        for (const nlohmann::json& c : combinations)
            file.settings.push_back(c.at("settings"));
    } catch (const nlohmann::json::exception& e) {
        return fmt::format("{}: {}", path.string(), e.what());
    }
    if (!problem.empty())
        return fmt::format("{}: {}", path.string(), problem);
    return file;
}

std::variant<SweepPlan, std::string> replanSweep(const SweepPlanFile& file) {
    auto planned = planSweep(file.request);
    if (auto* error = std::get_if<std::string>(&planned))
        return fmt::format("{}: {}", kSweepPlanName, *error);
    SweepPlan& plan = std::get<SweepPlan>(planned);
    if (plan.combinations.size() != file.settings.size())
        return fmt::format("{}: {} combinations recorded, the request makes {} here",
                           kSweepPlanName, file.settings.size(), plan.combinations.size());
    for (const SweepCombination& c : plan.combinations)
        if (auto d = firstDifference(file.settings[c.index], settingsJson(c.settings), ""))
            return fmt::format("{}: combination {} resolves differently here ({}): the scenario, "
                               "config or assets differ from where it was planned",
                               kSweepPlanName, c.index, *d);
    return std::move(plan);
}

} // namespace snowcap
