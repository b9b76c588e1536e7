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

// What the command line names, read and checked before the GL context exists: a bad file
// costs milliseconds, and a --world-out that cannot be written is found before the run.
struct RenderInputs {
    Settings settings;
    std::optional<WorldFile> worldIn;
};

// The inputs, or the exit code of a refusal (its one line already logged).
std::variant<RenderInputs, int> readRenderInputs(const CommonOptions& common,
                                                 const RenderOptions& options) {
    auto loaded = loadScenarioSettings(options.scenario, common.overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    RenderInputs inputs{.settings = std::get<Settings>(loaded), .worldIn = std::nullopt};
    Settings& settings = inputs.settings;
    if (options.frames > 0)
        settings.run.frames = options.frames;
    else if (settings.run.durationS > 0.0)
        settings.run.frames =
            static_cast<int>(std::ceil(settings.run.durationS * settings.run.fps));
    if (!options.view.empty())
        settings.view.mode = options.view == "top" ? ViewMode::Top : ViewMode::Perspective;
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
        inputs.worldIn = std::move(std::get<WorldFile>(read));
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
    return inputs;
}

// One render once its lab exists: the recorders it keeps, the step loop, and what it writes.
// Every member function returns the command's exit code, 0 to go on.
class RenderRun {
public:
    RenderRun(const CommonOptions& common, const RenderOptions& options, const Settings& settings,
              const GlInfo& glInfo, Lab& lab, HeadlessUi* ui)
        : common_(common), options_(options), settings_(settings), glInfo_(glInfo), lab_(lab),
          ui_(ui), recorder_(settings, lab.field()), output_(surfaceOutputNamed(options.stage)),
          dt_(1.0 / settings.run.fps), frames_(settings.run.frames),
          tellingStep_(settings.run.finalAtS > 0.0
                           ? static_cast<int>(std::lround(settings.run.finalAtS * settings.run.fps))
                           : 0) {}

    int run(const RunGuard& guard, Quality loadedQuality) {
        if (const int code = openRecorders(loadedQuality))
            return code;
        // Every input is checked (the lab built, its meshes, bodies and ground read, the video
        // started): only now does the last complete run stop being one.
        guard.begin();
        const auto start = std::chrono::steady_clock::now();
        if (const int code = stepAll())
            return code;
        if (video_) {
            if (auto error = video_->finish()) {
                spdlog::error("{}", *error);
                return 1;
            }
            spdlog::info("wrote {}: {} frames at {:g} fps ({:.3f} s)", options_.video.string(),
                         video_->frames(), settings_.run.fps / videoEvery_,
                         video_->frames() * videoEvery_ / settings_.run.fps);
        }
        const auto loopEnd = std::chrono::steady_clock::now();
        const double seconds = std::chrono::duration<double>(loopEnd - start).count();
        progress_->finish();
        return writeOutputs(guard, seconds, loopEnd);
    }

private:
    // --record-inputs and --video, opened before the run begins.
    int openRecorders(Quality loadedQuality) {
        // --record-inputs: what moves the snow, step by step, for `snowcap replay`; the rung
        // chosen before the lab travels as the --set it amounts to.
        if (!options_.recordInputs.empty()) {
            if (auto refusal = net::replicationRefusal(settings_)) {
                spdlog::error("--record-inputs: {}", *refusal);
                return 2;
            }
            std::vector<std::string> overrides = common_.overrides;
            if (settings_.snow.quality != loadedQuality)
                overrides.push_back("snow.quality=" +
                                    std::string(toString(settings_.snow.quality)));
            inputRecord_ =
                std::make_unique<net::InputRecorder>(lab_, options_.scenario, overrides, frames_);
        }
        // --video: every K-th step's image at fps / K, so the video lasts the simulated time.
        // With no K given, 30 frames per second of the run: a 60 fps scenario records every
        // other step.
        videoEvery_ = options_.videoEvery > 0
                          ? options_.videoEvery
                          : std::max(1, static_cast<int>(std::lround(settings_.run.fps / 30.0)));
        if (!options_.video.empty()) {
            auto opened = VideoWriter::open(options_.video, settings_.view.width,
                                            settings_.view.height, settings_.run.fps / videoEvery_,
                                            frames_ / videoEvery_, options_.progress);
            if (auto* error = std::get_if<std::string>(&opened)) {
                spdlog::error("{}", *error);
                return 2;
            }
            video_ = std::move(std::get<0>(opened));
        }
        return 0;
    }

    std::optional<std::string> writeImage(const fs::path& path,
                                          const std::vector<DeformerInstance>& instances) {
        if (ui_)
            return writePng(path,
                            ui_->render(lab_, settings_.view.width, settings_.view.height, dt_));
        return writeFinalImage(lab_.field(), lab_.renderer(), instances, settings_, path, output_);
    }

    int stepAll() {
        progress_.emplace(ProgressOptions{.mode = progressModeForStderr(options_.progress),
                                          .label = "render",
                                          .total = frames_,
                                          .simulatedTotalS = frames_ * dt_},
                          std::cerr);
        for (int frame = 0; frame < frames_; ++frame) {
            if (const int signal = RunGuard::interruptedBy()) {
                spdlog::error("{}", RunGuard::interruptedNote("render", options_.outDir, signal));
                return 128 + signal;
            }
            const double time = (frame + 1) * dt_; // the state at the end of this step
            if (ui_)
                lab_.timer().beginFrame();
            lab_.stepTo(time, dt_);
            if (inputRecord_)
                inputRecord_->afterStep(static_cast<std::uint32_t>(frame + 1));
            if (ui_)
                ui_->afterStep(lab_, dt_);
            recorder_.recordProbes(lab_.field());
            if (const int code = writeStepImages(frame, time))
                return code;
            if (frame + 1 == tellingStep_ && tellingStep_ < frames_)
                telling_ = ui_ ? ui_->render(lab_, settings_.view.width, settings_.view.height, dt_)
                               : renderFinalImage(lab_.field(), lab_.renderer(), lab_.instances(),
                                                  settings_, output_);
            progress_->update(frame + 1, time);
        }
        return 0;
    }

    // The step's --every image and video frame, where it has them.
    int writeStepImages(int frame, double time) {
        if (options_.every > 0 && (frame + 1) % options_.every == 0 && frame + 1 < frames_) {
            const fs::path image = options_.outDir / fmt::format("frame_{:06d}.png", frame + 1);
            // A directory that stops taking files (full, read-only) gets one line, not one per
            // frame for the rest of the run: stop, with every file written so far whole.
            if (auto error = writeImage(image, lab_.instances())) {
                spdlog::error("{}", *error);
                return 1;
            }
            frameImages_.push_back(image);
        }
        if (video_ && (frame + 1) % videoEvery_ == 0) {
            const auto drawStart = std::chrono::steady_clock::now();
            ImageRgba8 image =
                ui_ ? ui_->render(lab_, settings_.view.width, settings_.view.height, dt_)
                    : renderFinalImage(lab_.field(), lab_.renderer(), lab_.instances(), settings_,
                                       output_);
            drawOverlay(image, videoOverlay(time, recorder_));
            if (auto error = video_->write(image)) {
                spdlog::error("{}", *error);
                return 1;
            }
            if (video_->frames() == 1) // the first video frame tells what the whole video costs
                warnIfVideoIsSlow(std::chrono::steady_clock::now() - drawStart,
                                  frames_ / videoEvery_, videoEvery_, frames_, settings_);
        }
        return 0;
    }

    int writeOutputs(const RunGuard& guard, double seconds,
                     std::chrono::steady_clock::time_point loopEnd) {
        SnowField& field = lab_.field();
        std::vector<fs::path> written;
        const auto& finalInstances = lab_.instances(); // the clock ends at frames * dt
        if (auto error = writeRunOutputs(options_.outDir, settings_, glInfo_, field, recorder_,
                                         lab_.renderer(), finalInstances, output_, seconds,
                                         &written, lab_.physicsReport())) {
            spdlog::error("{}", *error);
            return 1;
        }
        if (telling_) {
            if (auto error = writePng(options_.outDir / "final.png", *telling_)) {
                spdlog::error("{}", *error);
                return 1;
            }
            spdlog::info("final.png: t = {:.2f} s (run.final_at_s), not the end ({:.2f} s)",
                         tellingStep_ * dt_, frames_ * dt_);
        } else if (ui_) {
            if (auto error = writeImage(options_.outDir / "final.png", finalInstances)) {
                spdlog::error("{}", *error);
                return 1;
            }
        }
        // The last interrupt check comes before the world file: an interrupted run leaves the
        // previous world file as it was. From here the run completes (the world is written
        // atomically, then run.json), so a signal arriving now finds it finishing.
        if (const int signal = RunGuard::interruptedBy()) {
            spdlog::error("{}", RunGuard::interruptedNote("render", options_.outDir, signal));
            return 128 + signal;
        }
        if (!options_.worldOut.empty()) {
            if (auto error = saveWorld(field, options_.worldOut)) {
                spdlog::error("{}", *error);
                return 1;
            }
            written.push_back(options_.worldOut);
        }
        if (inputRecord_) {
            if (auto error = inputRecord_->write(options_.recordInputs,
                                                 static_cast<std::uint32_t>(frames_))) {
                spdlog::error("{}", *error);
                return 1;
            }
            written.push_back(options_.recordInputs);
        }
        if (auto error = guard.publish("render")) {
            spdlog::error("{}", *error);
            return 1;
        }
        written.push_back(options_.outDir / "run.json");
        if (video_)
            written.push_back(options_.video);
        if (!frameImages_.empty()) // named as a range, not one by one
            written.push_back(frameImages_.size() == 1
                                  ? frameImages_.front()
                                  : options_.outDir /
                                        fmt::format("{} .. {} ({} frames)",
                                                    frameImages_.front().filename().string(),
                                                    frameImages_.back().filename().string(),
                                                    frameImages_.size()));
        // After the progress line's 100 %: the outputs' time, so a long silence has its figure.
        const double writing =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - loopEnd).count();
        if (options_.closingLine) {
            // By how much, in words: each sim's figure as its pane in final.png gives it.
            for (const std::string& line : simFigureLines(field, settings_.run.fps))
                spdlog::info("{}", line);
            spdlog::info("render: {} steps in {:.2f} s, then {:.2f} s writing; wrote {}", frames_,
                         seconds, writing, outputList(options_.outDir, written));
        }
        return 0;
    }

    const CommonOptions& common_;
    const RenderOptions& options_;
    const Settings& settings_;
    const GlInfo& glInfo_;
    Lab& lab_;
    HeadlessUi* ui_;
    RunRecorder recorder_;
    const SurfaceOutput output_;
    const double dt_;
    const int frames_;
    int videoEvery_ = 1;
    std::unique_ptr<net::InputRecorder> inputRecord_;
    std::unique_ptr<VideoWriter> video_;
    std::optional<ProgressReporter> progress_;
    std::vector<fs::path> frameImages_; // --every
    // run.final_at_s: final.png shows the scenario's telling moment (a print half faded) when
    // the run goes on past it; a run that ends before it shows its end.
    const int tellingStep_;
    std::optional<ImageRgba8> telling_;
};

} // namespace

int runRender(const CommonOptions& common, const RenderOptions& options) {
    if (!options.connect.empty())
        return net::runConnect(common, {.hostPort = options.connect,
                                        .frames = options.frames,
                                        .outDir = options.outDir,
                                        .playerInputLength = options.liePlayerInput,
                                        .stampOffset = options.lieStampOffset});
    auto read = readRenderInputs(common, options);
    if (const int* code = std::get_if<int>(&read))
        return *code;
    RenderInputs& inputs = std::get<RenderInputs>(read);
    Settings& settings = inputs.settings;

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
    if (inputs.worldIn)
        if (auto error = applyWorldInput(lab.field(), *inputs.worldIn, options.worldIn)) {
            spdlog::error("{}", *error);
            return 2;
        }
    if (settings.soak.enabled) { // [soak]: the long randomised run of docs/reliability.md
        guard.begin();
        return runSoak(settings, lab, options.outDir, progressModeForStderr(options.progress));
    }
    lab.setTiming(ui != nullptr); // only the Timings panel reads the timer
    return RenderRun(common, options, settings, glInfo, lab, ui.get()).run(guard, loadedQuality);
}

} // namespace snowcap
