// The side bar (the control window's playback and scenario time, then every panel as a section),
// and the Compare and Help panels.
#include "viewer/viewer_panels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <imgui.h>
#include <iterator>

namespace snowcap {

namespace {

// Pause, step, restart, the step mode and the time slider.
void playbackControls(Lab& lab, ViewerState& state) {
    ImGui::Text("%.0f fps   step %lld   %s", state.fps, lab.steps(),
                state.paused ? "paused" : "running");
    ImGui::TextDisabled("%s", state.renderer.c_str());
    if (ImGui::Button(state.paused ? "Play" : "Pause"))
        state.paused = !state.paused;
    ImGui::SameLine();
    if (ImGui::Button("Step"))
        state.stepOnce = true;
    ImGui::SameLine();
    if (ImGui::Button("Restart"))
        state.restartRequested = true;
    ImGui::SameLine();
    ImGui::Checkbox("fixed step", &state.fixedStep);
    ImGui::SameLine();
    ImGui::Checkbox("loop", &state.loop);
    float time = static_cast<float>(lab.timeS());
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::SliderFloat("##time", &time, 0.0f, static_cast<float>(lab.durationS()), "t = %.2f s");
    // Scrubbing re-simulates from 0 at fixed step: on release, not on every drag.
    if (ImGui::IsItemDeactivatedAfterEdit())
        state.scrubToS = time;
}

} // namespace

void controlWindow(PanelContext& context) {
    Lab& lab = context.lab;
    ViewerState& state = context.state;
    if (state.remote) {
        // A session's client: the server's clock steps the lab; the status line says where.
        ImGui::Text("%.0f fps   session client", state.fps);
        ImGui::TextDisabled("%s", state.renderer.c_str());
    } else {
        playbackControls(lab, state);
    }
    ImGui::Checkbox("vsync", &state.vsync);
    ImGui::SameLine();
    ImGui::Checkbox("follow player", &state.followPlayer);
    if (ImGui::Button("Screenshot"))
        state.screenshotRequested = true;
    ImGui::SameLine();
    if (ImGui::Button("Reload shaders"))
        state.reloadShaders = true;
    recordControls(context);
    if (!state.shaderError.empty())
        ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%s", state.shaderError.c_str());
    if (!state.sceneError.empty())
        ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%s", state.sceneError.c_str());
    if (!state.status.empty())
        ImGui::TextWrapped("%s", state.status.c_str());
    if (!state.hint.empty()) {
        ImGui::Separator();
        ImGui::TextColored({0.55f, 0.85f, 1.0f, 1.0f}, "first run");
        ImGui::SameLine();
        if (ImGui::SmallButton("got it"))
            state.hint.clear();
        ImGui::TextWrapped("%s", state.hint.c_str());
    }
}

std::string firstRunHint(int simCount) {
    std::string hint = simCount > 2 ? "Each pane is one sim, labelled with how it differs. "
                                    : "A (left) and B (right) run the same scene with one "
                                      "difference, named in each pane's label. ";
    return hint + "Click a print to probe it, then open Decay to see it fade; Sims changes "
                  "any key live, Buffers shows what each sim holds, Help lists the keys.";
}

void comparePanel(PanelContext& context) {
    ViewerState& state = context.state;
    int layout = static_cast<int>(state.layout);
    if (ImGui::Combo("layout", &layout,
                     "split vertical (A | B)\0split horizontal (A over B)\0A only\0B only\0"
                     "difference A - B\0grid (every sim: A B / C D)\0"))
        state.layout = static_cast<CompareLayout>(layout);
    // The grid's panes are equal: there is no divider to move.
    ImGui::BeginDisabled(state.layout == CompareLayout::Grid);
    ImGui::SliderFloat("divider", &state.divider, 0.05f, 0.95f, "%.2f");
    ImGui::EndDisabled();
    if (ImGui::Checkbox("linked cameras", &state.linkedCameras) && !state.linkedCameras)
        for (std::size_t s = 1; s < state.cameras.size(); ++s)
            state.cameras[s] = state.cameras[0]; // unlinking starts from the shared view
    if (state.layout == CompareLayout::Difference) {
        ImGui::Checkbox("auto range", &state.differenceAuto);
        if (state.differenceAuto) // start the slider where auto is, so unticking keeps the view
            state.differenceRange = context.gl.differenceRange(state);
        ImGui::BeginDisabled(state.differenceAuto);
        ImGui::SliderFloat("|A - B| range", &state.differenceRange, 0.001f, 1.0f, "%.3f",
                           ImGuiSliderFlags_Logarithmic);
        ImGui::EndDisabled();
        ImGui::TextColored({0.55f, 0.6f, 1.0f, 1.0f}, "blue: B holds more");
        ImGui::SameLine();
        ImGui::TextColored({1.0f, 0.4f, 0.4f, 1.0f}, "red: A holds more");
        ImGui::TextDisabled("persistent values seen through camera A; white = equal");
    }
    ImGui::TextDisabled("drag the divider in the scene; unlinked: each pane orbits alone");
}

void helpPanel(PanelContext&) {
    ImGui::TextDisabled("mouse (over the scene)");
    ImGui::BulletText("left drag: orbit      right or middle drag: pan      wheel: zoom");
    ImGui::BulletText("left click (no drag): place the decay probe on the snow");
    ImGui::BulletText("drag the line between A and B: move the divider");
    ImGui::BulletText("drop a mesh file on the window: add it as a deformer");
    ImGui::TextDisabled("keys");
    ImGui::BulletText("Space pause / play     .  single step     R  restart (clear both sims)");
    ImGui::BulletText("WASD  drive the player deformer (Scene panel: its player switch); Shift "
                      "runs");
    ImGui::BulletText("WASD  drive a player vehicle (vehicle.player): W/S throttle, A/D steer");
    ImGui::BulletText("T  throw a snowball at the snow under the mouse (Scene panel: speed)");
    ImGui::BulletText("F  follow the player    V  vsync    1-6  layout (6: the grid)");
    ImGui::BulletText("Tab  hide / show this side bar (the panes take the whole window)");
    ImGui::BulletText("F5 reload shaders (also automatic on save)    F12 screenshot to out/");
    ImGui::BulletText("Esc quits");
}

namespace {

// The side bar's window: "snowcap", the control window's name, which the tests look for.
constexpr const char* kSideBarTitle = "snowcap";
// The narrowest the side bar's right edge drags it to, in points.
constexpr float kSideBarMinWidth = 240.0f;
// How far a section's content sits in from its header, in points.
constexpr float kSectionIndent = 8.0f;

} // namespace

ScreenRect sideBarRect(const ViewerState& state) {
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 scale = io.DisplayFramebufferScale;
    const int pixels = sideBarPixels(state, static_cast<int>(io.DisplaySize.x * scale.x));
    return {0.0f, 0.0f, float(pixels) / scale.x, io.DisplaySize.y};
}

std::vector<ScreenRect> paneRects(const ViewerState& state) {
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 scale = io.DisplayFramebufferScale;
    // Pane rectangles are GL framebuffer pixels from the bottom; ImGui's are points from the top.
    const int fbHeight = static_cast<int>(io.DisplaySize.y * scale.y);
    std::vector<ScreenRect> rects;
    for (const Pane& pane :
         layoutPanes(state, static_cast<int>(io.DisplaySize.x * scale.x), fbHeight))
        rects.push_back({pane.rect.x / scale.x, (fbHeight - pane.rect.y - pane.rect.w) / scale.y,
                         pane.rect.z / scale.x, pane.rect.w / scale.y});
    return rects;
}

void drawPanels(PanelContext& context) {
    ViewerState& state = context.state;
    // Over the panes, under the side bar (each clipped to its pane).
    paneLabels(context);
    probeMarker(context);
    if (!state.sideBarShown)
        return;
    const ImGuiIO& io = ImGui::GetIO();
    const ScreenRect bar = sideBarRect(state);
    ImGui::SetNextWindowPos({0.0f, 0.0f}, ImGuiCond_Always);
    ImGui::SetNextWindowSize({bar.width, bar.height}, ImGuiCond_Always);
    // The right edge drags the width, up to the share the panes leave it.
    const float widest = kSideBarShare * io.DisplaySize.x;
    ImGui::SetNextWindowSizeConstraints({std::min(kSideBarMinWidth, widest), bar.height},
                                        {widest, bar.height});
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
    ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    background.w = 1.0f; // nothing of the scene shows through: it is not drawn there
    ImGui::PushStyleColor(ImGuiCol_WindowBg, background);
    constexpr ImGuiWindowFlags kDocked =
        ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin(kSideBarTitle, nullptr, kDocked)) {
        controlWindow(context);
        // Every panel is a section, in PanelId order; a new panel is one more row of kDraw.
        static constexpr void (*kDraw[])(PanelContext&) = {
            simsPanel,    scenePanel, comparePanel,  buffersPanel, decayPanel,
            timingsPanel, worldPanel, snowpackPanel, weatherPanel, helpPanel};
        static_assert(std::size(kDraw) == static_cast<std::size_t>(PanelId::Count) &&
                      std::size(kPanelTitles) == std::size(kDraw) &&
                      std::size(kPanelNames) == std::size(kDraw));
        // A section's header is bolder than the headers inside the panels, and its content is
        // indented under it, so the two levels read apart.
        const ImVec4 header = ImGui::GetStyleColorVec4(ImGuiCol_HeaderActive);
        for (int i = 0; i < static_cast<int>(PanelId::Count); ++i) {
            ImGui::PushStyleColor(ImGuiCol_Header, header);
            ImGui::SetNextItemOpen(context.open[i], ImGuiCond_Always);
            context.open[i] = ImGui::CollapsingHeader(kPanelTitles[i]);
            ImGui::PopStyleColor();
            if (!context.open[i])
                continue;
            ImGui::PushID(i); // the sections share one window: keep their widgets apart
            ImGui::Indent(kSectionIndent);
            kDraw[i](context);
            ImGui::Unindent(kSectionIndent);
            ImGui::PopID();
            ImGui::Spacing();
        }
        // A drag of the right edge is the user's new width.
        if (std::abs(ImGui::GetWindowWidth() - bar.width) > 0.5f)
            state.sideBarWidth = ImGui::GetWindowWidth() * io.DisplayFramebufferScale.x /
                                 std::max(state.pixelsPerPoint, 1e-3f);
    }
    ImGui::End();
    ImGui::PopStyleColor();
    ImGui::PopStyleVar();
}

std::optional<glm::ivec2> bufferImage(const gpu::Texture2D& image, const gpu::Texture2D& source,
                                      int size, const char* caption) {
    ImGui::TextUnformatted(caption);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    // GL rows count from the bottom: flip v so north is up, as in the scene.
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(image.id())),
                 ImVec2(float(size), float(size)), ImVec2(0, 1), ImVec2(1, 0));
    if (!ImGui::IsItemHovered())
        return std::nullopt;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const float u = (mouse.x - origin.x) / size, v = 1.0f - (mouse.y - origin.y) / size;
    return glm::ivec2(std::clamp(int(u * source.width()), 0, source.width() - 1),
                      std::clamp(int(v * source.height()), 0, source.height() - 1));
}

} // namespace snowcap
