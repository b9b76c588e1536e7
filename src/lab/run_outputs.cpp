#include "lab/run_outputs.hpp"

#include "core/config.hpp"
#include "core/params.hpp"
#include "lab/exr_outputs.hpp"
#include "lab/print_metrics.hpp"
#include "lab/run_pictures.hpp"
#include "lab/run_plots.hpp"
#include "lab/snow_top_export.hpp"
#include "lab/snowpack_stats.hpp"
#include "lab/world_stats.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

nlohmann::json statsJson(const BufferStats& stats) {
    return {
        {"min", stats.min},
        {"max", stats.max},
        {"mean", stats.mean},
        {"nonzero", stats.nonzero},
        {"nan_or_inf", stats.nanOrInf},
        {"above", {{"0.01", stats.above[0]}, {"0.1", stats.above[1]}, {"0.5", stats.above[2]}}}};
}

// JSON has no NaN: a probe outside the region records null.
nlohmann::json probeValues(const std::vector<float>& values) {
    nlohmann::json out = nlohmann::json::array();
    for (float v : values)
        out.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
    return out;
}

// lab/print_metrics.hpp's fade times and relief; null where not reached.
nlohmann::json seconds(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}
nlohmann::json fadeJson(const MeasuredFade& fade) {
    return {{"peak", seconds(fade.peak)},
            {"start_s", seconds(fade.startS)},
            {"to50_s", seconds(fade.to50S)},
            {"to10_s", seconds(fade.to10S)},
            {"to0_s", seconds(fade.toZeroS)}};
}
nlohmann::json fadeJson(const PredictedFade& fade) {
    return {{"to50_s", seconds(fade.to50S)},
            {"to10_s", seconds(fade.to10S)},
            {"to0_s", seconds(fade.toZeroS)}};
}
nlohmann::json reliefJson(SnowField& field, SceneRenderer& renderer, int s,
                          const Settings& settings) {
    if (!field.enabled())
        return nullptr;
    const Relief relief = measureRelief(field, renderer, s, settings);
    return {{"deepest_cm", relief.deepestCm}, {"crest_cm", relief.crestCm}};
}

} // namespace

// A TOML value as JSON: tables become objects, arrays arrays, values stay what they are.
nlohmann::json tomlToJson(const toml::node& node) {
    if (const toml::table* table = node.as_table()) {
        nlohmann::json object = nlohmann::json::object();
        for (auto&& [key, value] : *table)
            object[std::string(key.str())] = tomlToJson(value);
        return object;
    }
    if (const toml::array* array = node.as_array()) {
        nlohmann::json list = nlohmann::json::array();
        for (const toml::node& value : *array)
            list.push_back(tomlToJson(value));
        return list;
    }
    if (const auto* text = node.as_string())
        return text->get();
    if (const auto* integer = node.as_integer())
        return integer->get();
    if (const auto* number = node.as_floating_point())
        return number->get();
    if (const auto* flag = node.as_boolean())
        return flag->get();
    return nullptr;
}

nlohmann::json physicsJson(const PhysicsReport& report) {
    nlohmann::json out = {{"bodies", report.bodies},
                          {"vehicles", report.vehicles},
                          {"steps", report.steps},
                          {"step_ms_mean", report.stepMsMean},
                          {"resting_bodies", report.restingBodies},
                          {"support", report.support}};
    if (report.support != "ground") {
        out["support_updates"] = report.supportUpdates;
        out["support_reads"] = report.supportReads;
        out["support_readback_bytes_mean"] = report.supportReadbackBytesMean;
        out["support_reads_waited"] = report.supportReadsWaited;
    }
    if (!report.vehicleReports.empty()) {
        nlohmann::json byVehicle = nlohmann::json::object();
        for (const VehicleReport& vehicle : report.vehicleReports) {
            nlohmann::json passes = nlohmann::json::array();
            for (const PassReport& pass : vehicle.passes)
                passes.push_back({{"sinkage_cm", pass.sinkageCm},
                                  {"below_surface_cm", pass.belowSurfaceCm},
                                  {"contacts", pass.samples}});
            byVehicle[vehicle.name] = {{"distance_cm", vehicle.distanceCm},
                                       {"mean_sinkage_cm", vehicle.meanSinkageCm},
                                       {"passes", std::move(passes)}};
        }
        out["by_vehicle"] = std::move(byVehicle);
    }
    return out;
}

// stats.json's terrain block (docs/terrain.md): the ground's kind, its lowest and highest
// height and extent (m), its samples, and what each sim's capture measures from.
static nlohmann::json terrainJson(const Settings& settings, const SnowField& field) {
    const std::shared_ptr<const HeightField>& terrain = field.terrain();
    const bool flat = !terrain || terrain->flat();
    const HeightSpan span = flat ? HeightSpan{} : terrain->spanCm();
    nlohmann::json references = nlohmann::json::object();
    for (int s = 0; s < field.simCount(); ++s)
        references[std::string(simName(s))] =
            std::string(toString(settings.sims[s].captureReference));
    return {{"kind", std::string(toString(settings.terrain.kind))},
            {"min_m", span.lowCm / 100.0},
            {"max_m", span.highCm / 100.0},
            {"size_m",
             flat ? std::vector<double>{0.0, 0.0}
                  : std::vector<double>{terrain->sizeCm().x / 100.0, terrain->sizeCm().y / 100.0}},
            {"texels", flat ? 0 : std::int64_t(terrain->columns()) * terrain->rows()},
            {"capture_reference", std::move(references)}};
}

namespace {

// Each file is named once it is whole, for the command's closing line.
void noteWritten(std::vector<fs::path>* written, const fs::path& file) {
    if (written)
        written->push_back(file);
}

// stats.json's head: the driver, the run's length and cost, every key of its settings.
nlohmann::json runJson(const Settings& settings, const GlInfo& gl, const SnowField& field,
                       const RunRecorder& recorder, double wallSeconds) {
    nlohmann::json stats;
    stats["gl"] = {{"vendor", gl.vendor},
                   {"renderer", gl.renderer},
                   {"version", gl.version},
                   {"platform", gl.platform},
                   {"half_store_rounding", gl.halfStoreRounding}};
    stats["frames"] = recorder.frames();
    stats["fps"] = settings.run.fps;
    stats["dt"] = 1.0 / settings.run.fps;
    stats["wall_seconds"] = wallSeconds;
    stats["captures"] = field.captureCount();
    stats["passes_run"] = {{"capture", field.passesRun().capture},
                           {"accumulate", field.passesRun().accumulate},
                           {"accumulate_outputs", field.passesRun().accumulateOutputs}};
    // Every key of the run's settings, named as in the TOML files (the parameter table).
    stats["params"] = tomlToJson(params::toToml(settings));
    return stats;
}

// stats.json's entry for sim s: its settings, region, buffer, probes with their fades, relief.
nlohmann::json simJson(SnowField& field, int s, const Settings& settings,
                       const RunRecorder& recorder, SceneRenderer& renderer) {
    const SnowSim& sim = field.sim(s);
    const SimSettings& p = sim.settings();
    // snow.quality = "off" allocates no buffer: its stats say so instead of reading one.
    nlohmann::json buffer = nullptr;
    if (field.enabled()) {
        const gpu::Texture2D& texture = sim.persistent();
        buffer = statsJson(
            bufferStats(texture.readFloats(), gpu::formatInfo(texture.format()).channels));
        buffer["width"] = texture.width();
        buffer["height"] = texture.height();
        buffer["format"] = gpu::formatInfo(texture.format()).name;
        buffer["bytes"] = sim.bytes();
    }
    nlohmann::json probes = nlohmann::json::array();
    for (const auto& probe : recorder.probes())
        probes.push_back({{"name", probe.name},
                          {"world_cm", probe.worldCm},
                          {"texel", {probe.texel[s].x, probe.texel[s].y}},
                          {"values", probeValues(probe.values[s])}});
    // The sweep's fade times (sweeps.md); a snowpack's probes read its depth in cm, which
    // does not fade: no fade, measured or predicted.
    for (std::size_t i = 0; i < probes.size(); ++i)
        probes[i]["fade"] = fadeJson(
            sim.snowpack() ? MeasuredFade{}
                           : measureFade(recorder.probes()[i].values[s], 1.0 / settings.run.fps));
    const Region& region = sim.region();
    nlohmann::json out = {
        {"params", tomlToJson(params::toToml(p))},
        {"effective",
         {{"resolution", region.resolution},
          {"ortho_width_cm", region.widthCm},
          {"region_centre_cm", {region.centreCm.x, region.centreCm.y}},
          {"rt_blur_distance", sim.params().rtBlurDistance}}},
        {"buffer", buffer},
        {"vram_bytes", sim.bytes()},
        {"probes", probes},
        {"predicted_fade",
         fadeJson(sim.snowpack() ? PredictedFade{} : predictFade(p, settings.run.fps))},
        {"relief", reliefJson(field, renderer, s, settings)}};
    addWorldStats(out, field, s, settings.deformers);
    addSnowpackStats(out, field, s);
    return out;
}

// Sim s's buffer as files: a snowpack's state (and what drifted), else the persistent buffer;
// both as EXR too.
std::optional<std::string> writeSimFiles(const fs::path& dir, const SnowField& field, int s,
                                         std::vector<fs::path>* written) {
    if (!field.enabled())
        return std::nullopt;
    const SnowSim& sim = field.sim(s);
    const std::string name(simName(s));
    if (sim.snowpack()) {
        // depth_cm, density, water (a PFM holds three; the EXR has the ground's print too).
        if (auto error = writeSnowpackPfm(dir / ("sim_" + name + ".pfm"), *sim.snowpack()))
            return error;
        noteWritten(written, dir / ("sim_" + name + ".pfm"));
        if (auto error = writeSnowpackImage(dir / ("snowpack_" + name + ".png"), *sim.snowpack()))
            return error;
        noteWritten(written, dir / ("snowpack_" + name + ".png"));
        if (sim.snowpack()->weather().active()) {
            // What drifted: in minus out per texel since the start (docs/weather.md §2).
            if (auto error =
                    writePfm(dir / ("drift_" + name + ".pfm"), driftRecordKgM2(*sim.snowpack())))
                return error;
            noteWritten(written, dir / ("drift_" + name + ".pfm"));
            if (auto error = writeDriftImage(dir / ("drift_" + name + ".png"), *sim.snowpack(),
                                             "sim " + name + ": what drifted since the start"))
                return error;
            noteWritten(written, dir / ("drift_" + name + ".png"));
        }
    } else {
        if (auto error = writePfm(dir / ("sim_" + name + ".pfm"), readPersistent(sim)))
            return error;
        noteWritten(written, dir / ("sim_" + name + ".pfm"));
    }
    if (auto error = writePersistentExr(dir / ("sim_" + name + ".exr"), sim, name))
        return error;
    noteWritten(written, dir / ("sim_" + name + ".exr"));
    return std::nullopt;
}

// Every distinct capture in stats.json; capture_depth.pfm is sim A's (and B's too when they
// share it), with its EXR and picture, and the buffers' picture.
std::optional<std::string> writeCaptures(const fs::path& dir, const Settings& settings,
                                         const SnowField& field, nlohmann::json& stats,
                                         std::vector<fs::path>* written) {
    nlohmann::json captures = nlohmann::json::array();
    std::size_t captureBytes = 0;
    for (int c = 0; c < field.captureCount(); ++c) {
        const ContactCapture& capture = field.capture(c);
        captures.push_back({{"resolution", capture.key().region.resolution},
                            {"ortho_width_cm", capture.key().region.widthCm},
                            {"format", gpu::formatInfo(capture.depth().format()).name},
                            {"bytes", capture.bytes()}});
        captureBytes += capture.bytes();
    }
    stats["capture_list"] = captures;
    stats["capture_vram_bytes"] = captureBytes;
    stats["snow_enabled"] = field.enabled();
    if (!field.enabled())
        return std::nullopt;
    if (auto error = writePfm(dir / "capture_depth.pfm", readCaptureDepthCm(field.captureOf(0))))
        return error;
    noteWritten(written, dir / "capture_depth.pfm");
    if (auto error = writeCaptureDepthExr(dir / "capture_depth.exr", field.captureOf(0)))
        return error;
    noteWritten(written, dir / "capture_depth.exr");
    if (auto error = writeCaptureDepthImage(field, settings, dir / "capture_depth.png"))
        return error;
    noteWritten(written, dir / "capture_depth.png");
    if (auto error = writeBufferImage(field, dir / "buffers.png"))
        return error;
    noteWritten(written, dir / "buffers.png");
    return std::nullopt;
}

} // namespace

std::optional<std::string>
writeRunOutputs(const fs::path& dir, const Settings& settings, const GlInfo& gl, SnowField& field,
                const RunRecorder& recorder, SceneRenderer& renderer,
                std::span<const DeformerInstance> deformers, SurfaceOutput output,
                double wallSeconds, std::vector<fs::path>* written,
                const std::optional<PhysicsReport>& physics, const nlohmann::json& net) {
    nlohmann::json stats = runJson(settings, gl, field, recorder, wallSeconds);
    if (physics)
        stats["physics"] = physicsJson(*physics);
    stats["terrain"] = terrainJson(settings, field);
    if (!net.is_null())
        stats["net"] = net;
    for (int s = 0; s < field.simCount(); ++s) {
        stats["sims"][std::string(simName(s))] = simJson(field, s, settings, recorder, renderer);
        if (auto error = writeSimFiles(dir, field, s, written))
            return error;
    }
    if (auto error = writeCaptures(dir, settings, field, stats, written))
        return error;
    const auto plotted = writeProbePlot(recorder, field, settings, dir / "probes.png");
    if (const auto* error = std::get_if<std::string>(&plotted))
        return *error;
    if (std::get<bool>(plotted))
        noteWritten(written, dir / "probes.png");
    if (auto error =
            writeFinalImage(field, renderer, deformers, settings, dir / "final.png", output))
        return error;
    noteWritten(written, dir / "final.png");
    if (settings.terrain.exportSnowTop)
        if (auto error = writeSnowTops(dir, settings, field, renderer, written))
            return error;

    // Replace: `render --out DIR` refreshes its own outputs (docs/reliability.md).
    const std::string text = stats.dump(2) + "\n";
    if (auto error = writeFileAtomically(dir / "stats.json",
                                         std::vector<std::uint8_t>(text.begin(), text.end())))
        return error;
    noteWritten(written, dir / "stats.json");
    return std::nullopt;
}

std::string outputList(const fs::path& dir, const std::vector<fs::path>& files) {
    std::vector<std::string> inside, outside;
    for (const fs::path& file : files) {
        const bool in = !dir.empty() && file.parent_path() == dir;
        (in ? inside : outside).push_back(in ? file.filename().string() : file.string());
    }
    const auto joined = [](const std::vector<std::string>& names) {
        std::string text;
        for (std::size_t i = 0; i < names.size(); ++i)
            text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
        return text;
    };
    std::string text;
    if (!inside.empty())
        text = (dir / "").string() + ": " + joined(inside);
    if (!outside.empty())
        text += (text.empty() ? "" : "; ") + joined(outside);
    return text.empty() ? "nothing" : text;
}

} // namespace snowcap
