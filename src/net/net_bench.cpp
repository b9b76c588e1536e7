#include "net/net_bench.hpp"

#include "core/config.hpp"
#include "io/image.hpp"
#include "net/net_run.hpp"
#include "net/sync.hpp"

#include <chrono>
#include <fstream>
#include <spdlog/spdlog.h>

namespace snowcap::net {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// N spheres in a grid walking diagonally across a 256^2 buffer of 10.24 m, pressing 10 cm deep.
std::string crowdScenario(int count, int frames) {
    return fmt::format(R"([run]
fps = 60
frames = {}

[snow]
resolution = 256
ortho_width_cm = 1024

[[crowd]]
name = "walkers"
shape = "sphere"
size_cm = [12, 12, 12]
count = {}
formation = "grid"
spacing_cm = 28
path_kind = "polyline"
waypoints_cm = [[-300, -300, 2], [300, 300, 2]]
speed_cm_s = 150
)",
                       frames, count);
}

// One press, then still: the snapshot of a trail at each buffer side.
std::string joinScenario(int size) {
    return fmt::format(R"([run]
fps = 60
frames = 30

[snow]
resolution = {}
ortho_width_cm = 1024

[[deformer]]
name = "walker"
shape = "sphere"
size_cm = [30, 30, 30]
path_kind = "polyline"
waypoints_cm = [[-400, 0, 10], [400, 0, 10]]
speed_cm_s = 600
)",
                       size);
}

std::variant<Settings, std::string> settingsFrom(const std::string& text, const std::string& name,
                                                 const std::vector<std::string>& overrides,
                                                 fs::path& file) {
    file = fs::temp_directory_path() / ("snowcap_net_bench_" + name + ".toml");
    std::ofstream(file) << text;
    auto loaded = loadScenarioSettings(file.string(), overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded))
        return error->message;
    return std::get<Settings>(loaded);
}

struct ModeCase {
    const char* name;
    NetMode mode;
    WorldCompression compress;
};

constexpr ModeCase kModes[] = {{"inputs", NetMode::Inputs, WorldCompression::Zstd},
                               {"state", NetMode::State, WorldCompression::Zstd},
                               {"state_lz4", NetMode::State, WorldCompression::Lz4},
                               {"hybrid", NetMode::Hybrid, WorldCompression::Zstd}};

// Bytes of one client's stream over `frames` steps, and whether it ended identical.
std::variant<nlohmann::json, std::string> measureMode(const Settings& base, const ModeCase& mode,
                                                      const std::string& scenario,
                                                      const std::string& glRenderer) {
    Settings settings = base;
    settings.net.mode = mode.mode;
    settings.net.compress = mode.compress;
    auto server = Lab::create(settings, scenario, {}, glRenderer);
    auto client = Lab::create(settings, scenario, {}, glRenderer);
    if (auto* error = std::get_if<std::string>(&server))
        return *error;
    if (auto* error = std::get_if<std::string>(&client))
        return *error;
    Lab& serverLab = *std::get<0>(server);
    Lab& clientLab = *std::get<0>(client);
    serverLab.setTiming(false);
    clientLab.setTiming(false);
    Authority authority(serverLab, settings.net);
    Replica replica(clientLab, settings.net);
    long long bytes = 0, packets = 0;
    auto deliver = [&](const Message& message) -> std::optional<std::string> {
        const std::vector<std::uint8_t> packet = encode(message);
        bytes += static_cast<long long>(packet.size());
        ++packets;
        auto decoded = decode(packet);
        if (auto* why = std::get_if<std::string>(&decoded))
            return *why;
        return replica.apply(std::get<Message>(decoded));
    };
    for (const Message& message : authority.snapshot(0))
        if (auto error = deliver(message))
            return *error;
    const long long snapshotBytes = bytes;
    bytes = packets = 0;
    const double dt = serverLab.fixedDtS();
    std::vector<TileRequest> requests;
    const auto start = Clock::now();
    for (int step = 1; step <= settings.run.frames; ++step) {
        serverLab.stepTo(step * dt, dt);
        for (const Message& message : authority.stepMessages(step))
            if (auto error = deliver(message))
                return *error;
        for (const TileRequest& request : requests)
            if (auto resend = authority.resend(step, request.sim, request.tiles))
                if (auto error = deliver(*resend))
                    return *error;
        requests.clear();
        if (auto error = deliver(authority.stepEnd(step)))
            return *error;
        for (const Message& request : replica.takeRequests())
            requests.push_back(std::get<TileRequest>(request.body));
    }
    const double wallMs = msSince(start);
    bool identical = true;
    for (int s = 0; s < serverLab.field().simCount(); ++s)
        identical = identical && readSimBuffer(serverLab.field().sim(s)).words ==
                                     readSimBuffer(clientLab.field().sim(s)).words;
    const double simulatedS = settings.run.frames * dt;
    return nlohmann::json{{"mode", mode.name},
                          {"deformers", serverLab.instances().size()},
                          {"steps", settings.run.frames},
                          {"bytes", bytes},
                          {"packets", packets},
                          {"bytes_per_s", bytes / simulatedS},
                          {"bytes_per_step", double(bytes) / settings.run.frames},
                          {"snapshot_bytes", snapshotBytes},
                          {"divergent_tiles", replica.counts().divergentTiles},
                          {"tiles_resent", replica.counts().tilesResent},
                          {"identical", identical},
                          {"wall_ms", wallMs}};
}

std::variant<nlohmann::json, std::string>
measureJoin(const Settings& settings, const std::string& scenario, const std::string& glRenderer) {
    auto server = Lab::create(settings, scenario, {}, glRenderer);
    auto client = Lab::create(settings, scenario, {}, glRenderer);
    if (auto* error = std::get_if<std::string>(&server))
        return *error;
    if (auto* error = std::get_if<std::string>(&client))
        return *error;
    Lab& serverLab = *std::get<0>(server);
    Lab& clientLab = *std::get<0>(client);
    serverLab.setTiming(false);
    clientLab.setTiming(false);
    const double dt = serverLab.fixedDtS();
    for (int step = 1; step <= settings.run.frames; ++step)
        serverLab.stepTo(step * dt, dt);
    Authority authority(serverLab, settings.net);
    Replica replica(clientLab, settings.net);
    auto start = Clock::now();
    std::vector<std::vector<std::uint8_t>> packets;
    long long bytes = 0;
    for (const Message& message : authority.snapshot(settings.run.frames)) {
        packets.push_back(encode(message));
        bytes += static_cast<long long>(packets.back().size());
    }
    const double makeMs = msSince(start);
    start = Clock::now();
    for (const auto& packet : packets)
        if (auto error = replica.apply(std::get<Message>(decode(packet))))
            return *error;
    glFinish(); // the uploads done, not queued
    const double applyMs = msSince(start);
    bool identical = true;
    for (int s = 0; s < serverLab.field().simCount(); ++s)
        identical = identical && readSimBuffer(serverLab.field().sim(s)).words ==
                                     readSimBuffer(clientLab.field().sim(s)).words;
    const long long raw =
        2ll * settings.snow.resolution * settings.snow.resolution * serverLab.field().simCount();
    return nlohmann::json{{"resolution", settings.snow.resolution},
                          {"sims", serverLab.field().simCount()},
                          {"buffer_bytes", raw},
                          {"snapshot_bytes", bytes},
                          {"make_ms", makeMs},
                          {"apply_ms", applyMs},
                          {"identical", identical}};
}

} // namespace

int runNetBench(const CommonOptions& common, const NetBenchOptions& options) {
    auto started = startRun(Settings{}, "decay_compare", {}, common.debugGl);
    if (auto* error = std::get_if<std::string>(&started)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const std::string renderer = std::get<NetRun>(started).gl.renderer;
    nlohmann::json crowds = nlohmann::json::array();
    for (int count : options.crowds) {
        fs::path file;
        auto settings = settingsFrom(crowdScenario(count, options.frames),
                                     "crowd" + std::to_string(count), common.overrides, file);
        if (auto* error = std::get_if<std::string>(&settings)) {
            spdlog::error("net-bench: {}", *error);
            return 2;
        }
        for (const ModeCase& mode : kModes) {
            auto measured =
                measureMode(std::get<Settings>(settings), mode, file.string(), renderer);
            if (auto* error = std::get_if<std::string>(&measured)) {
                spdlog::error("net-bench: {} x {}: {}", mode.name, count, *error);
                return 1;
            }
            nlohmann::json row = std::get<nlohmann::json>(measured);
            spdlog::info("net-bench: {:>9} {:>5} deformers: {:>12.0f} bytes/s per client "
                         "({:.0f} bytes a step){}",
                         mode.name, count, row["bytes_per_s"].get<double>(),
                         row["bytes_per_step"].get<double>(),
                         row["identical"].get<bool>() ? "" : "  NOT IDENTICAL");
            crowds.push_back(std::move(row));
        }
        fs::remove(file);
    }
    nlohmann::json joins = nlohmann::json::array();
    for (int size : options.sizes) {
        fs::path file;
        auto settings =
            settingsFrom(joinScenario(size), "join" + std::to_string(size), common.overrides, file);
        if (auto* error = std::get_if<std::string>(&settings)) {
            spdlog::error("net-bench: {}", *error);
            return 2;
        }
        auto measured = measureJoin(std::get<Settings>(settings), file.string(), renderer);
        fs::remove(file);
        if (auto* error = std::get_if<std::string>(&measured)) {
            spdlog::error("net-bench: late join at {}: {}", size, *error);
            return 1;
        }
        nlohmann::json row = std::get<nlohmann::json>(measured);
        spdlog::info("net-bench: late join at {}^2 x {} sims: {} of {} bytes, made in {:.1f} ms, "
                     "applied in {:.1f} ms{}",
                     size, row["sims"].get<int>(), row["snapshot_bytes"].get<long long>(),
                     row["buffer_bytes"].get<long long>(), row["make_ms"].get<double>(),
                     row["apply_ms"].get<double>(),
                     row["identical"].get<bool>() ? "" : "  NOT IDENTICAL");
        joins.push_back(std::move(row));
    }
    const nlohmann::json report = {{"renderer", renderer},
                                   {"frames", options.frames},
                                   {"crowds", crowds},
                                   {"late_join", joins}};
    if (!options.json.empty()) {
        const std::string text = report.dump(2) + "\n";
        if (auto error = writeFileAtomically(options.json,
                                             std::vector<std::uint8_t>(text.begin(), text.end()))) {
            spdlog::error("{}", *error);
            return 1;
        }
        spdlog::info("net-bench: wrote {}", options.json.string());
    }
    return 0;
}

} // namespace snowcap::net
