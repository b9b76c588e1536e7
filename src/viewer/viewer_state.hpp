#pragma once
// What the viewer's panels and its frame share: the user's choices (layout, cameras, playback,
// previews) and what the last frame measured. No GLFW here, so `render --ui` can draw the same
// panels headless.

#include "core/settings.hpp"

#include <array>
#include <deque>
#include <glm/vec2.hpp>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

// Grid: every sim in the pane grid of `render` (A | B; A B / C D for 3 or 4 sims; 2 rows for
// more, render/frame.hpp's paneGrid), equal panes and no divider.
enum class CompareLayout { SplitVertical, SplitHorizontal, AOnly, BOnly, Difference, Grid };
// The --layout spellings, in CompareLayout order (keys 1-6 pick them too).
inline constexpr const char* kLayoutNames[] = {"vertical", "horizontal", "a",
                                               "b",        "difference", "grid"};

struct OrbitView {
    double yawDeg = -60.0, pitchDeg = 38.0, distanceCm = 0.0; // 0: fit on first frame
    double targetCm[3] = {0.0, 0.0, 0.0};
};

// A rolling series (newest at the back) for the graphs.
struct History {
    std::deque<float> values;
    std::size_t capacity = 240;
    void push(float v) {
        values.push_back(v);
        while (values.size() > capacity)
            values.pop_front();
    }
};

struct ProbeSample {
    double timeS;
    std::array<float, kMaxSims> value; // per sim; NaN outside its region
};

struct Recording;          // viewer/panel_record.cpp
struct WorldPanelState;    // viewer/panel_world.cpp
struct SnowpackPanelState; // viewer/panel_snowpack.cpp
struct WeatherPanelState;  // viewer/panel_weather.cpp
struct TerrainPanelState;  // viewer/panel_terrain.cpp

// Shift held with WASD: the player runs this many times its speed_cm_s (far walks over a
// world store: 50 m out and back at a boot's 1.5 m/s is over a minute).
inline constexpr double kPlayerRunFactor = 5.0;

struct ViewerState {
    // Playback.
    bool remote = false; // view --connect: the server's clock steps the lab, not the controls
    bool paused = false;
    bool stepOnce = false;
    bool restartRequested = false; // time back to 0 and both sims cleared (R)
    bool fixedStep = false;        // advance 1/fps per frame instead of the wall clock
    bool loop = true;              // start over at the scenario's end
    double scrubToS = -1.0;        // >= 0: re-simulate from 0 to this time at fixed step
    bool reloadShaders = false;
    bool screenshotRequested = false;
    bool recordToggle = false;            // Record / Stop pressed (handled after the frame)
    std::string recordPath;               // the video file; empty: out/snowcap_<time>.mp4
    std::shared_ptr<Recording> recording; // while recording
    bool vsync = true;
    bool followPlayer = false;   // the orbit target tracks the followed deformer
    glm::vec2 playerInput{0.0f}; // WASD turned by the camera's yaw (world XY)
    bool playerRuns = false;     // Shift held: kPlayerRunFactor times the speed

    // The docked side bar along the window's left edge: the control window and every panel,
    // each a section of it, so no panel ever covers a pane; the panes share the rest of the
    // window (viewer_views.hpp, sceneArea). Tab hides and shows it; its right edge drags its
    // width.
    bool sideBarShown = true;
    float sideBarWidth = 420.0f; // points, before sideBarPixels' cap
    float pixelsPerPoint = 1.0f; // framebuffer pixels per ImGui point (HiDPI), last frame's

    // Compare.
    CompareLayout layout = CompareLayout::SplitVertical;
    int simCount = 2;     // the sims the lab runs, as of the last advanceLab (the grid's panes)
    float divider = 0.5f; // split position as a fraction of the window
    bool linkedCameras = true;
    std::array<OrbitView, kMaxSims> cameras; // [s] for sim s, used only when unlinked
    float differenceRange = 0.25f;           // |A - B| mapped to the ends of the diverging map
    bool differenceAuto = true; // the range follows the data (ViewerGl::differenceRange)

    // Buffers panel: colour-map range per preview slot (capture, A, B, ...).
    // (0, 0) for the capture: from the settings on first use.
    std::array<glm::vec2, 1 + kMaxSims> previewRange = [] {
        std::array<glm::vec2, 1 + kMaxSims> ranges;
        ranges.fill(glm::vec2(0.0f, 1.0f));
        ranges[0] = glm::vec2(0.0f);
        return ranges;
    }();
    int previewSize = 192;
    // Buffers panel: a snowpack sim's liquid water view (state B, kg/m2), per sim: 0 .. 5, the
    // water at which the material darkens wet snow and ground fully.
    std::array<glm::vec2, kMaxSims> waterRange = [] {
        std::array<glm::vec2, kMaxSims> ranges;
        ranges.fill(glm::vec2(0.0f, 5.0f));
        return ranges;
    }();
    // Buffers panel: what drifted (kg/m2 arrived minus sent, WeatherSim::driftRecordKgM2), per
    // sim: full colour at +-driftRangeKgM2 (a centimetre of 100 kg/m3 snow at 1).
    std::array<float, kMaxSims> driftRangeKgM2 = [] {
        std::array<float, kMaxSims> ranges;
        ranges.fill(1.0f);
        return ranges;
    }();

    // The Scene panel's Ground section: the texture path being typed (groundTextureTyped: it
    // differs from ground.texture until loaded) and the last load's error ("" none).
    std::string groundTexturePath;
    bool groundTextureTyped = false;
    std::string groundError;
    // The Terrain section's file as typed (terrainFileTyped: it differs from terrain.file until
    // loaded) and the last edit's error ("" none).
    std::string terrainFilePath;
    bool terrainFileTyped = false;
    std::string terrainError;
    // The Terrain section's height/slope view: which it shows and the map it was made from.
    std::shared_ptr<TerrainPanelState> terrainPanel;
    // `render --ui --panels buffers:drift`: the view a panel opens scrolled to, every image
    // ("" none; parsePanelList knows the names).
    std::string scrollTo;

    // The World panel's map, file path and teleport field.
    std::shared_ptr<WorldPanelState> worldPanel;
    // The Snowpack panel's sim, view ranges and last budget.
    std::shared_ptr<SnowpackPanelState> snowpackPanel;
    // The Weather panel's scrub and its sampled timeline.
    std::shared_ptr<WeatherPanelState> weatherPanel;

    // Decay probe: world position on the snow surface, and what it read over time.
    std::optional<glm::dvec2> probeCm;
    std::vector<ProbeSample> probeSamples;
    // A click snaps the probe to the nearest print within this radius of where it hit (sim A's
    // buffer; lab/probe_snap.hpp); 0: where it hit. probeNote says what the last click did.
    double probeSnapCm = 12.0;
    bool showDeformerToml = false; // the Scene panel shows the edited deformer's TOML
    // The throw (T, or the Scene panel's button): a snowball from the camera to the snow under
    // the mouse, at this speed and radius; throwNote says what the last one did.
    double throwSpeedCmS = 1500.0;
    double throwRadiusCm = 5.0;
    bool throwRequested = false;
    std::optional<glm::dvec2> throwAtPixel; // the button's aim (a pane's centre); else the mouse
    std::string throwNote;
    glm::vec2 driveAxes{0.0f}; // a player vehicle's WASD: x steers right, y is the throttle
    std::string probeNote;

    // Timings: per pass, the latest results as a rolling series.
    std::map<std::string, History> passHistory;
    History frameMs;
    std::string timingMethod;

    // Text fields of the panels.
    std::string scenarioPath;
    std::string deformerPath;
    std::string status; // last screenshot path, reload result, errors
    // A first run (no imgui.ini yet): what to try first, in the control window until closed.
    std::string hint;
    std::string sceneError;  // the last failed load, one line
    std::string shaderError; // first failing program's reload error (file:line)
    std::string renderer;    // GL_RENDERER
    double fps = 0.0;
};

} // namespace snowcap
