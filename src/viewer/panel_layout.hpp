#pragma once
// Where the viewer's windows open (the control window and every open panel): at the screen's
// edges, stacked, never over what the panes are for. Pure geometry in ImGui's coordinates (top
// left origin, points), so it is tested without a window (tests/viewer/PanelLayoutTest.cpp)
// and the frame drawn by `render --ui` is checked against it (PanelPlacementGLTest).

#include <vector>

namespace snowcap {

struct ScreenRect {
    float x = 0.0f, y = 0.0f, width = 0.0f, height = 0.0f;

    bool overlaps(const ScreenRect& o) const {
        return x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height;
    }
    bool inside(float w, float h) const {
        return x >= 0.0f && y >= 0.0f && x + width <= w && y + height <= h;
    }
};

// What a window asks for: its full size, the least height at which it is still of use (a
// shorter place scrolls), and whether it starts folded to its title bar.
struct PanelRequest {
    float width = 420.0f;
    float height = 300.0f;
    float minHeight = 160.0f;
    bool folded = false;
};

struct PanelPlace {
    ScreenRect rect; // the title bar alone when folded
    bool folded = false;
    float unfoldedHeight = 0.0f; // what a folded window opens to: its request's height
};

// The part of each pane that no window may open over: a box about its centre, where the prints
// are, sized to a fifth of the pane's smaller side (at least `minCentreBox` points).
ScreenRect paneCentreBox(const ScreenRect& pane, float minCentreBox = 48.0f);

// Places `requests` in order, first come first served, on a `displayWidth` x `displayHeight`
// screen: each at full size where it fits, else at the tallest place that gives it at least
// its minHeight, else folded to a title bar of `titleHeight` (as wide as the window, else a
// narrower one). Every place stays clear of `keepClear` (pane centres, pane labels) and, while
// there is room, of the windows placed before it; where even a narrow title bar finds no free
// room it may lie on another window, still clear of `keepClear`. Every place is at an edge of
// the screen: in the left column, then the right one, or anywhere against the top or bottom
// edge; top to bottom.
std::vector<PanelPlace> placePanels(float displayWidth, float displayHeight,
                                    const std::vector<ScreenRect>& keepClear,
                                    const std::vector<PanelRequest>& requests,
                                    float titleHeight = 19.0f, float margin = 10.0f);

} // namespace snowcap
