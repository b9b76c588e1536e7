#pragma once
// The viewer's ImGui panels. Only src/app/ touches ImGui. Every panel is a section of one side
// bar docked along the window's left edge (the control window at its top), so no panel covers
// a pane: the panes share the rest of the window (viewer_views.hpp, sceneArea). They draw the
// same in the viewer and in `render --ui` (no GLFW here).

#include "core/settings.hpp"
#include "lab/lab.hpp"
#include "viewer/panel_layout.hpp"
#include "viewer/viewer_state.hpp"
#include "viewer/viewer_views.hpp"

#include <array>
#include <functional>
#include <glm/vec2.hpp>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

enum class PanelId {
    Sims,
    Scene,
    Compare,
    Buffers,
    Decay,
    Timings,
    World,
    Snowpack,
    Weather,
    Help,
    Count
};
inline constexpr const char* kPanelNames[] = {"sims",    "scene", "compare",  "buffers", "decay",
                                              "timings", "world", "snowpack", "weather", "help"};
// The windows' titles, as ImGui knows them ("snowcap" is the control window).
inline constexpr const char* kPanelTitles[] = {"Sims",    "Scene", "Compare",  "Buffers", "Decay",
                                               "Timings", "World", "Snowpack", "Weather", "Help"};

struct PanelContext {
    Lab& lab;
    ViewerState& state;
    ViewerGl& gl;
    // Which sections of the side bar are open (--panels; a click on a section's header).
    std::array<bool, static_cast<int>(PanelId::Count)>& open;
};

// The frame's ImGui part for a display of the current io.DisplaySize: each pane's label and the
// probe's stake over the panes, then the side bar (unless hidden): the control window, then a
// collapsing section per panel in PanelId order, scrolling when taller than the window.
void drawPanels(PanelContext& context);
// The side bar's rectangle and each pane's, in ImGui's coordinates (points from the top left):
// what the tests check against each other (the bar is empty while hidden).
ScreenRect sideBarRect(const ViewerState& state);
std::vector<ScreenRect> paneRects(const ViewerState& state);

// ---- one file each -------------------------------------------------------------------------
void controlWindow(PanelContext& context);
// What a first run (no saved layout yet) suggests trying first, for a lab of `simCount` sims.
std::string firstRunHint(int simCount);
// Every sim side by side (a column each): every parameter and switch, copy / swap / reset, add
// and remove sims, one-difference presets and decay ladders.
void simsPanel(PanelContext& context);
// Each scene pane's label ("A  decay 0.95 delta_time") at its top-right corner, over the scene
// (panel_sims.cpp).
struct PaneLabel {
    std::string text;
    ScreenRect rect; // the dark backing, in ImGui's coordinates
    unsigned colour = 0;
    bool difference = false; // the A - B pane: its colour key hangs under the label, in keyRect
    ScreenRect keyRect;
    ScreenRect clip; // its pane: nothing of the label is drawn outside it
};
// The colour bar slot of the difference view's key (ViewerGl::colourBar).
inline constexpr int kDifferenceKeySlot = 200;
std::vector<PaneLabel> paneLabelList(PanelContext& context);
void paneLabels(PanelContext& context);
// A stake over every pane where the probe stands (panel_inspect.cpp), drawn behind the panels.
void probeMarker(PanelContext& context);
// Deformers, region, snow surface, ground, scenario loading.
void scenePanel(PanelContext& context);
// The Scene panel's Ground section (panel_ground.cpp): [ground]'s keys and the texture's file.
void groundSection(PanelContext& context);
// The Scene panel's Terrain section (panel_terrain.cpp): [terrain]'s keys, its file typed and
// loaded, and what the field holds (samples, extent, lowest and highest).
void terrainSection(PanelContext& context);
// `ground` in the lab (as a live edit: Lab::apply), or the one line saying why not, the ground
// it had kept.
std::optional<std::string> applyGround(Lab& lab, const GroundSettings& ground);
// `ground` with kind = "texture" and `path` its file: what the section's load button applies.
GroundSettings groundWithTexture(GroundSettings ground, const std::string& path);
void comparePanel(PanelContext& context);
void buffersPanel(PanelContext& context);
void decayPanel(PanelContext& context);
void timingsPanel(PanelContext& context);
// The world stores: tile map, windows, bytes against the cap, paging counts, Save / Load
// world, the player's teleport (panel_world.cpp).
void worldPanel(PanelContext& context);
// A snowpack sim's mass budget (stats.json's figures) and its depth and density as live buffer
// views with colour-bar legends (panel_snowpack.cpp).
void snowpackPanel(PanelContext& context);
// [weather]'s sky now, its timeline with a playhead and a scrubber, the falling snow and each
// snowpack sim's budget (panel_weather.cpp).
void weatherPanel(PanelContext& context);
void helpPanel(PanelContext& context);
// The control window's Record button and video path (panel_record.cpp); recordFrame runs
// after each window frame is drawn and writes it when the lab stepped.
void recordControls(PanelContext& context);
void recordFrame(Lab& lab, ViewerState& state, int width, int height);
// The Decay panel's inverse: a target fade in, the decay value out (panel_decay_inverse.cpp).
void decayInverseSection(PanelContext& context);

// A buffer view: `caption`, then `image` at size x size with north up. Returns the texel of
// `source` (the buffer the view shows) under the mouse while the image is hovered.
std::optional<glm::ivec2> bufferImage(const gpu::Texture2D& image, const gpu::Texture2D& source,
                                      int size, const char* caption);
// A buffer view's legend, under the view: ViewerGl's colour bar for `slot` (the ramp the view
// maps onto) `size` wide, "lo unit" at its left end and "hi" at its right (panel_snowpack.cpp).
void bufferLegend(PanelContext& context, int slot, int size, glm::vec2 range, const char* unit,
                  ViewerGl::BarMap map = ViewerGl::BarMap::Inferno);

// "one difference" presets: B = A except one switch (A takes the first value, B the second).
struct OnePreset {
    const char* name;
    std::function<void(SimSettings& a, SimSettings& b)> apply;
};
const std::vector<OnePreset>& oneDifferencePresets();

} // namespace snowcap
