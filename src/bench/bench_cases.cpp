#include "bench/bench_cases.hpp"

#include "bench/case_support.hpp"
#include "core/config.hpp"
#include "core/quality.hpp"
#include "gpu/binding_slots.hpp"
#include "gpu/pass_state.hpp"
#include "lab/run_pictures.hpp"
#include "lab/session.hpp"
#include "render/frame.hpp"
#include "render/view_params.hpp"
#include "snow/snow_field.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <functional>
#include <glm/gtc/matrix_transform.hpp>
#include <map>

namespace snowcap::bench {

namespace {

constexpr int kDenseTriangles = 50000;
constexpr float kDeformerRadiusCm = 40.0f;

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

} // namespace

void drawCopy(Context& context, const gpu::Framebuffer& target, const gpu::Texture2D& source) {
    gpu::PassState pass = gpu::passInto(target);
    pass.program = context.copyProgram->id();
    gpu::beginPass(pass);
    glBindTextureUnit(gpu::slot::kDebugSource, source.id());
    glBindVertexArray(context.emptyArray.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

std::variant<Settings, std::string> scenarioSettings(const Context& context,
                                                     const std::vector<std::string>& caseKeys) {
    std::vector<std::string> overrides = context.overrides;
    overrides.insert(overrides.end(), caseKeys.begin(), caseKeys.end());
    auto loaded = loadScenarioSettings(kScenario, overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded))
        return error->message;
    return std::get<Settings>(loaded);
}

std::variant<SizedScenario, std::string> sizedScenario(const Context& context, int size,
                                                       std::vector<std::string> caseKeys) {
    SizedScenario sized;
    sized.label = std::to_string(size);
    sized.texels = static_cast<long long>(size) * size;
    caseKeys.insert(caseKeys.begin(), "snow.resolution=" + sized.label);
    auto loaded = scenarioSettings(context, caseKeys);
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    sized.settings = std::get<Settings>(std::move(loaded));
    return sized;
}

std::variant<ScenarioSession, std::string>
scenarioSession(const Context& context, const std::vector<std::string>& caseKeys) {
    auto loaded = scenarioSettings(context, caseKeys);
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    auto created = createSession(std::get<Settings>(loaded), context.shaders);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    return ScenarioSession{std::get<Settings>(std::move(loaded)),
                           std::get<Session>(std::move(created))};
}

std::size_t fieldBytes(const SnowField& field) {
    std::size_t bytes = 0;
    for (int s = 0; s < field.simCount(); ++s)
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

namespace {

// One snowpack step (classify, settle + compact, plough scatter and resolve, slump at 60
// fps: sixteen iterations every step at the default 960 Hz) on the prints' capture,
// against the copy. The deformers stand still, so after the warm-up the step's active tiles are
// the capture's (docs/snowpack.md, section 3): `step`. `all_tiles` runs every pass on every
// tile (the passes as they were before the tiles); `settle_tick` is a step with a settling
// tick, which compacts every tile (once a second at the default settle_interval_s).
std::optional<std::string> snowpackStepCases(Context& context, const Settings& settings,
                                             SnowField& field, const std::string& label,
                                             long long texels) {
    Harness& h = context.harness;
    struct SnowpackVariant {
        const char* name;
        bool activeTiles;
        bool settleEveryStep;
    };
    for (const SnowpackVariant v :
         {SnowpackVariant{"step", true, false}, SnowpackVariant{"all_tiles", false, false},
          SnowpackVariant{"settle_tick", true, true}}) {
        if (!h.wants("snowpack", v.name))
            continue;
        SnowpackSettings snowpackSettings = settings.sims[0].snowpack;
        if (v.settleEveryStep)
            snowpackSettings.settleIntervalS = kDt;
        SnowpackSim snowpack;
        Region region = simRegion(settings, 0);
        if (auto error = snowpack.configure(snowpackSettings, region, settings.snow.captureZCm,
                                            settings.capture.farCm, context.shaders))
            return *error;
        snowpack.setActiveTiles(v.activeTiles);
        Case& c = h.run({"snowpack", v.name, label, label, texels},
                        [&] { snowpack.step(field.captureOf(0).depth(), kDt); });
        const SnowpackSim::TileCounts tiles = snowpack.lastTileCounts();
        c.extra["tiles"] = tiles.total;
        c.extra["tiles_compacted"] = tiles.compact;
        c.extra["tiles_slumped_last_iteration"] = tiles.slumpLast;
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> bufferCases(Context& context, int size) {
    Harness& h = context.harness;
    auto sized = sizedScenario(context, size);
    if (auto* error = std::get_if<std::string>(&sized))
        return *error;
    const auto& [label, texels, settings] = std::get<SizedScenario>(sized);
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

    if (auto error = snowpackStepCases(context, settings, field, label, texels))
        return error;

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
    auto sized = sizedScenario(context, size);
    if (auto* error = std::get_if<std::string>(&sized))
        return *error;
    const std::string& label = std::get<SizedScenario>(sized).label;
    ContactCapture capture(simCaptureKey(std::get<SizedScenario>(sized).settings, 0));
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
    auto made = scenarioSession(context, {});
    if (auto* error = std::get_if<std::string>(&made))
        return *error;
    auto& [settings, session] = std::get<ScenarioSession>(made);
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
        auto made = scenarioSession(
            context, {fmt::format("snow.resolution={}", resolution), "sim.a.blur=prepass"});
        if (auto* error = std::get_if<std::string>(&made))
            return *error;
        auto& [settings, session] = std::get<ScenarioSession>(made);
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

} // namespace snowcap::bench
