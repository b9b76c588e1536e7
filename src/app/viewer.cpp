// The windowed A/B viewer: the scenario runs in real time; sim A and sim B are drawn side by
// side over the same scene with an orbit camera, their parameters live in ImGui panels.
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <chrono>
#include <ctime>
#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include "app/commands.hpp"
#include "app/session.hpp"
#include "app/viewer_panels.hpp"
#include "core/config.hpp"
#include "core/image.hpp"
#include "gpu/shader_library.hpp"
#include "platform/window.hpp"
#include "render/deformer_set.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"

#include <GLFW/glfw3.h>
#include <glm/trigonometric.hpp>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace {

// The frame just drawn, top row first, as PNG wants it.
ImageRgba8 readBackbuffer(int width, int height) {
    std::vector<std::uint8_t> rows(static_cast<std::size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
    ImageRgba8 image = imageFromBottomUpRows(rows.data(), width, height);
    for (std::size_t i = 3; i < image.pixels.size(); i += 4)
        image.pixels[i] = 255;
    return image;
}

// out/snowcap_YYYYMMDD_HHMMSS.png, with a counter rather than overwriting an existing file.
std::filesystem::path screenshotPath() {
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y%m%d_%H%M%S", std::localtime(&now));
    std::filesystem::create_directories("out");
    std::filesystem::path path =
        std::filesystem::path("out") / (std::string("snowcap_") + stamp + ".png");
    for (int n = 2; std::filesystem::exists(path); ++n)
        path = std::filesystem::path("out") /
               (std::string("snowcap_") + stamp + "_" + std::to_string(n) + ".png");
    return path;
}

// Mouse: left drag orbits, right drag pans, the wheel zooms — unless ImGui has the mouse.
void orbitControls(ViewerState& state, const Region& region) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureMouse)
        return;
    if (state.distanceCm <= 0.0)
        state.distanceCm = region.widthCm * 1.2;
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
        state.yawDeg -= io.MouseDelta.x * 0.3;
        state.pitchDeg = std::clamp(state.pitchDeg + io.MouseDelta.y * 0.3, 5.0, 89.0);
    }
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Right)) {
        const double yaw = glm::radians(state.yawDeg);
        const double scale = state.distanceCm * 0.0015;
        state.targetCm[0] -=
            (std::cos(yaw) * io.MouseDelta.x - std::sin(yaw) * io.MouseDelta.y) * scale;
        state.targetCm[1] -=
            (std::sin(yaw) * io.MouseDelta.x + std::cos(yaw) * io.MouseDelta.y) * scale;
    }
    if (io.MouseWheel != 0.0f)
        state.distanceCm = std::clamp(state.distanceCm * std::pow(0.9, io.MouseWheel), 20.0, 1e5);
}

void keyboardShortcuts(ViewerState& state, Window& window) {
    if (ImGui::GetIO().WantCaptureKeyboard)
        return;
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE))
        state.paused = !state.paused;
    if (ImGui::IsKeyPressed(GLFW_KEY_PERIOD))
        state.stepOnce = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_R))
        state.resetRequested = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_F5))
        state.reloadShaders = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_F12))
        state.screenshotRequested = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE))
        window.requestClose();
}

} // namespace

int runViewer(const CommonOptions& common, const ViewOptions& options) {
    auto loaded = loadScenarioSettings(options.scenario, common.overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    Settings settings = std::get<Settings>(loaded);

    auto created = Window::create("snowcap", 1600, 900, common.debugGl);
    if (auto* error = std::get_if<ContextError>(&created)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    Window& window = *std::get<0>(created);
    std::string startNote;
    if (window.info().isLlvmpipe()) {
        // The per-pixel spiral blur costs seconds a frame on a CPU rasteriser; the prepass reads
        // the same taps once per step. The panel's blur switch brings the reference back.
        for (SimSettings& sim : settings.sims)
            sim.blur = BlurMode::Prepass;
        startNote = "llvmpipe: material blur set to prepass for interactive rates";
        spdlog::info("{}", startNote);
    }

    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto sessionCreated = createSession(settings, shaders);
    if (auto* error = std::get_if<std::string>(&sessionCreated)) {
        spdlog::error("{}", *error);
        return 2;
    }
    Session& session = std::get<Session>(sessionCreated);
    SnowField& field = *session.field;
    SceneRenderer& renderer = *session.renderer;
    DeformerSet& deformerSet = session.deformers;

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    // Panel layout persists in the user's config directory, never in the repository.
    const char* home = std::getenv("HOME");
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const std::filesystem::path configDir =
        xdg && *xdg ? std::filesystem::path(xdg) / "snowcap"
                    : std::filesystem::path(home ? home : "/tmp") / ".config/snowcap";
    std::error_code ec;
    std::filesystem::create_directories(configDir, ec);
    const std::string iniPath = (configDir / "imgui.ini").string();
    ImGui::GetIO().IniFilename = ec ? nullptr : iniPath.c_str();
    ImGui_ImplGlfw_InitForOpenGL(window.handle(), true);
    ImGui_ImplOpenGL3_Init("#version 450 core");

    ViewerState state;
    state.status = startNote;
    state.yawDeg = settings.view.yawDeg;
    state.pitchDeg = settings.view.pitchDeg;
    state.distanceCm = settings.view.distanceCm;
    double simTime = 0.0, last = window.timeSeconds();
    const double loopSeconds = settings.run.frames / settings.run.fps;
    bool vsync = !state.vsync;
    int frame = 0;
    while (!window.shouldClose()) {
        window.pollEvents();
        if (vsync != state.vsync)
            window.setVsync(vsync = state.vsync);
        const double now = window.timeSeconds();
        const double dt = std::min(now - last, 0.1); // a stall must not become a jump
        last = now;
        if (state.reloadShaders) {
            state.status = "reloaded " + std::to_string(shaders.reloadAll()) + " programs";
            state.reloadShaders = false;
        } else {
            shaders.reloadChanged();
        }
        std::string shaderError;
        for (const gpu::ShaderProgram* program : shaders.programs())
            if (!program->reloadError().empty())
                shaderError = program->reloadError();

        if (state.resetRequested) {
            field.reset();
            simTime = 0.0;
            state.resetRequested = false;
        }
        if (!state.paused || state.stepOnce) {
            const double step = state.paused ? 1.0 / settings.run.fps : dt;
            simTime = simTime + step > loopSeconds ? 0.0 : simTime + step;
            field.step(deformerSet.instancesAt(simTime), step);
            state.stepOnce = false;
        }

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        orbitControls(state, field.sim(0).region());
        keyboardShortcuts(state, window);

        const int width = window.framebufferWidth(), height = window.framebufferHeight();
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, width, height);
        glClearColor(0.08f, 0.09f, 0.11f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        const auto& instances = deformerSet.instancesAt(simTime);
        const glm::vec3 target(state.targetCm[0], state.targetCm[1], state.targetCm[2]);
        const bool both = state.layout == CompareLayout::SideBySide;
        for (int s = 0; s < SnowField::kSimCount; ++s) {
            if ((s == 0 && state.layout == CompareLayout::BOnly) ||
                (s == 1 && state.layout == CompareLayout::AOnly))
                continue;
            const int x = both ? s * width / 2 : 0;
            const int w = both ? width / 2 - (s == 0 ? 1 : 0) : width;
            ViewRequest request;
            request.viewportPx = {x, 0, w, height};
            request.camera = orbitCamera(target, state.distanceCm, state.yawDeg, state.pitchDeg,
                                         settings.view.fovDeg, double(w) / height);
            renderer.render(field.sim(s), instances, request);
        }

        ImGui::SetNextWindowPos({10, 10}, ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize({360, 0}, ImGuiCond_FirstUseEver);
        ImGui::Begin("snowcap");
        controlPanel(state, simTime, ImGui::GetIO().Framerate, window.info().renderer, shaderError);
        Settings edited = field.settings();
        bool changed = simPanel("Sim A (left)", edited.sims[0]);
        changed |= simPanel("Sim B (right)", edited.sims[1]);
        if (changed)
            if (auto error = field.applySettings(edited))
                state.status = *error;
        ImGui::End();
        ImGui::Render();
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        ++frame;
        const bool quitting = options.quitAfterFrames > 0 && frame >= options.quitAfterFrames;
        if (state.screenshotRequested || (quitting && !options.screenshot.empty())) {
            const auto path =
                quitting && !options.screenshot.empty() ? options.screenshot : screenshotPath();
            if (auto error = writePng(path, readBackbuffer(width, height)))
                state.status = *error;
            else
                state.status = "saved " + path.string();
            spdlog::info("{}", state.status);
            state.screenshotRequested = false;
        }
        if (quitting)
            window.requestClose();
        window.swapBuffers();
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    return 0;
}

} // namespace snowcap
