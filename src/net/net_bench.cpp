#include "net/net_bench.hpp"

#include "core/config.hpp"
#include "io/image.hpp"
#include "net/net_cases.hpp"
#include "net/net_run.hpp"

#include <spdlog/spdlog.h>

namespace snowcap::net {

namespace fs = std::filesystem;

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
        auto settings = sceneSettings(crowdScene(count, options.frames),
                                      "crowd" + std::to_string(count), common.overrides, file);
        if (auto* error = std::get_if<std::string>(&settings)) {
            spdlog::error("net-bench: {}", *error);
            return 2;
        }
        for (const ModeCase& mode : kModes) {
            auto measured = measureMode(std::get<Settings>(settings), mode.mode, mode.compress,
                                        file.string(), renderer);
            if (auto* error = std::get_if<std::string>(&measured)) {
                spdlog::error("net-bench: {} x {}: {}", mode.name, count, *error);
                return 1;
            }
            const ModeFigures& figures = std::get<ModeFigures>(measured);
            nlohmann::json row = {{"mode", mode.name},
                                  {"deformers", figures.deformers},
                                  {"steps", figures.steps},
                                  {"bytes", figures.bytes},
                                  {"packets", figures.packets},
                                  {"bytes_per_s", figures.bytesPerS},
                                  {"bytes_per_step", double(figures.bytes) / figures.steps},
                                  {"snapshot_bytes", figures.snapshotBytes},
                                  {"divergent_tiles", figures.divergentTiles},
                                  {"tiles_resent", figures.tilesResent},
                                  {"identical", figures.identical},
                                  {"wall_ms", figures.wallMs}};
            spdlog::info("net-bench: {:>9} {:>5} deformers: {:>12.0f} bytes/s per client "
                         "({:.0f} bytes a step){}",
                         mode.name, count, row["bytes_per_s"].get<double>(),
                         row["bytes_per_step"].get<double>(),
                         row["identical"].get<bool>() ? "" : "  NOT IDENTICAL");
            crowds.push_back(std::move(row));
        }
        fs::remove(file);
    }
    // Following windows: follow_compare's boot walking across two 256^2 sims, A following it
    // naively (every step a resample), B snapped to whole texels.
    nlohmann::json follow = nlohmann::json::array();
    std::vector<std::string> overrides = {"snow.resolution=256", "snow.idle_skip=false"};
    overrides.insert(overrides.end(), common.overrides.begin(), common.overrides.end());
    auto loaded = loadScenarioSettings("follow_compare", overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        spdlog::error("net-bench: {}", error->message);
        return 2;
    }
    Settings followSettings = std::get<Settings>(loaded);
    followSettings.run.frames = options.frames;
    for (const ModeCase& mode : kModes) {
        auto measured =
            measureMode(followSettings, mode.mode, mode.compress, "follow_compare", renderer);
        if (auto* error = std::get_if<std::string>(&measured)) {
            spdlog::error("net-bench: {} following: {}", mode.name, *error);
            return 1;
        }
        const ModeFigures& figures = std::get<ModeFigures>(measured);
        spdlog::info("net-bench: {:>9} following windows: {:>12.0f} bytes/s per client{}",
                     mode.name, figures.bytesPerS, figures.identical ? "" : "  NOT IDENTICAL");
        follow.push_back({{"mode", mode.name},
                          {"steps", figures.steps},
                          {"bytes", figures.bytes},
                          {"packets", figures.packets},
                          {"bytes_per_s", figures.bytesPerS},
                          {"bytes_per_step", double(figures.bytes) / figures.steps},
                          {"divergent_tiles", figures.divergentTiles},
                          {"identical", figures.identical}});
    }
    nlohmann::json joins = nlohmann::json::array();
    for (int size : options.sizes) {
        fs::path file;
        auto settings =
            sceneSettings(joinScene(size), "join" + std::to_string(size), common.overrides, file);
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
        const JoinFigures& figures = std::get<JoinFigures>(measured);
        nlohmann::json row = {
            {"resolution", figures.resolution},    {"sims", figures.sims},
            {"buffer_bytes", figures.bufferBytes}, {"snapshot_bytes", figures.snapshotBytes},
            {"make_ms", figures.makeMs},           {"apply_ms", figures.applyMs},
            {"identical", figures.identical}};
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
                                   {"follow", follow},
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
