#include "bench/bench_cases.hpp"

#include "core/config.hpp"
#include "core/quality.hpp"
#include "gpu/pass_state.hpp"
#include "lab/run_outputs.hpp"
#include "lab/session.hpp"
#include "render/frame.hpp"
#include "render/view_params.hpp"
#include "snow/snow_field.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <functional>
#include <glm/gtc/matrix_transform.hpp>
#include <map>

namespace snowcap::bench {

namespace {

constexpr double kDt = 1.0 / 60.0;
constexpr const char* kScenario = "decay_compare"; // the viewer's default scene
constexpr int kDenseTriangles = 50000;
constexpr float kDeformerRadiusCm = 40.0f;

// The scenario with the user's --set first and the case's own keys last: a case's size or
// switch is what it measures, so it must win; everything else is the user's to change.
std::variant<Settings, std::string> scenarioSettings(const Context& context,
                                                     const std::vector<std::string>& caseKeys) {
    std::vector<std::string> overrides = context.overrides;
    overrides.insert(overrides.end(), caseKeys.begin(), caseKeys.end());
    auto loaded = loadScenarioSettings(kScenario, overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded))
        return error->message;
    return std::get<Settings>(loaded);
}

std::variant<std::unique_ptr<SnowField>, std::string> makeField(Context& context,
                                                                const Settings& settings) {
    return SnowField::create(settings, context.shaders);
}

// Dense spheres pressing 10 cm into the snow, spread over the region's middle.
struct DenseDeformers {
    gpu::GpuMesh mesh;
    std::vector<DeformerInstance> instances;
    int triangles = 0;

    DenseDeformers(int triangleCount, int count) {
        const Mesh cpu = denseSphere(kDeformerRadiusCm, triangleCount);
        mesh = gpu::GpuMesh(cpu, "bench.dense");
        triangles = mesh.triangleCount();
        const float spots[4][2] = {{-200, -150}, {200, -150}, {-200, 150}, {200, 150}};
        for (int i = 0; i < count; ++i) {
            const glm::mat4 model = glm::translate(
                glm::mat4(1.0f), {spots[i % 4][0], spots[i % 4][1], kDeformerRadiusCm - 10.0f});
            instances.push_back(
                {&mesh, model, cpu.bounds().transformed(model), {}, ContactType::Other});
        }
    }
};

void drawCopy(Context& context, const gpu::Framebuffer& target, const gpu::Texture2D& source) {
    gpu::PassState pass = gpu::passInto(target);
    pass.program = context.copyProgram->id();
    gpu::beginPass(pass);
    glBindTextureUnit(0, source.id());
    glBindVertexArray(context.emptyArray.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

std::size_t fieldBytes(const SnowField& field) {
    std::size_t bytes = 0;
    for (int s = 0; s < SnowField::kSimCount; ++s)
        bytes += field.sim(s).bytes();
    for (int c = 0; c < field.captureCount(); ++c)
        bytes += field.capture(c).bytes();
    return bytes;
}

long long passTotal(const SnowField& field) {
    return field.passesRun().capture + field.passesRun().accumulate;
}

// The floor of screen-sized passes: a copy of an R16F buffer with as many texels as the screen
// has pixels (once per screen).
void screenCopyFloor(Context& context, const Screen& screen) {
    const std::string label = screen.label();
    if (context.harness.find("copy", "r16f", label))
        return;
    gpu::Texture2D source(screen.width, screen.height, gpu::TextureFormat::R16F, "bench.src");
    gpu::Texture2D target(screen.width, screen.height, gpu::TextureFormat::R16F, "bench.copy");
    gpu::Framebuffer framebuffer(&target, nullptr, "bench.copy");
    context.harness.run({"copy", "r16f", label, label,
                         static_cast<long long>(screen.width) * screen.height, "pixels"},
                        [&] { drawCopy(context, framebuffer, source); });
}

} // namespace

std::optional<std::string> prepare(Context& context) {
    auto copy = context.shaders.load(
        {"bench.copy",
         {{GL_VERTEX_SHADER, "common/fullscreen.vert"}, {GL_FRAGMENT_SHADER, "debug/copy.frag"}},
         {}});
    if (auto* error = std::get_if<std::string>(&copy))
        return *error;
    auto capture = context.shaders.load(contactCaptureProgram());
    if (auto* error = std::get_if<std::string>(&capture))
        return *error;
    context.copyProgram = std::get<gpu::ShaderProgram*>(copy);
    context.captureProgram = std::get<gpu::ShaderProgram*>(capture);
    context.emptyArray = gpu::VertexArray("bench.fullscreen");
    return std::nullopt;
}

std::optional<std::string> bufferCases(Context& context, int size) {
    Harness& h = context.harness;
    const std::string label = std::to_string(size);
    const long long texels = static_cast<long long>(size) * size;
    auto loaded = scenarioSettings(context, {"snow.resolution=" + label});
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    const Settings settings = std::get<Settings>(loaded);
    auto created = makeField(context, settings);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    SnowField& field = *std::get<0>(created);
    DenseDeformers one(kDenseTriangles, 1), four(kDenseTriangles, 4);
    const std::string oneLabel = "1x" + countLabel(kDenseTriangles);
    const std::string fourLabel = "4x" + countLabel(kDenseTriangles);
    field.step(four.instances, kDt); // prints in the buffer, a filled capture

    // The floor: read one R16F texel, write one, nothing else.
    gpu::Texture2D copyTarget(size, size, gpu::TextureFormat::R16F, "bench.copy");
    gpu::Framebuffer copyFramebuffer(&copyTarget, nullptr, "bench.copy");
    h.run({"copy", "r16f", label, label, texels},
          [&] { drawCopy(context, copyFramebuffer, field.sim(0).persistent()); });

    // VRAM: what the buffers really take against the table (R16F: 2 bytes a texel).
    const gpu::Texture2D& buffer = field.sim(0).persistent();
    context.memory.push_back(
        {{"size", size},
         {"format", gpu::formatInfo(buffer.format()).name},
         {"buffer_bytes", buffer.bytes()},
         {"expected_buffer_bytes", texels * gpu::formatInfo(buffer.format()).bytesPerTexel},
         {"field_bytes", fieldBytes(field)}});

    if (h.wants("clear")) {
        gpu::Texture2D depth(size, size, gpu::TextureFormat::D32F, "bench.depth");
        gpu::Framebuffer depthFramebuffer(nullptr, &depth, "bench.depth");
        gpu::PassState clear = gpu::passInto(depthFramebuffer);
        clear.clearDepth = 1.0f;
        h.run({"clear", "d32f", label, label, texels}, [&] { gpu::beginPass(clear); });
    }
    ContactCapture capture(simCaptureKey(settings, 0));
    if (h.wants("capture")) {
        h.run({"capture", oneLabel, label, label, texels},
              [&] { capture.capture(one.instances, *context.captureProgram); });
        h.cases().back().extra["triangles"] = one.triangles;
        h.run({"capture", fourLabel, label, label, texels},
              [&] { capture.capture(four.instances, *context.captureProgram); });
        h.cases().back().extra["triangles"] = 4 * four.triangles;
    }
    if (h.wants("accumulate")) {
        for (BufferFormat format : allValues<BufferFormat>())
            for (AccumulateMode mode : allValues<AccumulateMode>()) {
                Settings variant = settings;
                variant.sims[0].format = format;
                variant.sims[0].accumulate = mode;
                auto made = makeField(context, variant);
                if (auto* error = std::get_if<std::string>(&made))
                    return *error;
                SnowField& f = *std::get<0>(made);
                f.step(four.instances, kDt);
                const std::string name = fmt::format("{}_{}", toString(mode), toString(format));
                Case& c = h.run({"accumulate", name, label, label, texels},
                                [&] { f.sim(0).step(f.captureOf(0), kDt); });
                const gpu::TextureFormat got = f.sim(0).persistent().format();
                c.extra["buffer_format"] = gpu::formatInfo(got).name;
                if (format == BufferFormat::RGBA16F && got != gpu::TextureFormat::RGBA16F)
                    c.note = "rgba16f not in this build: ran r16f";
            }
    }
    if (h.wants("capture_accumulate")) {
        h.run({"capture_accumulate", fourLabel, label, label, texels}, [&] {
            capture.capture(four.instances, *context.captureProgram);
            field.sim(0).step(capture, kDt);
        });
    }
    if (h.wants("step_ab"))
        h.run({"step_ab", fourLabel, label, label, texels},
              [&] { field.step(four.instances, kDt); });

    // Blur modes with a pass of their own (per_pixel has none: it lives in the material).
    for (BlurMode mode : allValues<BlurMode>()) {
        const std::string pass = fmt::format("blur_{}", toString(mode));
        if (mode == BlurMode::PerPixel || !h.wants(pass))
            continue;
        Settings variant = settings;
        variant.sims[0].blur = mode;
        auto made = makeField(context, variant);
        if (auto* error = std::get_if<std::string>(&made))
            return *error;
        SnowField& f = *std::get<0>(made);
        f.step(four.instances, kDt);
        // A step makes the blurred copy stale; the blur pass brings it up to date.
        h.run(
            {pass, "pass", label, label, texels}, [&] { f.sim(0).blur(); },
            [&] { f.sim(0).step(f.captureOf(0), kDt); });
    }
    return std::nullopt;
}

std::optional<std::string> triangleCases(Context& context, int size,
                                         const std::vector<long long>& triangles) {
    Harness& h = context.harness;
    if (!h.wants("capture"))
        return std::nullopt;
    const std::string label = std::to_string(size);
    auto loaded = scenarioSettings(context, {"snow.resolution=" + label});
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    ContactCapture capture(simCaptureKey(std::get<Settings>(loaded), 0));
    for (long long count : triangles) {
        const std::string variant = "1x" + countLabel(count);
        if (h.find("capture", variant, label))
            continue;
        DenseDeformers one(static_cast<int>(count), 1);
        Case& c = h.run({"capture", variant, label, label, static_cast<long long>(size) * size},
                        [&] { capture.capture(one.instances, *context.captureProgram); });
        c.extra["triangles"] = one.triangles;
    }
    return std::nullopt;
}

std::optional<std::string> screenCases(Context& context, const std::vector<Screen>& screens,
                                       const Screen& psnrScreen) {
    Harness& h = context.harness;
    std::vector<BlurMode> blurs = allValues<BlurMode>();
    bool anyBlur = false;
    for (BlurMode mode : blurs)
        anyBlur |= h.wants(fmt::format("blur_{}", toString(mode)));
    if (!anyBlur && !h.wantsAny({"surface_vertex", "surface_tess"}))
        return std::nullopt;
    auto loaded = scenarioSettings(context, {});
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    Settings settings = std::get<Settings>(loaded);
    auto created = createSession(settings, context.shaders);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    Session& session = std::get<Session>(created);
    SnowField& field = *session.field;
    // 3 s of the scenario: the boot and the ball have left trails for the blur to work on.
    double time = 0.0;
    for (int i = 0; i < 180; ++i)
        field.step(session.deformers.instancesAt(time += kDt), kDt);
    const auto& instances = session.deformers.instancesAt(time);

    auto configure = [&](BlurMode blur, SurfaceGeometry geometry) -> std::optional<std::string> {
        Settings variant = settings;
        for (SimSettings& sim : variant.sims) {
            sim.blur = blur;
            sim.displacement = geometry;
        }
        return field.applySettings(variant);
    };
    for (const Screen& screen : screens) {
        const std::string label = screen.label();
        const long long pixels = static_cast<long long>(screen.width) * screen.height;
        screenCopyFloor(context, screen);

        gpu::Texture2D colour(screen.width, screen.height, gpu::TextureFormat::RGBA8, "bench.rgb");
        gpu::Texture2D depth(screen.width, screen.height, gpu::TextureFormat::D32F, "bench.z");
        gpu::Framebuffer framebuffer(&colour, &depth, "bench.view");
        // One sim's surface over the whole screen, without sky or deformers: a frame without a
        // step (its blur pass runs when a step has made the copy stale).
        auto drawSurface = [&] {
            FrameView view;
            view.request.framebuffer = framebuffer.id();
            view.request.viewportPx = {0, 0, screen.width, screen.height};
            view.request.camera =
                cameraFor(settings.view, field.sim(0).region(), settings.snow.surfaceZCm,
                          double(screen.width) / screen.height);
            view.request.drawSky = false;
            view.request.drawDeformers = false;
            runFrame(field, *session.renderer, {{}, 0.0, {{view}}});
        };
        // Geometry cost alone: the one-tap prepass input, blurred before timing starts.
        for (SurfaceGeometry geometry :
             {SurfaceGeometry::VertexGrid, SurfaceGeometry::Tessellation}) {
            const char* pass =
                geometry == SurfaceGeometry::VertexGrid ? "surface_vertex" : "surface_tess";
            if (!h.wants(pass))
                continue;
            if (auto error = configure(BlurMode::Prepass, geometry))
                return *error;
            field.sim(0).blur();
            h.run({pass, "prepass", label, label, pixels, "pixels"}, drawSurface);
        }
        // Each blur mode as the material uses it: the surface drawn with it, including the
        // mode's per-step work (a prepass re-runs after every step, as in a live frame).
        for (BlurMode mode : blurs) {
            const std::string pass = fmt::format("blur_{}", toString(mode));
            if (!h.wants(pass))
                continue;
            if (auto error = configure(mode, SurfaceGeometry::VertexGrid))
                return *error;
            std::function<void()> setup;
            if (mode != BlurMode::PerPixel)
                setup = [&] {
                    field.sim(0).step(field.captureOf(0), kDt);
                };
            h.run({pass, "surface", label, label, pixels, "pixels"}, drawSurface, setup);
        }
    }

    // Image quality of each blur mode against the UE-faithful per-pixel spiral: the lit A | B
    // frame as `render` writes it.
    if (anyBlur) {
        Settings view = settings;
        view.view.width = psnrScreen.width;
        view.view.height = psnrScreen.height;
        if (auto error = configure(BlurMode::PerPixel, SurfaceGeometry::VertexGrid))
            return *error;
        const ImageRgba8 reference = renderFinalImage(field, *session.renderer, instances, view);
        for (BlurMode mode : blurs) {
            if (mode == BlurMode::PerPixel)
                continue;
            if (auto error = configure(mode, SurfaceGeometry::VertexGrid))
                return *error;
            const ImageRgba8 image = renderFinalImage(field, *session.renderer, instances, view);
            const double psnr = psnrRgb(reference.pixels, image.pixels);
            for (Case& c : h.cases())
                if (c.pass == fmt::format("blur_{}", toString(mode)) && c.variant == "surface" &&
                    c.size == psnrScreen.label())
                    c.extra["psnr_db_vs_per_pixel"] = psnr;
            context.notes.push_back(fmt::format("blur {} vs per_pixel at {}: PSNR {:.2f} dB",
                                                toString(mode), psnrScreen.label(), psnr));
        }
    }
    return std::nullopt;
}

std::optional<std::string> gridCases(Context& context, const Screen& screen,
                                     const std::vector<int>& resolutions) {
    Harness& h = context.harness;
    if (!h.wants("surface_vertex"))
        return std::nullopt;
    screenCopyFloor(context, screen);
    const std::string label = screen.label();
    for (int resolution : resolutions) {
        // The grid follows the buffer (SnowSurfacePass::gridCellsFor); the blur is the
        // one-tap prepass so that only geometry and shading change.
        auto loaded = scenarioSettings(
            context, {fmt::format("snow.resolution={}", resolution), "sim.a.blur=prepass"});
        if (auto* error = std::get_if<std::string>(&loaded))
            return *error;
        const Settings settings = std::get<Settings>(loaded);
        auto created = createSession(settings, context.shaders);
        if (auto* error = std::get_if<std::string>(&created))
            return *error;
        Session& session = std::get<Session>(created);
        SnowField& field = *session.field;
        field.step(session.deformers.instancesAt(1.0), kDt);
        field.sim(0).blur();
        const int cells = SnowSurfacePass::gridCellsFor(field.sim(0).region().resolution);
        gpu::Texture2D colour(screen.width, screen.height, gpu::TextureFormat::RGBA8, "bench.rgb");
        gpu::Texture2D depth(screen.width, screen.height, gpu::TextureFormat::D32F, "bench.z");
        gpu::Framebuffer framebuffer(&colour, &depth, "bench.grid");
        Case& c = h.run({"surface_vertex", fmt::format("grid{}", cells), label, label,
                         static_cast<long long>(screen.width) * screen.height, "pixels"},
                        [&] {
                            FrameView view;
                            view.request.framebuffer = framebuffer.id();
                            view.request.viewportPx = {0, 0, screen.width, screen.height};
                            view.request.camera = cameraFor(settings.view, field.sim(0).region(),
                                                            settings.snow.surfaceZCm,
                                                            double(screen.width) / screen.height);
                            view.request.drawSky = false;
                            view.request.drawDeformers = false;
                            runFrame(field, *session.renderer, {{}, 0.0, {{view}}});
                        });
        c.extra["grid_vertices"] = static_cast<long long>(cells + 1) * (cells + 1);
    }
    return std::nullopt;
}

namespace {

// Times whole A/B frames (step + both views) of one session; returns the case with the snow
// passes per frame and the snow bytes it holds.
std::optional<std::string> timeFrames(Context& context, const CaseSpec& spec, Settings settings,
                                      int prerollFrames) {
    auto created = createSession(settings, context.shaders);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    Session& session = std::get<Session>(created);
    SnowField& field = *session.field;
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
    auto stepAndDraw = [&](std::map<std::string, double>* breakdown) {
        time = time + kDt > loop ? 0.0 : time + kDt;
        const auto before = std::chrono::steady_clock::now();
        const auto& instances = session.deformers.instancesAt(time);
        gpu::PassTimer timer(gpu::TimingMethod::Serialized); // this frame's passes only
        if (breakdown)
            (*breakdown)["deformers.pose"] +=
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before)
                    .count();
        runFrame(field, *session.renderer, {instances, kDt, {views}}, breakdown ? &timer : nullptr);
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
        if (auto error = timeFrames(
                context, {"frame_ab", "default", label, label, pixels, "pixels", true}, viewer, 0))
            return error;
        Settings faithful = settings;
        for (SimSettings& sim : faithful.sims)
            sim.blur = BlurMode::PerPixel;
        if (auto error =
                timeFrames(context, {"frame_ab", "per_pixel", label, label, pixels, "pixels", true},
                           faithful, 0))
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
