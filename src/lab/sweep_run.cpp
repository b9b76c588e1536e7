#include "lab/sweep_run.hpp"

#include "lab/json_file.hpp"
#include "lab/lab.hpp"
#include "lab/run_pictures.hpp"
#include "lab/run_stats.hpp"
#include "lab/snowpack_stats.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

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
        view.request.camera =
            cameraFor(settings.view, lab.field().sim(slots[i]).region(),
                      viewSurfaceZCm(lab.field(), slots[i], settings), double(w) / h);
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

SweepResultShape sweepResultShape(const SweepPlan& plan, int batch, const SweepRunOptions& run) {
    return {plan.batches[batch].combinations, plan.request.atS,
            plan.batches[batch].settings.run.frames, run.tileWidth, run.tileHeight};
}

namespace {

// A batch file of at most this size: a result is a few hundred bytes a probe and time (the
// tiles are PNGs beside it), so 64 MiB holds far more than a field's eight combinations.
constexpr std::uint64_t kMaxBatchFileBytes = 64ull << 20;

// Each field checked and converted; the first problem throws the reason (caught below).
struct ResultReader {
    const fs::path& jsonPath;
    const SweepResultShape& shape;

    [[noreturn]] static void refuse(const std::string& reason) { throw std::runtime_error(reason); }
    static const nlohmann::json& field(const nlohmann::json& in, const char* name) {
        if (!in.is_object() || !in.contains(name))
            refuse(fmt::format("no '{}'", name));
        return in.at(name);
    }
    static long long integer(const nlohmann::json& v, const std::string& name, long long lo,
                             long long hi) {
        auto n = jsonInteger(v, name, lo, hi);
        if (auto* error = std::get_if<std::string>(&n))
            refuse(*error);
        return std::get<long long>(n);
    }
    static double real(const nlohmann::json& v, const std::string& name, double lo = -1e30,
                       double hi = 1e30) {
        auto n = jsonReal(v, name, lo, hi);
        if (auto* error = std::get_if<std::string>(&n))
            refuse(*error);
        return std::get<double>(n);
    }
    static std::optional<double> optionalReal(const nlohmann::json& v, const std::string& name) {
        return v.is_null() ? std::nullopt : std::optional<double>(real(v, name));
    }
    static const nlohmann::json& array(const nlohmann::json& v, const std::string& name,
                                       std::size_t size) {
        if (!v.is_array() || v.size() != size)
            refuse(fmt::format("'{}' holds {} entries, the plan {}", name,
                               v.is_array() ? v.size() : 0, size));
        return v;
    }
    static std::string text(const nlohmann::json& v, const std::string& name) {
        if (!v.is_string())
            refuse(fmt::format("'{}' is not a string", name));
        return v.get<std::string>();
    }

    SweepResult result(const nlohmann::json& r, std::size_t i) const {
        SweepResult result;
        result.combination = static_cast<int>(integer(
            field(r, "combination"), "combination", shape.combinations[i], shape.combinations[i]));
        const nlohmann::json& names = field(r, "probe_names");
        if (!names.is_array() || names.size() > 100000)
            refuse("'probe_names' is not a list of names");
        for (const nlohmann::json& name : names)
            result.probeNames.push_back(text(name, "probe_names"));
        const std::size_t probes = result.probeNames.size();
        const nlohmann::json& samples = array(field(r, "samples"), "samples", shape.atS.size());
        for (std::size_t t = 0; t < samples.size(); ++t) {
            const nlohmann::json& s = samples[t];
            SweepSample sample;
            sample.atS = real(field(s, "at_s"), "at_s", shape.atS[t], shape.atS[t]);
            sample.step = static_cast<int>(integer(field(s, "step"), "step", 1, shape.frames));
            for (const nlohmann::json& v : array(field(s, "probes"), "probes", probes))
                sample.probes.push_back(
                    v.is_null() ? std::nullopt
                                : std::optional<float>(float(real(v, "probes", -1e9, 1e9))));
            sample.texelsDisturbed =
                integer(field(s, "texels_disturbed"), "texels_disturbed", 0, 1ll << 40);
            // Only the name the writer gives it: never a path out of the directory.
            const std::string tile =
                fmt::format("{}_c{}_t{}.png", jsonPath.stem().string(), result.combination, t);
            if (text(field(s, "tile"), "tile") != tile)
                refuse(fmt::format("'tile' is not {}", tile));
            auto image =
                readPngWithin(jsonPath.parent_path() / tile,
                              std::max(shape.tileWidth, shape.tileHeight), kMaxBatchFileBytes);
            if (auto* error = std::get_if<std::string>(&image))
                throw std::invalid_argument(*error); // names its own file
            sample.tile = std::get<ImageRgba8>(std::move(image));
            if (sample.tile.width != shape.tileWidth || sample.tile.height != shape.tileHeight)
                throw std::invalid_argument(
                    fmt::format("{}: {} x {} pixels, the plan's tiles are {} x {}",
                                (jsonPath.parent_path() / tile).string(), sample.tile.width,
                                sample.tile.height, shape.tileWidth, shape.tileHeight));
            result.samples.push_back(std::move(sample));
        }
        for (const nlohmann::json& f : array(field(r, "fades"), "fades", probes))
            result.fades.push_back({optionalReal(field(f, "peak"), "peak"),
                                    optionalReal(field(f, "start_s"), "start_s"),
                                    optionalReal(field(f, "to50"), "to50"),
                                    optionalReal(field(f, "to10"), "to10"),
                                    optionalReal(field(f, "to0"), "to0")});
        const nlohmann::json& p = field(r, "predicted");
        result.predicted = {optionalReal(field(p, "to50"), "to50"),
                            optionalReal(field(p, "to10"), "to10"),
                            optionalReal(field(p, "to0"), "to0")};
        result.relief = {real(field(r, "deepest_cm"), "deepest_cm"),
                         real(field(r, "crest_cm"), "crest_cm")};
        result.batchWallS = real(field(r, "batch_wall_s"), "batch_wall_s", 0.0);
        result.glRenderer = text(field(r, "gl_renderer"), "gl_renderer");
        return result;
    }
};

} // namespace

std::variant<std::vector<SweepResult>, std::string>
loadSweepResults(const fs::path& jsonPath, const SweepResultShape& shape) {
    auto read = readUntrustedJson(jsonPath, kMaxBatchFileBytes);
    if (auto* error = std::get_if<std::string>(&read))
        return *error;
    const nlohmann::json& in = std::get<nlohmann::json>(read);
    if (!in.is_array())
        return jsonPath.string() + ": not a sweep result file";
    if (in.size() != shape.combinations.size())
        return fmt::format("{}: {} results, the plan's batch has {} combinations",
                           jsonPath.string(), in.size(), shape.combinations.size());
    std::vector<SweepResult> results;
    const ResultReader reader{jsonPath, shape};
    try {
        for (std::size_t i = 0; i < in.size(); ++i)
            results.push_back(reader.result(in[i], i));
    } catch (const std::invalid_argument& e) {
        return std::string(e.what());
    } catch (const std::exception& e) {
        return fmt::format("{}: {}", jsonPath.string(), e.what());
    }
    for (const SweepResult& r : results)
        if (r.probeNames != results.front().probeNames)
            return fmt::format("{}: combination {} names other probes than combination {}",
                               jsonPath.string(), r.combination, results.front().combination);
    return results;
}

} // namespace snowcap
