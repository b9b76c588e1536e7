#include "bench/bench_cases.hpp"
#include "bench/case_support.hpp"
#include "core/config.hpp"
#include "core/quality.hpp"
#include "gpu/frame_graph.hpp"
#include "gpu/pass_state.hpp"
#include "lab/run_pictures.hpp"
#include "lab/session.hpp"
#include "render/frame.hpp"
#include "snow/snow_field.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <span>

// The whole-frame cases of `snowcap bench` (frame_ab, the quality rungs, idle skip): the frame
// the viewer draws, through the same pass list (render/frame.hpp).
namespace snowcap::bench {

namespace {

// The frame graph's own CPU cost on a frame's list: the barrier derivation every build runs on
// every list (gpu::runPasses) and the check debug builds add (gpu::checkPasses: reads after
// writes, every hazard ordered), each the mean of kRepeats runs on the same list.
struct GraphCost {
    static constexpr int kRepeats = 20;
    double barriersMs = 0.0, checkMs = 0.0;
    std::size_t passes = 0, barriers = 0, problems = 0; // of the last list
    int frames = 0;

    void add(std::span<const gpu::PassRecord> list) {
        using Clock = std::chrono::steady_clock;
        const auto a = Clock::now();
        for (int i = 0; i < kRepeats; ++i) {
            const gpu::Barriers derived = gpu::deriveBarriers(list);
            barriers = std::size_t(std::count_if(derived.before.begin(), derived.before.end(),
                                                 [](GLbitfield bits) { return bits != 0; })) +
                       (derived.after ? 1 : 0);
        }
        const auto b = Clock::now();
        for (int i = 0; i < kRepeats; ++i)
            problems = gpu::checkPasses(list).size();
        const auto c = Clock::now();
        barriersMs += std::chrono::duration<double, std::milli>(b - a).count() / kRepeats;
        checkMs += std::chrono::duration<double, std::milli>(c - b).count() / kRepeats;
        passes = list.size();
        ++frames;
    }
};

// Times whole A/B frames (step + both views) of one session; returns the case with the snow
// passes per frame and the snow bytes it holds.
// `shadingScale`: the lit snow's shading rate instead of the rung's (0 keeps the rung's).
std::optional<std::string> timeFrames(Context& context, const CaseSpec& spec, Settings settings,
                                      int prerollFrames, float shadingScale = 0.0f) {
    auto created = createSession(settings, context.shaders);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    Session& session = std::get<Session>(created);
    SnowField& field = *session.field;
    session.renderer->surface().setShadingScaleOverride(shadingScale);
    const Screen screen{settings.view.width, settings.view.height};
    gpu::Texture2D colour(screen.width, screen.height, gpu::TextureFormat::RGBA8, "bench.rgb");
    gpu::Texture2D depth(screen.width, screen.height, gpu::TextureFormat::D32F, "bench.z");
    gpu::Framebuffer framebuffer(&colour, &depth, "bench.frame");
    const double loop = settings.run.frames / settings.run.fps;
    double time = 0.0;
    long long frames = 0;
    const std::vector<FrameView> views =
        splitViews(field, settings, framebuffer.id(), screen.width, screen.height);
    // One frame (render/frame.hpp), as the viewer and `render` run it; with `breakdown`, every
    // pass is also serialized and its time added there (the per-step passes as "step.*").
    GraphCost graph;
    auto stepAndDraw = [&](std::map<std::string, double>* breakdown) {
        time = time + kDt > loop ? 0.0 : time + kDt;
        const auto before = std::chrono::steady_clock::now();
        const auto& instances = session.deformers.instancesAt(time);
        gpu::PassTimer timer(gpu::TimingMethod::Serialized); // this frame's passes only
        if (breakdown)
            (*breakdown)["deformers.pose"] +=
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before)
                    .count();
        if (!breakdown) {
            runFrame(field, *session.renderer, {instances, kDt, {views}});
        } else {
            // runFrame's list, with the graph's own cost measured on it before it runs.
            field.advance(instances);
            const std::vector<gpu::PassRecord> passes =
                framePasses(field, *session.renderer, {instances, kDt, {views}});
            graph.add(passes);
            gpu::runPasses(passes, &timer);
        }
        if (breakdown)
            for (const auto& [pass, ms] : timer.latestMs()) {
                const bool own =
                    pass.starts_with("view.") || pass.starts_with("blur.") || pass == "shadow";
                (*breakdown)[own ? pass : "step." + pass] += ms;
            }
        ++frames;
    };
    auto frame = [&] {
        stepAndDraw(nullptr);
    };
    for (int i = 0; i < prerollFrames; ++i)
        frame();
    const long long passesBefore = passTotal(field), framesBefore = frames;
    Case& c = context.harness.run(spec, frame);
    const double perFrame = double(passTotal(field) - passesBefore) / double(frames - framesBefore);
    c.extra["snow_passes_per_frame"] = perFrame;
    c.extra["snow_bytes"] = fieldBytes(field);
    c.extra["fps"] = c.medianMs > 0 ? 1000.0 / c.medianMs : 0.0;
    c.extra["buffer_resolution"] = field.sim(0).region().resolution;
    c.extra["blur"] = std::string(toString(field.sim(0).settings().blur));
    // Where the frame's time goes: a few more frames with every pass serialized and timed on
    // its own (the sync points add a little, so these add up to about the median, not exactly).
    constexpr int kBreakdownFrames = 3;
    std::map<std::string, double> breakdown;
    for (int i = 0; i < kBreakdownFrames; ++i)
        stepAndDraw(&breakdown);
    nlohmann::json parts = nlohmann::json::object();
    for (const auto& [pass, ms] : breakdown)
        parts[pass] = ms / kBreakdownFrames;
    c.extra["breakdown_ms"] = parts;
    // The graph's own cost per frame, and its share of the frame's median.
    const double barriersMs = graph.barriersMs / graph.frames,
                 checkMs = graph.checkMs / graph.frames;
    c.extra["graph"] = {{"passes", graph.passes},
                        {"barriers", graph.barriers},
                        {"problems", graph.problems},
                        {"barriers_ms", barriersMs},
                        {"check_ms", checkMs},
                        {"barriers_share", c.medianMs > 0 ? barriersMs / c.medianMs : 0.0},
                        {"check_share", c.medianMs > 0 ? checkMs / c.medianMs : 0.0}};
    // A rung that shades the lit snow at a lower rate: what that costs in image quality, the
    // same frame rendered at full resolution as the reference (as `render` writes final.png).
    SnowSurfacePass& surface = session.renderer->surface();
    if (shadingScale == 0.0f && surface.shadingScale(field.sim(0)) < 1.0f) {
        const auto& instances = session.deformers.instancesAt(time);
        const ImageRgba8 low = renderFinalImage(field, *session.renderer, instances, settings);
        surface.setShadingScaleOverride(1.0f);
        const ImageRgba8 full = renderFinalImage(field, *session.renderer, instances, settings);
        surface.setShadingScaleOverride(0.0f);
        c.extra["shading_scale"] = surface.shadingScale(field.sim(0));
        c.extra["psnr_db_vs_full_res"] = psnrRgb(full.pixels, low.pixels);
        context.notes.push_back(fmt::format(
            "frame_ab {}: lit snow shaded at {} x the pixels a side, PSNR {:.2f} dB "
            "against full resolution",
            spec.variant, surface.shadingScale(field.sim(0)), psnrRgb(full.pixels, low.pixels)));
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> frameCases(Context& context, const Screen& screen) {
    Harness& h = context.harness;
    const std::string label = screen.label();
    const long long pixels = static_cast<long long>(screen.width) * screen.height;
    const std::vector<std::string> size = {"view.width=" + std::to_string(screen.width),
                                           "view.height=" + std::to_string(screen.height)};
    if (!h.wantsAny({"frame_ab", "quality", "idle_skip"}))
        return std::nullopt;
    screenCopyFloor(context, screen);
    if (h.wants("frame_ab")) {
        auto loaded = scenarioSettings(context, size);
        if (auto* error = std::get_if<std::string>(&loaded))
            return *error;
        Settings settings = std::get<Settings>(loaded);
        // The viewer's defaults: on a CPU rasteriser it starts on kLlvmpipeStartQuality
        // (app/viewer.cpp); elsewhere with the scenario as it is (UE-faithful).
        Settings viewer = settings;
        if (context.llvmpipe && viewer.snow.quality == Quality::Custom)
            viewer.snow.quality = kLlvmpipeStartQuality;
        // The same frame with the look's switches off (no specular, sparkle or deformer
        // shadows): the frame before them, measured in the same run as the look.
        Settings lookless = viewer;
        lookless.look.specular = false;
        lookless.look.sparkle = false;
        lookless.look.deformerShadows = false;
        Settings faithful = settings;
        for (SimSettings& sim : faithful.sims)
            sim.blur = BlurMode::PerPixel;
        struct Variant {
            const char* name;
            const Settings* settings;
            float shadingScale; // 0: the rung's
        };
        // B as a snowpack (docs/snowpack.md), at the viewer's rung, in the same run.
        Settings snowpackB = viewer;
        if (snowpackB.sims.size() > 1)
            snowpackB.sims[1].model = SimModel::Snowpack;
        // The viewer's frame while it snows (docs/weather.md): 4 cm/h, enough flakes to reach
        // look.falling_snow_max_flakes in each view over the default region (decay sims: the
        // weather's passes do not run, so the difference is the falling snow's pass).
        Settings snowing = viewer;
        snowing.weather.snowfallCmH = 4.0;
        // The viewer's frame on seeded noise hills (docs/terrain.md): the surface and its skirt
        // drape over the terrain, the captures follow it, and the deformers stand on it
        // (placement = "draped"), so the frame captures and draws prints on the slopes as the
        // flat one does on the plane; against "default" in the same run.
        Settings onTerrain = viewer;
        onTerrain.terrain.kind = TerrainKind::Noise;
        for (DeformerSettings& deformer : onTerrain.deformers)
            deformer.placement = DeformerSettings::Placement::Draped;
        const Variant variants[] = {
            {"default", &viewer, 0.0f},       {"full_res", &viewer, 1.0f},
            {"lookless", &lookless, 1.0f},    {"per_pixel", &faithful, 0.0f},
            {"snowpack_b", &snowpackB, 0.0f}, {"falling_snow", &snowing, 0.0f},
            {"terrain", &onTerrain, 0.0f}};
        for (const Variant& v : variants)
            if (h.wants("frame_ab", v.name))
                if (auto error = timeFrames(
                        context, {"frame_ab", v.name, label, label, pixels, "pixels", true},
                        *v.settings, 0, v.shadingScale))
                    return error;
    }
    if (h.wants("quality"))
        for (Quality quality : allValues<Quality>()) {
            if (quality == Quality::Custom)
                continue;
            std::vector<std::string> overrides = size;
            overrides.push_back(fmt::format("snow.quality={}", toString(quality)));
            auto loaded = scenarioSettings(context, overrides);
            if (auto* error = std::get_if<std::string>(&loaded))
                return *error;
            if (auto error = timeFrames(context,
                                        {"quality", std::string(toString(quality)), label, label,
                                         pixels, "pixels", true},
                                        std::get<Settings>(loaded), 0))
                return error;
        }
    if (h.wants("quality")) {
        // A rung that changes nothing is a switch not built yet, not a result: say so.
        std::vector<Case*> rungs;
        for (Case& c : h.cases())
            if (c.pass == "quality" && c.size == label)
                rungs.push_back(&c);
        auto same = [](const Case* a, const Case* b) {
            return a->extra["snow_bytes"] == b->extra["snow_bytes"] &&
                   a->extra["buffer_resolution"] == b->extra["buffer_resolution"] &&
                   a->extra["blur"] == b->extra["blur"] &&
                   a->extra["snow_passes_per_frame"] == b->extra["snow_passes_per_frame"];
        };
        if (rungs.size() > 1 && std::all_of(rungs.begin(), rungs.end(),
                                            [&](const Case* c) { return same(c, rungs[0]); }))
            for (Case* c : rungs)
                c->note = "every rung ran alike: snow.quality has no effect in this build";
    }
    if (h.wants("idle_skip"))
        for (bool skip : {false, true}) {
            std::vector<std::string> overrides = size;
            overrides.push_back(fmt::format("snow.idle_skip={}", skip));
            auto loaded = scenarioSettings(context, overrides);
            if (auto* error = std::get_if<std::string>(&loaded))
                return *error;
            // An idle stretch: nothing on the field and the buffers healed (never pressed).
            Settings idle = std::get<Settings>(loaded);
            idle.deformers.clear();
            if (context.llvmpipe && idle.snow.quality == Quality::Custom)
                idle.snow.quality = kLlvmpipeStartQuality;
            if (auto error = timeFrames(
                    context,
                    {"idle_skip", skip ? "on" : "off", label, label, pixels, "pixels", true}, idle,
                    30))
                return error;
        }
    const Case* off = h.find("idle_skip", "off", label);
    Case* on = h.find("idle_skip", "on", label);
    if (off && on && off->extra["snow_passes_per_frame"] == on->extra["snow_passes_per_frame"])
        on->note = "passes ran as without it: snow.idle_skip has no effect in this build";
    return std::nullopt;
}

} // namespace snowcap::bench
