#include "lab/sweep_run.hpp"

#include "lab/lab.hpp"
#include "lab/run_pictures.hpp"
#include "lab/run_stats.hpp"
#include "lab/snowpack_stats.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <fstream>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

// Every slot's view side by side in one target, one frame (each sim blurred once), then cut
// into tiles: the lit view (the deformers drawn) or one material stage, as final.png shows it.
std::vector<ImageRgba8> renderTiles(Lab& lab, const std::vector<int>& slots,
                                    const SweepRunOptions& options) {
    const int w = options.tileWidth, h = options.tileHeight;
    const int width = w * static_cast<int>(slots.size());
    gpu::Texture2D colour(width, h, colourTargetFormat(options.stage), "sweep.tiles");
    gpu::Texture2D depth(width, h, gpu::TextureFormat::D32F, "sweep.tiles.depth");
    gpu::Framebuffer framebuffer(&colour, &depth, "sweep.tiles");
    const Settings& settings = lab.settings();
    FrameDraw draw;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        FrameView view;
        view.sim = slots[i];
        view.request.framebuffer = framebuffer.id();
        view.request.viewportPx = {static_cast<int>(i) * w, 0, w, h};
        view.request.camera = cameraFor(settings.view, lab.field().sim(slots[i]).region(),
                                        settings.snow.surfaceZCm, double(w) / h);
        view.request.output = options.stage;
        draw.views.push_back(view);
    }
    lab.draw(std::move(draw));

    const ImageRgba8 all =
        readColourTarget(colour, options.stage, static_cast<float>(settings.snow.depthCm));
    std::vector<ImageRgba8> tiles;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        ImageRgba8 tile(w, h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                tile.set(x, y, all.at(static_cast<int>(i) * w + x, y));
        tiles.push_back(std::move(tile));
    }
    return tiles;
}

} // namespace

std::variant<std::vector<SweepResult>, std::string>
runSweepBatch(const SweepPlan& plan, int batchIndex, const SweepRunOptions& options,
              const std::string& glRenderer, const std::function<void(long long)>& onStep,
              std::unique_ptr<Lab>* reuse) {
    const SweepBatch& batch = plan.batches[batchIndex];
    const auto started = std::chrono::steady_clock::now();
    std::unique_ptr<Lab> own;
    std::unique_ptr<Lab>& held = reuse ? *reuse : own;
    if (held) {
        // A following region keeps its place across an edit; through fixed regions first,
        // every region starts at its configured centre, as in a new field. Packed batches
        // share their deformers; any other may differ in them (rebuilt, meshes imported).
        Settings fixed = batch.settings;
        for (SimSettings& sim : fixed.sims)
            sim.region = RegionMode::Fixed;
        if (auto error = held->apply(fixed, !plan.packed))
            return *error;
        if (auto error = held->apply(batch.settings))
            return *error;
        held->restart(); // buffers, clocks, heal bounds, the player and the time back to 0
    } else {
        auto created =
            Lab::create(batch.settings, plan.request.scenario, plan.request.overrides, glRenderer);
        if (auto* error = std::get_if<std::string>(&created))
            return *error;
        held = std::move(std::get<0>(created));
    }
    Lab& lab = *held;
    lab.setTiming(false); // as `render` without --ui
    SnowField& field = lab.field();
    const Settings& settings = batch.settings;
    RunRecorder recorder(settings, field);
    const int frames = settings.run.frames;
    const double fps = settings.run.fps;
    const double dt = 1.0 / fps;

    std::vector<int> atSteps;
    for (double at : plan.request.atS)
        atSteps.push_back(std::clamp(static_cast<int>(std::lround(at * fps)), 1, frames));

    std::vector<SweepResult> results(batch.combinations.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
        results[i].combination = batch.combinations[i];
        for (const auto& probe : recorder.probes())
            results[i].probeNames.push_back(probe.name);
        results[i].samples.resize(atSteps.size());
    }

    const auto sample = [&](std::size_t at, int step) {
        const std::vector<ImageRgba8> tiles = renderTiles(lab, batch.slots, options);
        for (std::size_t i = 0; i < results.size(); ++i) {
            const int slot = batch.slots[i];
            SweepSample& s = results[i].samples[at];
            s.atS = plan.request.atS[at];
            s.step = step;
            for (const auto& probe : recorder.probes()) {
                const float v = probe.values[slot][step - 1];
                s.probes.push_back(std::isfinite(v) ? std::optional<float>(v) : std::nullopt);
            }
            if (field.enabled() && field.sim(slot).snowpack()) {
                // Every texel of a snowpack holds snow: disturbed is moved from the initial
                // column (lab/snowpack_stats.hpp), not nonzero.
                s.texelsDisturbed = snowpackTexelsDisturbed(*field.sim(slot).snowpack());
            } else if (field.enabled()) {
                const gpu::Texture2D& texture = field.sim(slot).persistent();
                s.texelsDisturbed =
                    bufferStats(texture.readFloats(), gpu::formatInfo(texture.format()).channels)
                        .nonzero;
            }
            s.tile = tiles[i];
        }
    };

    for (int frame = 0; frame < frames; ++frame) {
        lab.stepTo((frame + 1) * dt, dt); // the state at the end of this step
        recorder.recordProbes(field);
        for (std::size_t at = 0; at < atSteps.size(); ++at)
            if (atSteps[at] == frame + 1)
                sample(at, frame + 1);
        if (onStep)
            onStep(frame + 1);
    }

    for (std::size_t i = 0; i < results.size(); ++i) {
        const int slot = batch.slots[i];
        // A snowpack's probes read its depth (cm), which does not fade: no fade times, measured
        // or predicted (the decay law's would describe a mask it does not have).
        const bool snowpack = field.sim(slot).snowpack() != nullptr;
        for (const auto& probe : recorder.probes())
            results[i].fades.push_back(snowpack ? MeasuredFade{}
                                                : measureFade(probe.values[slot], dt));
        results[i].predicted =
            snowpack ? PredictedFade{} : predictFade(field.sim(slot).settings(), fps);
        results[i].relief = measureRelief(field, lab.renderer(), slot, settings);
        results[i].glRenderer = glRenderer;
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    for (SweepResult& result : results)
        result.batchWallS = wall;
    return results;
}

// ---- results through a file (worker processes) ------------------------------------------

namespace {

nlohmann::json optionalJson(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}
std::optional<double> optionalFrom(const nlohmann::json& value) {
    return value.is_null() ? std::nullopt : std::optional<double>(value.get<double>());
}

} // namespace

std::optional<std::string> saveSweepResults(const std::vector<SweepResult>& results,
                                            const fs::path& jsonPath) {
    nlohmann::json out = nlohmann::json::array();
    for (const SweepResult& r : results) {
        nlohmann::json samples = nlohmann::json::array();
        for (std::size_t t = 0; t < r.samples.size(); ++t) {
            const SweepSample& s = r.samples[t];
            nlohmann::json probes = nlohmann::json::array();
            for (const auto& v : s.probes)
                probes.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
            const std::string tile =
                fmt::format("{}_c{}_t{}.png", jsonPath.stem().string(), r.combination, t);
            if (auto error = writePng(jsonPath.parent_path() / tile, s.tile))
                return error;
            samples.push_back({{"at_s", s.atS},
                               {"step", s.step},
                               {"probes", probes},
                               {"texels_disturbed", s.texelsDisturbed},
                               {"tile", tile}});
        }
        nlohmann::json fades = nlohmann::json::array();
        for (const MeasuredFade& f : r.fades)
            fades.push_back({{"peak", optionalJson(f.peak)},
                             {"start_s", optionalJson(f.startS)},
                             {"to50", optionalJson(f.to50S)},
                             {"to10", optionalJson(f.to10S)},
                             {"to0", optionalJson(f.toZeroS)}});
        out.push_back({{"combination", r.combination},
                       {"probe_names", r.probeNames},
                       {"samples", samples},
                       {"fades", fades},
                       {"predicted",
                        {{"to50", optionalJson(r.predicted.to50S)},
                         {"to10", optionalJson(r.predicted.to10S)},
                         {"to0", optionalJson(r.predicted.toZeroS)}}},
                       {"deepest_cm", r.relief.deepestCm},
                       {"crest_cm", r.relief.crestCm},
                       {"batch_wall_s", r.batchWallS},
                       {"gl_renderer", r.glRenderer}});
    }
    const std::string text = out.dump();
    return writeFileAtomically(jsonPath, std::vector<std::uint8_t>(text.begin(), text.end()));
}

std::variant<std::vector<SweepResult>, std::string> loadSweepResults(const fs::path& jsonPath) {
    std::ifstream file(jsonPath);
    const nlohmann::json in = nlohmann::json::parse(file, nullptr, false);
    if (in.is_discarded() || !in.is_array())
        return jsonPath.string() + ": not a sweep result file";
    std::vector<SweepResult> results;
    try {
        for (const nlohmann::json& r : in) {
            SweepResult result;
            result.combination = r.at("combination").get<int>();
            result.probeNames = r.at("probe_names").get<std::vector<std::string>>();
            for (const nlohmann::json& s : r.at("samples")) {
                SweepSample sample;
                sample.atS = s.at("at_s").get<double>();
                sample.step = s.at("step").get<int>();
                for (const nlohmann::json& v : s.at("probes"))
                    sample.probes.push_back(v.is_null() ? std::nullopt
                                                        : std::optional<float>(v.get<float>()));
                sample.texelsDisturbed = s.at("texels_disturbed").get<long long>();
                auto tile = readPng(jsonPath.parent_path() / s.at("tile").get<std::string>());
                if (auto* error = std::get_if<std::string>(&tile))
                    return *error;
                sample.tile = std::get<ImageRgba8>(std::move(tile));
                result.samples.push_back(std::move(sample));
            }
            for (const nlohmann::json& f : r.at("fades"))
                result.fades.push_back({optionalFrom(f.at("peak")), optionalFrom(f.at("start_s")),
                                        optionalFrom(f.at("to50")), optionalFrom(f.at("to10")),
                                        optionalFrom(f.at("to0"))});
            const nlohmann::json& p = r.at("predicted");
            result.predicted = {optionalFrom(p.at("to50")), optionalFrom(p.at("to10")),
                                optionalFrom(p.at("to0"))};
            result.relief = {r.at("deepest_cm").get<double>(), r.at("crest_cm").get<double>()};
            result.batchWallS = r.at("batch_wall_s").get<double>();
            result.glRenderer = r.at("gl_renderer").get<std::string>();
            results.push_back(std::move(result));
        }
    } catch (const nlohmann::json::exception& e) {
        return jsonPath.string() + ": " + e.what();
    }
    return results;
}

} // namespace snowcap
