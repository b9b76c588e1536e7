// The windowed A/B viewer: the scenario runs in real time; sim A and sim B are shown side by
// side with their parameters live in an ImGui panel.
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include "app/commands.hpp"
#include "core/config.hpp"
#include "core/image.hpp"
#include "gpu/shader_library.hpp"
#include "platform/window.hpp"
#include "render/deformer_set.hpp"
#include "snow/snow_field.hpp"

namespace snowcap {

namespace {

// The per-sim controls; returns true when a setting changed.
bool simPanel(const char* title, SimSettings& sim) {
    bool changed = false;
    ImGui::PushID(title);
    ImGui::Separator();
    ImGui::TextUnformatted(title);
    float decay = static_cast<float>(sim.decay);
    if (ImGui::SliderFloat("decay", &decay, 0.5f, 1.0f, "%.4f")) {
        sim.decay = decay;
        changed = true;
    }
    int timing = sim.decayTiming == DecayTiming::DeltaTime ? 1 : 0;
    if (ImGui::Combo("decay timing", &timing, "per_frame\0delta_time\0")) {
        sim.decayTiming = timing ? DecayTiming::DeltaTime : DecayTiming::PerFrame;
        changed = true;
    }
    int accumulate = sim.accumulate == AccumulateMode::Max ? 1 : 0;
    if (ImGui::Combo("accumulate", &accumulate, "add\0max\0")) {
        sim.accumulate = accumulate ? AccumulateMode::Max : AccumulateMode::Add;
        changed = true;
    }
    changed |= ImGui::Checkbox("half-safe decay", &sim.halfSafe);
    ImGui::PopID();
    return changed;
}

// The frame just drawn, top row first, as PNG wants it.
ImageRgba8 readBackbuffer(int width, int height) {
    ImageRgba8 image(width, height);
    std::vector<std::uint8_t> rows(static_cast<std::size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
    for (int y = 0; y < height; ++y)
        std::copy_n(rows.data() + static_cast<std::size_t>(height - 1 - y) * width * 4, width * 4,
                    image.pixels.data() + static_cast<std::size_t>(y) * width * 4);
    return image;
}

} // namespace

int runViewer(const CommonOptions& common, const ViewOptions& options) {
    const std::string& scenario = options.scenario;
    const auto root = resourceRoot();
    auto loaded = loadSettings({root / "config/default.toml", resolveScenario(scenario, root)},
                               common.overrides);
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

    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto fieldCreated = SnowField::create(settings, shaders);
    if (auto* error = std::get_if<std::string>(&fieldCreated)) {
        spdlog::error("{}", *error);
        return 2;
    }
    SnowField& field = *std::get<0>(fieldCreated);
    auto viewProgram = shaders.load({"buffer_view",
                                     {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
                                      {GL_FRAGMENT_SHADER, "debug/buffer_view.frag"}},
                                     {}});
    if (auto* error = std::get_if<std::string>(&viewProgram)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const gpu::ShaderProgram& bufferView = *std::get<gpu::ShaderProgram*>(viewProgram);

    std::vector<Deformer> deformers;
    for (const DeformerSettings& deformer : settings.deformers)
        deformers.push_back(makeDeformer(deformer));
    DeformerSet deformerSet(std::move(deformers));
    gpu::VertexArray fullscreen("viewer.fullscreen");
    gpu::Sampler linear(GL_LINEAR, GL_CLAMP_TO_EDGE, "viewer.linear");

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplGlfw_InitForOpenGL(window.handle(), true);
    ImGui_ImplOpenGL3_Init("#version 450 core");
    window.setVsync(true);

    double simTime = 0.0, last = window.timeSeconds();
    bool paused = false;
    int frame = 0;
    while (!window.shouldClose()) {
        window.pollEvents();
        const double now = window.timeSeconds();
        const double dt = std::min(now - last, 0.1); // a stall must not become a jump
        last = now;
        shaders.reloadChanged();

        if (!paused) {
            simTime += dt;
            const double loop = settings.run.frames / settings.run.fps;
            if (simTime > loop) {
                simTime = 0.0;
            }
            field.step(deformerSet.instancesAt(simTime), dt);
        }

        const int width = window.framebufferWidth(), height = window.framebufferHeight();
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, width, height);
        glClearColor(0.08f, 0.09f, 0.11f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        // Split screen: A left, B right, each a square view of its buffer.
        const int side = std::min(width / 2 - 8, height - 16);
        for (int s = 0; s < SnowField::kSimCount; ++s) {
            glViewport(s * width / 2 + (width / 2 - side) / 2, (height - side) / 2, side, side);
            glUseProgram(bufferView.id());
            glProgramUniform2f(bufferView.id(), 0, 0.0f, 1.0f);
            glBindTextureUnit(0, field.sim(s).persistent().id());
            glBindSampler(0, linear.id());
            glBindVertexArray(fullscreen.id());
            glDrawArrays(GL_TRIANGLES, 0, 3);
            glBindSampler(0, 0);
        }
        glViewport(0, 0, width, height);

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        ImGui::SetNextWindowPos({10, 10}, ImGuiCond_FirstUseEver);
        ImGui::Begin("Sims");
        ImGui::Text("t = %.2f s   %.0f fps   %s", simTime, ImGui::GetIO().Framerate,
                    window.info().renderer.c_str());
        Settings edited = field.settings();
        bool changed = simPanel("A", edited.sims[0]);
        changed |= simPanel("B", edited.sims[1]);
        if (changed)
            if (auto error = field.applySettings(edited))
                spdlog::error("{}", *error);
        if (ImGui::Button(paused ? "Play (Space)" : "Pause (Space)"))
            paused = !paused;
        ImGui::SameLine();
        if (ImGui::Button("Reset (R)"))
            field.reset();
        ImGui::End();
        ImGui::Render();
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        if (!ImGui::GetIO().WantCaptureKeyboard) {
            if (ImGui::IsKeyPressed(GLFW_KEY_SPACE))
                paused = !paused;
            if (ImGui::IsKeyPressed(GLFW_KEY_R))
                field.reset();
            if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE))
                window.requestClose();
        }
        ++frame;
        if (options.quitAfterFrames > 0 && frame >= options.quitAfterFrames) {
            if (!options.screenshot.empty())
                if (auto error = writePng(options.screenshot, readBackbuffer(width, height)))
                    spdlog::error("{}", *error);
            window.requestClose();
        }
        window.swapBuffers();
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    return 0;
}

} // namespace snowcap
