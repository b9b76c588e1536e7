// `snowcap render`: a scenario at a fixed time step in a headless context; writes stats.json,
// the persistent buffers and the capture depth as PFM, and final.png.
#include "app/commands.hpp"
#include "core/config.hpp"
#include "gpu/half_store_probe.hpp"
#include "gpu/shader_library.hpp"
#include "lab/lab.hpp"
#include "lab/run_outputs.hpp"
#include "lab/session.hpp"
#include "lab/soak.hpp"
#include "lab/world_io.hpp"
#include "platform/gl_context.hpp"
#include "render/deformer_set.hpp"
#include "snow/snow_field.hpp"
#include "viewer/viewer_frame.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

// A terminal progress line for runs longer than a moment, redrawn at most 4 times a second.
class Progress {
public:
    Progress(bool enabled, int total) : enabled_(enabled), total_(total) {}
    void update(int done) {
        if (!enabled_)
            return;
        const auto now = std::chrono::steady_clock::now();
        const double elapsed = std::chrono::duration<double>(now - start_).count();
        if (elapsed < 1.5 || now - lastDraw_ < std::chrono::milliseconds(250))
            return;
        lastDraw_ = now;
        const double rate = done / elapsed;
        std::fprintf(stderr, "\rrender: step %d/%d  %.0f steps/s  ~%.0f s left   ", done, total_,
                     rate, (total_ - done) / std::max(rate, 1e-9));
        drawn_ = true;
    }
    ~Progress() {
        if (drawn_)
            std::fprintf(stderr, "\n");
    }

private:
    bool enabled_;
    int total_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point lastDraw_{};
};

SurfaceOutput surfaceOutputNamed(const std::string& stage) {
    if (stage == "persistent")
        return SurfaceOutput::Persistent;
    if (stage == "mask")
        return SurfaceOutput::SnowMask;
    if (stage == "height")
        return SurfaceOutput::Height;
    if (stage == "normal")
        return SurfaceOutput::Normal;
    if (stage == "albedo")
        return SurfaceOutput::Albedo;
    if (stage == "occlusion")
        return SurfaceOutput::Occlusion;
    if (stage == "roughness")
        return SurfaceOutput::Roughness;
    if (stage == "specular")
        return SurfaceOutput::Specular;
    if (stage == "shadow")
        return SurfaceOutput::Shadow;
    if (stage == "sparkle")
        return SurfaceOutput::SparkleSeed;
    return SurfaceOutput::Lit;
}

} // namespace

int runRender(const CommonOptions& common, const RenderOptions& options) {
    auto loaded = loadScenarioSettings(options.scenario, common.overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    Settings settings = std::get<Settings>(loaded);
    if (options.frames > 0)
        settings.run.frames = options.frames;
    else if (settings.run.durationS > 0.0)
        settings.run.frames =
            static_cast<int>(std::ceil(settings.run.durationS * settings.run.fps));
    if (!options.view.empty())
        settings.view.mode = options.view == "top" ? ViewMode::Top : ViewMode::Perspective;
    const SurfaceOutput output = surfaceOutputNamed(options.stage);
    const double dt = 1.0 / settings.run.fps;

    auto context = HeadlessContext::create(common.debugGl);
    if (auto* error = std::get_if<ContextError>(&context)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    GlInfo glInfo = std::get<0>(context)->info();

    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto rounding = gpu::detectHalfStoreRounding(shaders);
    glInfo.halfStoreRounding = std::holds_alternative<HalfRounding>(rounding)
                                   ? toString(std::get<HalfRounding>(rounding))
                                   : std::get<std::string>(rounding);
    auto created = Lab::create(settings, options.scenario, common.overrides, glInfo.renderer);
    if (auto* error = std::get_if<std::string>(&created)) {
        spdlog::error("{}", *error);
        return 2;
    }
    Lab& lab = *std::get<0>(created);
    SnowField& field = lab.field();
    SceneRenderer& renderer = lab.renderer();
    // --ui: the images are the viewer's frame (panes + panels), drawn by ImGui's OpenGL3
    // backend on this headless context.
    std::unique_ptr<HeadlessUi> ui;
    if (options.ui) {
        auto made = HeadlessUi::create(lab, options.panels.empty() ? "sims" : options.panels,
                                       options.layout, options.probeCm, glInfo.renderer);
        if (auto* error = std::get_if<std::string>(&made)) {
            spdlog::error("{}", *error);
            return 2;
        }
        ui = std::move(std::get<0>(made));
    }
    auto writeImage =
        [&](const fs::path& path,
            const std::vector<DeformerInstance>& instances) -> std::optional<std::string> {
        if (ui)
            return writePng(path, ui->render(lab, settings.view.width, settings.view.height, dt));
        return writeFinalImage(field, renderer, instances, settings, path, output);
    };

    std::error_code ec;
    fs::create_directories(options.outDir, ec);
    if (ec) {
        spdlog::error("{}: cannot create output directory ({})", options.outDir.string(),
                      ec.message());
        return 2;
    }

    if (!options.worldIn.empty())
        if (auto error = loadWorld(field, options.worldIn)) {
            spdlog::error("{}", *error);
            return 2;
        }
    if (settings.soak.enabled) // [soak]: the long randomised run of docs/reliability.md
        return runSoak(settings, lab, options.outDir);

    lab.setTiming(ui != nullptr); // only the Timings panel reads the timer
    RunRecorder recorder(settings, field);
    const int frames = settings.run.frames;
    Progress progress(options.progress && isatty(STDERR_FILENO), frames);
    const auto start = std::chrono::steady_clock::now();
    for (int frame = 0; frame < frames; ++frame) {
        const double time = (frame + 1) * dt; // the state at the end of this step
        if (ui)
            lab.timer().beginFrame();
        lab.stepTo(time, dt);
        if (ui)
            ui->afterStep(lab, dt);
        recorder.recordProbes(field);
        if (options.every > 0 && (frame + 1) % options.every == 0 && frame + 1 < frames) {
            const fs::path image = options.outDir / fmt::format("frame_{:06d}.png", frame + 1);
            // A directory that stops taking files (full, read-only) gets one line, not one per
            // frame for the rest of the run: stop, with every file written so far whole.
            if (auto error = writeImage(image, lab.instances())) {
                spdlog::error("{}", *error);
                return 1;
            }
        }
        progress.update(frame + 1);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const auto& finalInstances = lab.instances(); // the clock ends at frames * dt
    if (auto error = writeRunOutputs(options.outDir, settings, glInfo, field, recorder, renderer,
                                     finalInstances, output, seconds)) {
        spdlog::error("{}", *error);
        return 1;
    }
    if (ui)
        if (auto error = writeImage(options.outDir / "final.png", finalInstances)) {
            spdlog::error("{}", *error);
            return 1;
        }
    if (!options.worldOut.empty())
        if (auto error = saveWorld(field, options.worldOut)) {
            spdlog::error("{}", *error);
            return 1;
        }
    spdlog::info("{} steps in {:.2f} s; wrote {}", frames, seconds,
                 (options.outDir / "final.png").string());
    return 0;
}

} // namespace snowcap
