#pragma once
// One viewer frame without the window: advance the lab as the playback state asks, record the
// probe and the timings, and (headless) draw scene + panels into an image. The windowed viewer
// and `render --ui` both go through here, so they show the same thing.

#include "io/image.hpp"
#include "lab/lab.hpp"
#include "viewer/viewer_panels.hpp"
#include "viewer/viewer_state.hpp"
#include "viewer/viewer_views.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string>

namespace snowcap {

// Restart / scrub / pause / single step / fixed or real-time step, then the probe's texels.
// `wallDtS` is the wall-clock time since the last frame (real-time playback).
void advanceLab(Lab& lab, ViewerState& state, double wallDtS);

// The probe's texel in each sim, appended to its history (restarts when time went back).
void recordProbe(Lab& lab, ViewerState& state);

// Collects the pass timer's latest results and this frame's time into the rolling graphs.
void recordTimings(Lab& lab, ViewerState& state, double frameMs);

// The framebuffer's colour, top row first, opaque.
ImageRgba8 readFramebufferImage(GLuint framebuffer, int width, int height);

// "sims,buffers" -> open flags; fails with one line naming the unknown panel. With `scrollTo`
// (render --ui, view), "PANEL:VIEW" also opens the panel scrolled to that view (kPanelViews:
// "buffers:drift", what drifted, below the Buffers panel's fold; "scene:ground", the Scene
// panel's Ground section open); without it a view is refused.
std::optional<std::string> parsePanelList(const std::string& list,
                                          std::array<bool, static_cast<int>(PanelId::Count)>& open,
                                          std::string* scrollTo = nullptr);

// Whether the cameras start following the player: when a sim's region follows it (world_walk),
// so the walker and its trail stay in view. followCamera moves the cameras' targets onto the
// followed deformer while state.followPlayer is on.
bool followsAtStart(const Settings& settings);
void followCamera(ViewerState& state, const Lab& lab);

// --layout NAME and --probe X Y (both optional) into the state; with no --layout, a lab of
// more than two sims starts in the grid.
void applyStartOptions(ViewerState& state, const std::string& layout,
                       const std::vector<double>& probeCm, int simCount);

// Each top-level window of the frame ImGui last drew, as it placed it (the title bar alone when
// folded).
struct PlacedWindow {
    std::string title;
    ScreenRect rect;
    bool folded = false;
};
std::vector<PlacedWindow> placedWindows();
// -v: one debug line for each pane ("pane: X,Y WxH") and one for each placed window ("window
// 'TITLE': X,Y WxH", " folded" after it), in ImGui's points from the top left; the viewer logs
// them with each screenshot, and tests/app/ViewerPlacesTest.sh checks that no window lies on a
// pane.
void logPlaces(const ViewerState& state);

// `render --ui`: the viewer's frame (panes + panels) drawn into an offscreen image through
// ImGui's OpenGL3 backend on the headless context, with no window: display size and delta time
// are fed to ImGui by hand.
class HeadlessUi {
public:
    static std::variant<std::unique_ptr<HeadlessUi>, std::string>
    create(Lab& lab, const std::string& panels, const std::string& layout,
           const std::vector<double>& probeCm, const std::string& renderer);
    ~HeadlessUi();
    HeadlessUi(const HeadlessUi&) = delete;
    HeadlessUi& operator=(const HeadlessUi&) = delete;

    // The viewer's frame as it stands.
    ImageRgba8 render(Lab& lab, int width, int height, double dtS);
    // After each step (probe and timing histories), whether or not an image is drawn.
    void afterStep(Lab& lab, double dtS);
    // Each window of the last image (placedWindows) and each pane, in ImGui's points: what the
    // tests check against each other.
    using Window = PlacedWindow;
    std::vector<Window> windows() const { return placedWindows(); }
    std::vector<ScreenRect> panes() const { return paneRects(state_); }
    // Hides or shows the side bar (the viewer's Tab).
    void showSideBar(bool shown) { state_.sideBarShown = shown; }

private:
    HeadlessUi() = default;
    ViewerState state_;
    ViewerGl gl_;
    std::array<bool, static_cast<int>(PanelId::Count)> open_{};
    bool imgui_ = false;
};

} // namespace snowcap
