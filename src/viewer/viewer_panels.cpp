// The control window (playback, scenario time, which panels are open), the Compare and Help
// panels, and where each window starts.
#include "viewer/viewer_panels.hpp"

#include <algorithm>
#include <cstdint>
#include <imgui.h>
#include <iterator>

namespace snowcap {

void controlWindow(PanelContext& context) {
    Lab& lab = context.lab;
    ViewerState& state = context.state;
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
    ImGui::Checkbox("vsync", &state.vsync);
    ImGui::SameLine();
    ImGui::Checkbox("follow player", &state.followPlayer);
    if (ImGui::Button("Screenshot"))
        state.screenshotRequested = true;
    ImGui::SameLine();
    if (ImGui::Button("Reload shaders"))
        state.reloadShaders = true;
    recordControls(context);
    ImGui::Separator();
    for (int i = 0; i < static_cast<int>(PanelId::Count); ++i) {
        if (i % 5) // two rows of checkboxes
            ImGui::SameLine();
        ImGui::Checkbox(kPanelNames[i], &context.open[i]);
    }
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
    ImGui::BulletText("F5 reload shaders (also automatic on save)    F12 screenshot to out/");
    ImGui::BulletText("Esc quits");
}

namespace {

// What each window asks for on a display `h` points high (the control window is first). The
// heights are what each panel's content needs at its usual size, so a panel placed at full
// size shows all of it; minHeight is the least at which it is still of use (it scrolls).
PanelRequest panelRequest(PanelId id, float h) {
    switch (id) {
    case PanelId::Sims:
        return {560.0f, h - 260.0f, 240.0f};
    case PanelId::Compare:
        return {440.0f, 190.0f, 120.0f};
    case PanelId::Scene:
        return {420.0f, 0.4f * h, 180.0f};
    case PanelId::Buffers:
        return {420.0f, h - 20.0f, 260.0f};
    case PanelId::Decay: // the fade plot and its axis labels need the width
        return {480.0f, 430.0f, 260.0f};
    case PanelId::Timings:
        return {420.0f, 0.3f * h, 140.0f};
    case PanelId::World:
        return {400.0f, 230.0f, 140.0f};
    case PanelId::Snowpack:
        return {420.0f, 620.0f, 200.0f}; // the budget, then two views with their bars
    case PanelId::Weather:
        return {420.0f, 520.0f, 200.0f}; // scrubber, up to seven strips, the sky, the budgets
    case PanelId::Help:
        return {600.0f, 215.0f, 120.0f};
    case PanelId::Count:
        break;
    }
    return {};
}

constexpr PanelRequest kControlWindow{420.0f, 255.0f, 255.0f};

} // namespace

ScreenRect controlWindowPlace(const ViewerState& state) {
    float controlHeight = kControlWindow.height;
    if (!state.hint.empty()) // the first-run hint's four lines
        controlHeight += 90.0f;
    return {10.0f, 10.0f, kControlWindow.width, controlHeight};
}

std::vector<PanelPlace> startPlaces(PanelContext& context, std::vector<ScreenRect>* keepClear) {
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 scale = io.DisplayFramebufferScale;
    const ImVec2 display = io.DisplaySize;
    std::vector<ScreenRect> clear;
    // Pane rectangles are GL framebuffer pixels from the bottom; ImGui's are points from the top.
    const int fbHeight = static_cast<int>(display.y * scale.y);
    for (const Pane& pane :
         layoutPanes(context.state, static_cast<int>(display.x * scale.x), fbHeight))
        clear.push_back(
            paneCentreBox({pane.rect.x / scale.x, (fbHeight - pane.rect.y - pane.rect.w) / scale.y,
                           pane.rect.z / scale.x, pane.rect.w / scale.y}));
    for (const PaneLabel& label : paneLabelList(context)) {
        clear.push_back(label.rect);
        if (label.difference)
            clear.push_back(label.keyRect);
    }
    // The control window always opens top left at its own height (auto-sized; the estimate
    // here keeps the panels off it): it holds the status and error lines, and a panel can be
    // reached from it on any screen. The panels are placed around it.
    const ScreenRect control = controlWindowPlace(context.state);
    const float controlHeight = control.height;
    std::vector<ScreenRect> blockers = clear;
    blockers.push_back(control);
    std::vector<PanelRequest> requests;
    for (int i = 0; i < static_cast<int>(PanelId::Count); ++i)
        if (context.open[i]) {
            PanelRequest request = panelRequest(static_cast<PanelId>(i), display.y);
            request.folded = i == static_cast<int>(PanelId::Sims) && context.simsFoldedAtStart;
            requests.push_back(request);
        }
    if (keepClear)
        *keepClear = clear;
    std::vector<PanelPlace> places{{control, false, controlHeight}};
    for (const PanelPlace& place :
         placePanels(display.x, display.y, blockers, requests, ImGui::GetFrameHeight()))
        places.push_back(place);
    return places;
}

void drawPanels(PanelContext& context) {
    // Where each window opens the first time it is drawn (an ini file's layout wins after that).
    const std::vector<PanelPlace> places = startPlaces(context, nullptr);
    const auto place = [&](std::size_t n) {
        const ScreenRect& r = places[n].rect;
        ImGui::SetNextWindowPos({r.x, r.y}, ImGuiCond_FirstUseEver);
        // A folded window is given the size it unfolds to (its title bar is as wide); the
        // control window (n = 0) sizes its height to its content.
        ImGui::SetNextWindowSize({r.width, n == 0 ? 0.0f : places[n].unfoldedHeight},
                                 ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowCollapsed(places[n].folded, ImGuiCond_FirstUseEver);
    };
    place(0);
    if (ImGui::Begin("snowcap"))
        controlWindow(context);
    ImGui::End();
    paneLabels(context);
    probeMarker(context);
    static constexpr void (*kDraw[])(PanelContext&) = {
        simsPanel,    scenePanel, comparePanel,  buffersPanel, decayPanel,
        timingsPanel, worldPanel, snowpackPanel, weatherPanel, helpPanel};
    static_assert(std::size(kDraw) == static_cast<std::size_t>(PanelId::Count) &&
                  std::size(kPanelTitles) == std::size(kDraw) &&
                  std::size(kPanelNames) == std::size(kDraw));
    std::size_t next = 1;
    for (int i = 0; i < static_cast<int>(PanelId::Count); ++i) {
        if (!context.open[i])
            continue;
        place(next++);
        if (ImGui::Begin(kPanelTitles[i], &context.open[i]))
            kDraw[i](context);
        ImGui::End();
    }
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
