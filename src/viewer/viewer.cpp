// The windowed A/B viewer: the lab (scenario, sims, deformers) runs in real time or at fixed
// step; the compare layout draws A and B over the same scene; the panels edit everything live.
// This file is the window's part: input (mouse, keys, dropped files), the frame loop,
// screenshots and the scripted test hook (--frames N --screenshot F).
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include "core/config.hpp"
#include "core/paths.hpp"
#include "core/quality.hpp"
#include "gpu/pass_state.hpp"
#include "io/image.hpp"
#include "lab/lab.hpp"
#include "lab/world_io.hpp"
#include "platform/window.hpp"
#include "viewer/viewer.hpp"
#include "viewer/viewer_frame.hpp"
#include "viewer/viewer_input.hpp"
#include "viewer/viewer_panels.hpp"
#include "viewer/viewer_remote.hpp"

#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace {

// out/snowcap_YYYYMMDD_HHMMSS.png, with a counter rather than overwriting an existing file.
std::filesystem::path screenshotPath() {
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y%m%d_%H%M%S", std::localtime(&now));
    // No throwing calls: when out/ cannot be made (a file of that name, a read-only parent)
    // the write below fails with one line naming the path, and the viewer carries on.
    std::error_code ec;
    std::filesystem::create_directories("out", ec);
    std::filesystem::path path =
        std::filesystem::path("out") / (std::string("snowcap_") + stamp + ".png");
    for (int n = 2; std::filesystem::exists(path, ec); ++n)
        path = std::filesystem::path("out") /
               (std::string("snowcap_") + stamp + "_" + std::to_string(n) + ".png");
    return path;
}

// Panel layout persists in the user's config directory, never in the repository.
std::string imguiIniPath() {
    const char* home = std::getenv("HOME");
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const std::filesystem::path configDir =
        xdg && *xdg ? std::filesystem::path(xdg) / "snowcap"
                    : std::filesystem::path(home ? home : "/tmp") / ".config/snowcap";
    std::error_code ec;
    std::filesystem::create_directories(configDir, ec);
    return ec ? std::string() : (configDir / "imgui.ini").string();
}

// F5 and the automatic reload on save; the first failing program's error (file:line) stays on
// screen until its source builds again (the last good program keeps running meanwhile).
void reloadShaders(Lab& lab, ViewerState& state) {
    if (state.reloadShaders) {
        state.status = "reloaded " + std::to_string(lab.shaders().reloadAll()) + " programs";
        state.reloadShaders = false;
    } else if (const int rebuilt = lab.shaders().reloadChanged(); rebuilt > 0) {
        state.status = "reloaded " + std::to_string(rebuilt) + " changed programs";
    }
    state.shaderError.clear();
    for (const gpu::ShaderProgram* program : lab.shaders().programs())
        if (!program->reloadError().empty() && state.shaderError.empty())
            state.shaderError = program->name() + ": " + program->reloadError();
}

// The UE-faithful material (129-tap spiral per pixel, 512^2 grid) costs seconds a frame on a
// CPU rasteriser. Start on the cheapest rung that still simulates both sims
// (docs/performance.md); quality = custom in the Sims panel brings the scenario's own settings,
// and the reference material, back. Not when the sims differ in a key the rung sets alike for
// both (blur_compare): the comparison would be void.
void startOnLlvmpipeRung(Lab& lab, ViewerState& state) {
    Settings edited = lab.settings();
    std::optional<std::string> replaced;
    const auto refusal = edited.snow.quality == Quality::Custom ? startRungRefusal(edited)
                                                                : std::optional<std::string>();
    if (refusal) {
        state.status = "llvmpipe: " + *refusal;
    } else {
        if (edited.snow.quality == Quality::Custom) {
            replaced = rungReplacesNote(edited, kLlvmpipeStartQuality);
            edited.snow.quality = kLlvmpipeStartQuality;
        }
        if (auto error = lab.apply(edited))
            spdlog::warn("{}", *error);
        state.status = fmt::format("llvmpipe: snow.quality = {} for interactive rates",
                                   toString(edited.snow.quality));
    }
    spdlog::info("{}", state.status);
    if (replaced)
        spdlog::info("llvmpipe: {}", *replaced);
}

// The window's picture as it is now, and a log of what it was drawn with.
void saveScreenshot(const Lab& lab, ViewerState& state, const std::filesystem::path& path,
                    Overwrite policy, int width, int height) {
    if (auto error = writePng(path, readFramebufferImage(0, width, height), policy))
        state.status = *error;
    else
        state.status = "saved " + path.string();
    spdlog::info("{}", state.status);
    if (lab.hasPlayer())
        if (auto player = lab.followedPositionCm())
            spdlog::debug("player at x {:.1f}, y {:.1f} cm", player->x, player->y);
    // What the picture was drawn with, so a test driving the mouse can check each
    // drag and wheel notch against the state as well as the pixels.
    const OrbitView& camera = state.cameras[0];
    spdlog::debug("view: layout {}, divider {:.3f}, yaw {:.1f}, pitch {:.1f}, distance "
                  "{:.1f} cm, {} deformers",
                  static_cast<int>(state.layout) + 1, state.divider, camera.yawDeg, camera.pitchDeg,
                  camera.distanceCm, lab.deformers().size());
    logPlaces(state); // where each pane and each window is
}

// The viewer's state as the first frame finds it: the command line's layout, probes and
// recording, the session joined or the llvmpipe rung chosen, a world file read. An error is a
// refusal to start.
std::optional<std::string> startState(Lab& lab, ViewerState& state, const Window& window,
                                      const ViewOptions& options, std::string scrollTo,
                                      RemoteSteps* remote) {
    state.renderer = window.info().renderer;
    state.scrollTo = std::move(scrollTo);
    state.scenarioPath = options.scenario;
    applyStartOptions(state, options.layout, options.probeCm, lab.field().simCount());
    state.followPlayer = followsAtStart(lab.settings());
    if (!options.record.empty()) { // as if Record were pressed on the first frame
        state.recordPath = options.record.string();
        state.recordToggle = true;
    }
    if (remote) {
        // The server's settings, as they are: the buffers must be the server's.
        remote->join(lab);
        state.remote = true;
        state.status = remote->status();
    } else if (window.info().isLlvmpipe()) {
        startOnLlvmpipeRung(lab, state);
    }
    if (auto note = voidedComparisonNote(lab.settings()))
        spdlog::warn("{}", *note);
    if (!options.worldIn.empty())
        return loadWorld(lab.field(), options.worldIn);
    return std::nullopt;
}

// Where a --connect client stands in its session.
struct SessionProgress {
    std::string over;    // why the session stopped for this client
    int framesAtEnd = 0; // --frames N: frames drawn since step N was applied
};

// A --connect frame's step: the session advanced to the server's last step (a scripted run's
// --frames N: to step N) with this client's input, and the probes recorded.
void stepSession(RemoteSteps& remote, Lab& lab, ViewerState& state, int quitAfterFrames,
                 SessionProgress& session) {
    const bool scripted = quitAfterFrames > 0;
    const std::uint32_t lastStep =
        scripted ? static_cast<std::uint32_t>(quitAfterFrames) : remote.lastStep();
    if (session.over.empty()) {
        if (auto over = remote.advance(state.playerInput, lastStep > 0 ? lastStep : UINT32_MAX))
            session.over = *over;
        state.status =
            session.over.empty() ? remote.status() : remote.status() + "; " + session.over;
        if (!session.over.empty() && scripted)
            spdlog::error("view --connect: {}", session.over);
    }
    recordProbe(lab, state);
    if (scripted && (!session.over.empty() || remote.appliedStep().value_or(0) >= lastStep))
        ++session.framesAtEnd;
}

// ImGui on the window (its layout file at iniPath, none when empty; ImGui keeps the pointer),
// the first-run hint, and the cameras where the scenario's view puts them.
void startImGui(Window& window, Lab& lab, ViewerState& state, const ViewOptions& options,
                const std::string& iniPath) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = iniPath.empty() ? nullptr : iniPath.c_str();
    ImGui_ImplGlfw_InitForOpenGL(window.handle(), true);
    ImGui_ImplOpenGL3_Init("#version 450 core");

    std::error_code iniMissing;
    if (!iniPath.empty() && !std::filesystem::exists(iniPath, iniMissing))
        state.hint = firstRunHint(lab.field().simCount());
    state.fixedStep =
        options.quitAfterFrames > 0; // the test hook runs N fixed steps, whatever the frame rate
    const auto view = lab.settings().view;
    for (OrbitView& camera : state.cameras) {
        camera.yawDeg = view.yawDeg;
        camera.pitchDeg = view.pitchDeg;
        camera.distanceCm = view.distanceCm;
    }
    const glm::ivec4 startArea = sceneArea(state, options.width, options.height);
    fitCameras(state, lab, 0.5 * startArea.z / startArea.w);
}

// Files dropped on the window become deformers.
void addDroppedDeformers(Window& window, Lab& lab, ViewerState& state) {
    for (const std::string& path : window.takeDroppedPaths()) {
        if (auto error = lab.addDeformer(path))
            state.sceneError = *error;
        else
            state.status = "added deformer " + path;
    }
}

// ImGui's frame begun, the window's keys and mouse handled, the cameras placed; true when the
// input asks to close the window.
bool beginUiFrame(Window& window, Lab& lab, ViewerState& state, ViewerInput& input, int width,
                  int height) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    state.fps = ImGui::GetIO().Framerate;
    state.pixelsPerPoint = ImGui::GetIO().DisplayFramebufferScale.x; // the side bar's width
    const bool close = input.handle(lab, state, width, height, window.takeKeyEvents());
    followCamera(state, lab);
    const glm::ivec4 area = sceneArea(state, width, height);
    fitCameras(state, lab, 0.5 * area.z / area.w); // after a scenario load or a reset view
    return close;
}

// Closing the window ends a recording with what it has, then ImGui.
void closeViewer(Lab& lab, ViewerState& state) {
    if (state.recording) {
        state.recordToggle = true;
        recordFrame(lab, state, 0, 0);
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

// A scripted run (--frames N) steps, updates the panels and swaps every frame but draws the 3D
// panes only every 30th frame and on the last two: on llvmpipe a 1600 x 900 A | B frame costs
// about half a second, and only the final one reaches the screenshot. A recording needs every
// frame. A --connect client (session set) draws them once its last step is applied.
bool drawsPanes(const ViewerState& state, int quitAfterFrames, int frame,
                const SessionProgress* session) {
    const bool scripted = quitAfterFrames > 0;
    return !scripted || state.recording || state.recordToggle ||
           (session ? session->framesAtEnd > 0 : frame % 30 == 0 || frame + 2 >= quitAfterFrames);
}

// The frame's screenshot: the one asked for in the window (out/, never replacing a file, not
// even one made meanwhile), or a scripted run's --screenshot on its last frame (lastFrameShot).
void takeScreenshot(const Lab& lab, ViewerState& state, const std::filesystem::path& lastFrameShot,
                    int width, int height) {
    if (!lastFrameShot.empty())
        saveScreenshot(lab, state, lastFrameShot, Overwrite::Replace, width, height);
    else if (state.screenshotRequested)
        saveScreenshot(lab, state, screenshotPath(), Overwrite::Refuse, width, height);
    state.screenshotRequested = false;
}

} // namespace

// Frames a panel opened on a view (--panels buffers:drift) is held scrolled to it.
constexpr int kScrollFrames = 3;

int runViewer(const CommonOptions& common, const ViewOptions& options, RemoteSteps* remote) {
    // The scenario first: a bad file is one line and no window. A session's client has its
    // settings from the server already.
    auto loaded = remote ? std::variant<Settings, ConfigError>(remote->settings())
                         : loadScenarioSettings(options.scenario, common.overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    std::array<bool, static_cast<int>(PanelId::Count)> open{};
    open[static_cast<int>(PanelId::Sims)] = true;
    std::string scrollTo; // "buffers:drift" or "scene:ground": the view a panel opens on
    if (!options.panels.empty())
        if (auto error = parsePanelList(options.panels, open, &scrollTo)) {
            spdlog::error("{}", *error);
            return 2;
        }

    auto created = Window::create("snowcap", options.width, options.height, common.debugGl);
    if (auto* error = std::get_if<ContextError>(&created)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    Window& window = *std::get<0>(created);

    auto labCreated =
        Lab::create(std::get<Settings>(loaded), remote ? remote->scenario() : options.scenario,
                    remote ? remote->overrides() : common.overrides, window.info().renderer);
    if (auto* error = std::get_if<std::string>(&labCreated)) {
        spdlog::error("{}", *error);
        return 2;
    }
    Lab& lab = *std::get<0>(labCreated);
    ViewerState state;
    if (auto error = startState(lab, state, window, options, std::move(scrollTo), remote)) {
        spdlog::error("{}", *error);
        return 2;
    }
    ViewerGl gl;
    if (auto error = gl.init(lab.shaders())) {
        spdlog::error("{}", *error);
        return 2;
    }

    // Scripted runs (--frames) use the default layout: a test or a docs picture must not
    // depend on what a user last dragged around.
    const std::string iniPath = options.quitAfterFrames > 0 ? std::string() : imguiIniPath();
    startImGui(window, lab, state, options, iniPath);
    const bool scripted = options.quitAfterFrames > 0;
    ViewerInput input;
    double last = window.timeSeconds();
    bool vsync = !state.vsync;
    int frame = 0;
    SessionProgress session; // --connect
    while (!window.shouldClose()) {
        window.pollEvents();
        // Minimised: nothing to draw into; sleep until something happens instead of spinning.
        if (window.iconified() || window.framebufferWidth() == 0 ||
            window.framebufferHeight() == 0) {
            window.waitEvents();
            last = window.timeSeconds();
            continue;
        }
        addDroppedDeformers(window, lab, state);
        if (vsync != state.vsync)
            window.setVsync(vsync = state.vsync);
        const double now = window.timeSeconds();
        const double wallDt = now - last;
        last = now;
        reloadShaders(lab, state);

        lab.timer().beginFrame();
        if (remote) {
            stepSession(*remote, lab, state, scripted ? options.quitAfterFrames : 0, session);
        } else {
            advanceLab(lab, state, wallDt);
        }
        const int width = window.framebufferWidth(), height = window.framebufferHeight();

        if (beginUiFrame(window, lab, state, input, width, height))
            window.requestClose();
        const bool drawPanes =
            drawsPanes(state, options.quitAfterFrames, frame, remote ? &session : nullptr);
        PanelContext context{lab, state, gl, open};
        gl.drawFrame(
            lab, state, 0, width, height, drawPanes,
            [&] {
                drawPanels(context);
                ImGui::Render();
                gpu::beginPass(gpu::passIntoWindow(width, height));
                ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            },
            remote ? remote->deformers() : std::span<const DeformerInstance>());
        recordTimings(lab, state, wallDt * 1000.0);
        recordFrame(lab, state, width, height); // the Record button (panel_record.cpp)

        ++frame;
        // The panel opened on a view scrolls there in its first frames (ImGui lays a window
        // out before it can scroll it), then keeps that scroll and is the user's to move.
        if (frame == kScrollFrames)
            state.scrollTo.clear();
        // With --connect, two frames drawn after the session's step N (the last one whole).
        const bool quitting =
            scripted && (remote ? session.framesAtEnd >= 2 : frame >= options.quitAfterFrames);
        takeScreenshot(lab, state, quitting ? options.screenshot : std::filesystem::path(), width,
                       height);
        if (quitting)
            window.requestClose();
        window.swapBuffers();
        // -vv: a line per frame, which the real-input tests wait on instead of sleeping.
        spdlog::trace("frame {} drawn ({:.0f} ms)", frame, wallDt * 1000.0);
    }
    closeViewer(lab, state);
    // A scripted client whose session broke did not show what was asked for.
    return scripted && !session.over.empty() ? 1 : 0;
}

} // namespace snowcap
