#include "viewer/viewer_frame.hpp"

#include "gpu/pass_state.hpp"
#include "lab/run_stats.hpp"

#include <algorithm>
#include <backends/imgui_impl_opengl3.h>
#include <cmath>
#include <imgui.h>
#include <imgui_internal.h> // the windows ImGui placed, for placedWindows
#include <iterator>
#include <limits>
#include <spdlog/spdlog.h>
#include <sstream>
#include <string_view>

namespace snowcap {

void advanceLab(Lab& lab, ViewerState& state, double wallDtS) {
    if (state.restartRequested) {
        lab.restart();
        state.probeSamples.clear();
        state.restartRequested = false;
    }
    if (state.scrubToS >= 0.0) {
        lab.simulateTo(state.scrubToS);
        state.probeSamples.clear();
        state.scrubToS = -1.0;
    } else if (!state.paused || state.stepOnce) {
        // A single step and fixed-step playback take exactly 1 / run.fps; real time takes the
        // wall clock, capped so a stall does not become a jump.
        const double dt = state.paused || state.fixedStep ? lab.fixedDtS() : std::min(wallDtS, 0.1);
        if (dt > 0.0) {
            // Running covers kPlayerRunFactor times the ground in the same step (its clip
            // plays that much faster too, as a run would).
            lab.drivePlayer(state.playerInput, state.playerRuns ? dt * kPlayerRunFactor : dt);
            lab.driveVehicle(state.driveAxes);
            lab.step(dt, state.loop);
        }
        state.stepOnce = false;
    }
    recordProbe(lab, state);
    state.simCount = lab.field().simCount(); // the panels may have added or removed sims
}

void recordProbe(Lab& lab, ViewerState& state) {
    if (state.probeCm) {
        ProbeSample sample{lab.timeS(), {}};
        sample.value.fill(std::numeric_limits<float>::quiet_NaN());
        for (int s = 0; s < lab.field().simCount(); ++s) {
            const SnowSim& sim = lab.field().sim(s);
            sample.value[s] = readProbe(sim, probeTexel(*state.probeCm, sim.region()));
        }
        if (!state.probeSamples.empty() && sample.timeS < state.probeSamples.back().timeS)
            state.probeSamples.clear(); // the scenario looped: a new curve
        state.probeSamples.push_back(sample);
        if (state.probeSamples.size() > 2000)
            state.probeSamples.erase(state.probeSamples.begin());
    }
}

void HeadlessUi::afterStep(Lab& lab, double dtS) {
    recordProbe(lab, state_);
    recordTimings(lab, state_, dtS * 1000.0);
}

void recordTimings(Lab& lab, ViewerState& state, double frameMs) {
    state.timingMethod = gpu::toString(lab.timer().method());
    for (const auto& [pass, ms] : lab.timer().latestMs())
        state.passHistory[pass].push(static_cast<float>(ms));
    state.frameMs.push(static_cast<float>(frameMs));
}

ImageRgba8 readFramebufferImage(GLuint framebuffer, int width, int height) {
    std::vector<std::uint8_t> rows(static_cast<std::size_t>(width) * height * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (framebuffer == 0)
        glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
    ImageRgba8 image = imageFromBottomUpRows(rows.data(), width, height);
    for (std::size_t i = 3; i < image.pixels.size(); i += 4)
        image.pixels[i] = 255;
    return image;
}

namespace {

// The views a panel can open scrolled to ("PANEL:VIEW" in render --ui --panels).
struct PanelView {
    const char* panel;
    const char* view;
};
constexpr PanelView kPanelViews[] = {
    {"buffers", "drift"}, {"scene", "ground"}, {"scene", "terrain"}, {"scene", "terrain_slope"}};

} // namespace

std::optional<std::string> parsePanelList(const std::string& list,
                                          std::array<bool, static_cast<int>(PanelId::Count)>& open,
                                          std::string* scrollTo) {
    open.fill(false);
    std::stringstream stream(list);
    std::string entry;
    while (std::getline(stream, entry, ',')) {
        const std::size_t colon = entry.find(':');
        const std::string name = entry.substr(0, colon);
        if (colon != std::string::npos) {
            const std::string view = entry.substr(colon + 1);
            if (!scrollTo)
                return "--panels: '" + entry + "': a view to open a panel on is for render --ui";
            const bool known =
                std::any_of(std::begin(kPanelViews), std::end(kPanelViews),
                            [&](const PanelView& v) { return name == v.panel && view == v.view; });
            if (!known) {
                std::string views;
                for (const PanelView& v : kPanelViews)
                    views += std::string(views.empty() ? "" : ", ") + v.panel + ":" + v.view;
                return "--panels: unknown view '" + entry + "' (known: " + views + ")";
            }
            *scrollTo = view;
        }
        if (name.empty() || name == "none")
            continue;
        bool found = false;
        for (int i = 0; i < static_cast<int>(PanelId::Count); ++i)
            if (name == kPanelNames[i] || name == "all")
                open[i] = found = true;
        if (!found) {
            std::string names;
            for (const char* known : kPanelNames)
                names += std::string(known) + ", ";
            return "--panels: unknown panel '" + name + "' (" + names + "all, none)";
        }
    }
    return std::nullopt;
}

bool followsAtStart(const Settings& settings) {
    return std::any_of(settings.sims.begin(), settings.sims.end(),
                       [](const SimSettings& sim) { return sim.region != RegionMode::Fixed; });
}

void followCamera(ViewerState& state, const Lab& lab) {
    if (!state.followPlayer)
        return;
    if (auto position = lab.followedPositionCm())
        for (OrbitView& camera : state.cameras) {
            camera.targetCm[0] = position->x;
            camera.targetCm[1] = position->y;
        }
}

void applyStartOptions(ViewerState& state, const std::string& layout,
                       const std::vector<double>& probeCm, int simCount) {
    // More than two sims start in the grid, so every sim the scenario made is in view.
    state.simCount = simCount;
    if (simCount > 2)
        state.layout = CompareLayout::Grid;
    for (int i = 0; i < static_cast<int>(std::size(kLayoutNames)); ++i)
        if (layout == kLayoutNames[i])
            state.layout = static_cast<CompareLayout>(i);
    if (probeCm.size() == 2)
        state.probeCm = glm::dvec2(probeCm[0], probeCm[1]);
}

std::variant<std::unique_ptr<HeadlessUi>, std::string>
HeadlessUi::create(Lab& lab, const std::string& panels, const std::string& layout,
                   const std::vector<double>& probeCm, const std::string& renderer) {
    std::unique_ptr<HeadlessUi> ui(new HeadlessUi());
    if (auto error = parsePanelList(panels, ui->open_, &ui->state_.scrollTo))
        return *error;
    if (auto error = ui->gl_.init(lab.shaders()))
        return *error;
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ui->imgui_ = true;
    ImGui::GetIO().IniFilename = nullptr; // a headless image never depends on a user's layout
    if (!ImGui_ImplOpenGL3_Init("#version 450 core"))
        return std::string("imgui: the OpenGL3 backend did not start on the headless context");
    ui->state_.renderer = renderer;
    applyStartOptions(ui->state_, layout, probeCm, lab.field().simCount());
    ui->state_.followPlayer = followsAtStart(lab.settings());
    for (OrbitView& camera : ui->state_.cameras) {
        camera.yawDeg = lab.settings().view.yawDeg;
        camera.pitchDeg = lab.settings().view.pitchDeg;
    }
    const glm::ivec4 area =
        sceneArea(ui->state_, lab.settings().view.width, lab.settings().view.height);
    fitCameras(ui->state_, lab, 0.5 * area.z / area.w);
    return ui;
}

std::vector<PlacedWindow> placedWindows() {
    std::vector<PlacedWindow> out;
    for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
        const bool child = window->Flags & (ImGuiWindowFlags_ChildWindow |
                                            ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup);
        // "Debug##Default" is ImGui's implicit window: never shown unless something is put in it.
        if (child || !window->Active || window->Hidden ||
            std::string_view(window->Name).rfind("Debug##", 0) == 0)
            continue;
        out.push_back({window->Name,
                       {window->Pos.x, window->Pos.y, window->Size.x, window->Size.y},
                       window->Collapsed});
    }
    return out;
}

void logPlaces(const ViewerState& state) {
    for (const ScreenRect& r : paneRects(state))
        spdlog::debug("pane: {:.1f},{:.1f} {:.1f}x{:.1f}", r.x, r.y, r.width, r.height);
    for (const PlacedWindow& window : placedWindows())
        spdlog::debug("window '{}': {:.1f},{:.1f} {:.1f}x{:.1f}{}", window.title, window.rect.x,
                      window.rect.y, window.rect.width, window.rect.height,
                      window.folded ? " folded" : "");
}

HeadlessUi::~HeadlessUi() {
    if (imgui_) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui::DestroyContext();
    }
}

ImageRgba8 HeadlessUi::render(Lab& lab, int width, int height, double dtS) {
    gpu::Texture2D colour(width, height, gpu::TextureFormat::RGBA8, "ui.colour");
    gpu::Texture2D depth(width, height, gpu::TextureFormat::D32F, "ui.depth");
    gpu::Framebuffer framebuffer(&colour, &depth, "ui");
    state_.fps = dtS > 0.0 ? 1.0 / dtS : 0.0;
    state_.paused = false;
    state_.simCount = lab.field().simCount();

    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(width), float(height));
    io.DeltaTime = static_cast<float>(dtS > 0.0 ? dtS : 1.0 / 60.0);
    followCamera(state_, lab);
    PanelContext context{lab, state_, gl_, open_};
    gl_.drawFrame(lab, state_, framebuffer.id(), width, height, true, [&] {
        // Twice: ImGui hides an auto-sized window on the frame it first appears (it measures
        // it then), and every image here is a first frame after a gap.
        for (int pass = 0; pass < 2; ++pass) {
            ImGui_ImplOpenGL3_NewFrame();
            ImGui::NewFrame();
            drawPanels(context);
            ImGui::Render();
        }
        gpu::beginPass(gpu::passInto(framebuffer));
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    });
    return readFramebufferImage(framebuffer.id(), width, height);
}

} // namespace snowcap
