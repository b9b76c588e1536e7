// `snowcap render`: a scenario at a fixed time step in a headless context; writes stats.json,
// the persistent buffers and the capture depth as PFM, and final.png.
#include "app/commands.hpp"
#include "core/config.hpp"
#include "core/quality.hpp"
#include "core/untrusted_file.hpp"
#include "gpu/half_store_probe.hpp"
#include "gpu/shader_library.hpp"
#include "lab/lab.hpp"
#include "lab/progress.hpp"
#include "lab/run_guard.hpp"
#include "lab/run_outputs.hpp"
#include "lab/run_pictures.hpp"
#include "lab/session.hpp"
#include "lab/soak.hpp"
#include "lab/video.hpp"
#include "lab/world_io.hpp"
#include "net/client.hpp"
#include "net/replay.hpp"
#include "platform/gl_context.hpp"
#include "render/deformer_set.hpp"
#include "snow/snow_field.hpp"
#include "viewer/viewer_frame.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

// The video's corner: the simulated time and each probe's value in each sim now.
std::vector<std::string> videoOverlay(double timeS, const RunRecorder& recorder) {
    std::vector<std::string> lines{fmt::format("t = {:.3f} s", timeS)};
    for (const auto& probe : recorder.probes()) {
        std::string line = probe.name + ":";
        for (std::size_t s = 0; s < probe.values.size(); ++s)
            line += fmt::format("  {} {:.4f}", static_cast<char>('A' + s), probe.values[s].back());
        lines.push_back(std::move(line));
    }
    return lines;
}

// Drawing every video frame at the material's full quality costs seconds each on a CPU
// rasteriser: say what the whole video will take, and how to make it cheaper, when that is long.
// The suggestions read the command's own flags: a rung only when the run is above the cheapest,
// and the --video-every that brings the whole under two minutes, against the one it has.
void warnIfVideoIsSlow(std::chrono::steady_clock::duration firstFrame, int videoFrames,
                       int videoEvery, int totalFrames, const Settings& settings) {
    const double perFrameS = std::chrono::duration<double>(firstFrame).count();
    const double estimateS = perFrameS * videoFrames;
    if (estimateS < 120.0)
        return;
    std::vector<std::string> cheaper;
    if (settings.snow.quality == Quality::Custom || settings.snow.quality > Quality::Low)
        cheaper.push_back(
            fmt::format("--set snow.quality=low (this run: {})", toString(settings.snow.quality)));
    const int every = static_cast<int>(std::ceil(videoEvery * estimateS / 110.0));
    if (every < totalFrames)
        cheaper.push_back(fmt::format("--video-every {} (this run: {}) takes about {:.1f} min",
                                      every, videoEvery, perFrameS * (totalFrames / every) / 60.0));
    if (settings.view.width > 640)
        cheaper.push_back(fmt::format("--size 640 360 (this run: {} {})", settings.view.width,
                                      settings.view.height));
    std::string advice;
    for (const std::string& item : cheaper)
        advice += (advice.empty() ? "; cheaper: " : "; ") + item;
    spdlog::warn("video: {} frames at about {:.2f} s each, about {:.0f} min in all{}", videoFrames,
                 perFrameS, estimateS / 60.0, advice);
}

// On a CPU rasteriser render starts on the rung the viewer starts on (kLlvmpipeStartQuality):
// the scenario's own material costs seconds a frame there. Not when the scenario or a --set
// names snow.quality itself (custom included), not where the rung would make a buffer larger
// than the scenario's (press_release's 64^2 would become 512^2: a cheaper picture but a sim 64
// times the size), not for runs tied to a buffer size (a world file in or out, the soak), and
// not when the sims differ in a key the rung sets alike for all (blur_compare's per_pixel
// against prepass): a cheaper run that compares nothing is no saving. One line says which rung
// runs and how to have the scenario's own, and one names every key the scenario set that the
// rung replaces, with both values.
void applyLlvmpipeStartRung(Settings& settings, const GlInfo& glInfo, const CommonOptions& common,
                            const RenderOptions& options) {
    if (!glInfo.isLlvmpipe() || settings.snow.quality != Quality::Custom || settings.soak.enabled ||
        !options.worldIn.empty() || !options.worldOut.empty())
        return;
    const QualityRung rung = qualityRung(kLlvmpipeStartQuality);
    for (const SimSettings& sim : settings.sims)
        if ((sim.resolution > 0 ? sim.resolution : settings.snow.resolution) < rung.resolution)
            return;
    const std::string origin =
        scenarioKeyOrigin({options.scenario, common.overrides}, "snow.quality");
    if (origin.empty() || origin.find("config/default.toml") == std::string::npos)
        return; // the scenario or a --set chose custom
    if (auto refusal = startRungRefusal(settings)) {
        spdlog::info("llvmpipe: {}", *refusal);
        return;
    }
    const auto replaced = rungReplacesNote(settings, kLlvmpipeStartQuality);
    settings.snow.quality = kLlvmpipeStartQuality;
    spdlog::info("llvmpipe: snow.quality = {} ({}^2 texels, {} blur), as the viewer starts; "
                 "--set snow.quality=custom runs the scenario's own settings",
                 toString(kLlvmpipeStartQuality), rung.resolution, toString(rung.blur));
    if (replaced)
        spdlog::info("llvmpipe: {}", *replaced);
}

} // namespace

int runRender(const CommonOptions& common, const RenderOptions& options) {
    if (!options.connect.empty())
        return net::runConnect(common, {.hostPort = options.connect,
                                        .frames = options.frames,
                                        .outDir = options.outDir,
                                        .playerInputLength = options.liePlayerInput,
                                        .stampOffset = options.lieStampOffset});
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
    // The files the command line names are checked before the GL context exists: a bad one
    // costs milliseconds, and a --world-out that cannot be written is found before the run.
    std::optional<WorldFile> worldIn;
    if (!options.worldIn.empty() || !options.worldOut.empty())
        if (auto refusal = worldFileRefusal(settings)) {
            spdlog::error("{}", *refusal);
            return 2;
        }
    if (!options.worldIn.empty()) {
        auto read = readWorldInput(settings, options.worldIn);
        if (auto* error = std::get_if<std::string>(&read)) {
            spdlog::error("{}", *error);
            return 2;
        }
        worldIn = std::move(std::get<WorldFile>(read));
    }
    if (!options.worldOut.empty())
        if (auto error = checkWorldOutput(options.worldOut)) {
            spdlog::error("{}", *error);
            return 2;
        }
    if (!options.video.empty()) // a FIFO, a device or a link is never replaced by the video
        if (auto refused = checkReplaceable(options.video)) {
            spdlog::error("{}", *refused);
            return 2;
        }

    // One run at a time per directory; run.json is written last (lab/run_guard.hpp).
    auto guarded = RunGuard::createAndTake(options.outDir);
    if (auto* error = std::get_if<std::string>(&guarded)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const RunGuard& guard = std::get<RunGuard>(guarded);
    RunGuard::catchInterrupts();

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
    const Quality loadedQuality = settings.snow.quality;
    applyLlvmpipeStartRung(settings, glInfo, common, options);
    if (auto note = voidedComparisonNote(settings))
        spdlog::warn("{}", *note);
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

    if (worldIn)
        if (auto error = applyWorldInput(field, *worldIn, options.worldIn)) {
            spdlog::error("{}", *error);
            return 2;
        }
    if (settings.soak.enabled) { // [soak]: the long randomised run of docs/reliability.md
        guard.begin();
        return runSoak(settings, lab, options.outDir, progressModeForStderr(options.progress));
    }

    lab.setTiming(ui != nullptr); // only the Timings panel reads the timer
    RunRecorder recorder(settings, field);
    const int frames = settings.run.frames;
    // --record-inputs: what moves the snow, step by step, for `snowcap replay`; the rung chosen
    // above travels as the --set it amounts to.
    std::unique_ptr<net::InputRecorder> inputRecord;
    if (!options.recordInputs.empty()) {
        if (auto refusal = net::replicationRefusal(settings)) {
            spdlog::error("--record-inputs: {}", *refusal);
            return 2;
        }
        std::vector<std::string> overrides = common.overrides;
        if (settings.snow.quality != loadedQuality)
            overrides.push_back("snow.quality=" + std::string(toString(settings.snow.quality)));
        inputRecord =
            std::make_unique<net::InputRecorder>(lab, options.scenario, overrides, frames);
    }
    // --video: every K-th step's image at fps / K, so the video lasts the simulated time. With
    // no K given, 30 frames per second of the run: a 60 fps scenario records every other step.
    const int videoEvery =
        options.videoEvery > 0
            ? options.videoEvery
            : std::max(1, static_cast<int>(std::lround(settings.run.fps / 30.0)));
    std::unique_ptr<VideoWriter> video;
    if (!options.video.empty()) {
        auto opened =
            VideoWriter::open(options.video, settings.view.width, settings.view.height,
                              settings.run.fps / videoEvery, frames / videoEvery, options.progress);
        if (auto* error = std::get_if<std::string>(&opened)) {
            spdlog::error("{}", *error);
            return 2;
        }
        video = std::move(std::get<0>(opened));
    }
    // Every input is checked (the lab built, its meshes, bodies and ground read, the video
    // started): only now does the last complete run stop being one.
    guard.begin();
    ProgressReporter progress({.mode = progressModeForStderr(options.progress),
                               .label = "render",
                               .total = frames,
                               .simulatedTotalS = frames * dt},
                              std::cerr);
    std::vector<fs::path> frameImages; // --every
    // run.final_at_s: final.png shows the scenario's telling moment (a print half faded) when
    // the run goes on past it; a run that ends before it shows its end.
    const int tellingStep =
        settings.run.finalAtS > 0.0 ? static_cast<int>(std::lround(settings.run.finalAtS / dt)) : 0;
    std::optional<ImageRgba8> telling;
    const auto start = std::chrono::steady_clock::now();
    for (int frame = 0; frame < frames; ++frame) {
        if (const int signal = RunGuard::interruptedBy()) {
            spdlog::error("{}", RunGuard::interruptedNote("render", options.outDir, signal));
            return 128 + signal;
        }
        const double time = (frame + 1) * dt; // the state at the end of this step
        if (ui)
            lab.timer().beginFrame();
        lab.stepTo(time, dt);
        if (inputRecord)
            inputRecord->afterStep(static_cast<std::uint32_t>(frame + 1));
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
            frameImages.push_back(image);
        }
        if (frame + 1 == tellingStep && tellingStep < frames)
            telling = ui ? ui->render(lab, settings.view.width, settings.view.height, dt)
                         : renderFinalImage(field, renderer, lab.instances(), settings, output);
        if (video && (frame + 1) % videoEvery == 0) {
            const auto drawStart = std::chrono::steady_clock::now();
            ImageRgba8 image =
                ui ? ui->render(lab, settings.view.width, settings.view.height, dt)
                   : renderFinalImage(field, renderer, lab.instances(), settings, output);
            drawOverlay(image, videoOverlay(time, recorder));
            if (auto error = video->write(image)) {
                spdlog::error("{}", *error);
                return 1;
            }
            if (video->frames() == 1) // the first video frame tells what the whole video costs
                warnIfVideoIsSlow(std::chrono::steady_clock::now() - drawStart, frames / videoEvery,
                                  videoEvery, frames, settings);
        }
        progress.update(frame + 1, time);
    }
    if (video) {
        if (auto error = video->finish()) {
            spdlog::error("{}", *error);
            return 1;
        }
        spdlog::info("wrote {}: {} frames at {:g} fps ({:.3f} s)", options.video.string(),
                     video->frames(), settings.run.fps / videoEvery,
                     video->frames() * videoEvery / settings.run.fps);
    }
    const auto loopEnd = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(loopEnd - start).count();
    progress.finish();

    std::vector<fs::path> written;
    const auto& finalInstances = lab.instances(); // the clock ends at frames * dt
    if (auto error =
            writeRunOutputs(options.outDir, settings, glInfo, field, recorder, renderer,
                            finalInstances, output, seconds, &written, lab.physicsReport())) {
        spdlog::error("{}", *error);
        return 1;
    }
    if (telling) {
        if (auto error = writePng(options.outDir / "final.png", *telling)) {
            spdlog::error("{}", *error);
            return 1;
        }
        spdlog::info("final.png: t = {:.2f} s (run.final_at_s), not the end ({:.2f} s)",
                     tellingStep * dt, frames * dt);
    } else if (ui) {
        if (auto error = writeImage(options.outDir / "final.png", finalInstances)) {
            spdlog::error("{}", *error);
            return 1;
        }
    }
    // The last interrupt check comes before the world file: an interrupted run leaves the
    // previous world file as it was. From here the run completes (the world is written
    // atomically, then run.json), so a signal arriving now finds it finishing.
    if (const int signal = RunGuard::interruptedBy()) {
        spdlog::error("{}", RunGuard::interruptedNote("render", options.outDir, signal));
        return 128 + signal;
    }
    if (!options.worldOut.empty()) {
        if (auto error = saveWorld(field, options.worldOut)) {
            spdlog::error("{}", *error);
            return 1;
        }
        written.push_back(options.worldOut);
    }
    if (inputRecord) {
        if (auto error =
                inputRecord->write(options.recordInputs, static_cast<std::uint32_t>(frames))) {
            spdlog::error("{}", *error);
            return 1;
        }
        written.push_back(options.recordInputs);
    }
    if (auto error = guard.publish("render")) {
        spdlog::error("{}", *error);
        return 1;
    }
    written.push_back(options.outDir / "run.json");
    if (video)
        written.push_back(options.video);
    if (!frameImages.empty()) // named as a range, not one by one
        written.push_back(
            frameImages.size() == 1
                ? frameImages.front()
                : options.outDir /
                      fmt::format("{} .. {} ({} frames)", frameImages.front().filename().string(),
                                  frameImages.back().filename().string(), frameImages.size()));
    // After the progress line's 100 %: the outputs' time, so a long silence has its figure.
    const double writing =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - loopEnd).count();
    if (options.closingLine) {
        // By how much, in words: each sim's figure as its pane in final.png gives it.
        for (const std::string& line : simFigureLines(field, settings.run.fps))
            spdlog::info("{}", line);
        spdlog::info("render: {} steps in {:.2f} s, then {:.2f} s writing; wrote {}", frames,
                     seconds, writing, outputList(options.outDir, written));
    }
    return 0;
}

} // namespace snowcap
