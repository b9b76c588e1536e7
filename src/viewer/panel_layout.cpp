#include "viewer/panel_layout.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace snowcap {

namespace {

// The width a folded window shrinks to when its own width finds no free edge.
constexpr float kNarrowBar = 220.0f;

struct Screen {
    float width, height, margin;
};

// The x positions a window of `width` may take: the two screen edges first, then beside
// everything already there, nearest a screen edge first.
std::vector<float> columnsFor(float width, const Screen& screen,
                              const std::vector<ScreenRect>& blockers) {
    std::vector<float> beside;
    for (const ScreenRect& r : blockers) {
        beside.push_back(r.x + r.width + screen.margin);
        beside.push_back(r.x - width - screen.margin);
    }
    const auto edgeDistance = [&](float x) {
        return std::min(x, screen.width - (x + width));
    };
    std::stable_sort(beside.begin(), beside.end(),
                     [&](float a, float b) { return edgeDistance(a) < edgeDistance(b); });
    std::vector<float> columns{screen.margin, screen.width - width - screen.margin};
    columns.insert(columns.end(), beside.begin(), beside.end());
    std::vector<float> out;
    for (float x : columns)
        if (x >= 0.0f && x + width <= screen.width &&
            std::none_of(out.begin(), out.end(), [&](float o) { return std::abs(o - x) < 0.5f; }))
            out.push_back(x);
    return out;
}

// The y positions, top to bottom: the top edge, under everything already there, and where a
// window of `height` ends at the bottom edge.
std::vector<float> rowsFor(float height, const Screen& screen,
                           const std::vector<ScreenRect>& blockers) {
    std::vector<float> rows{screen.margin, screen.height - height - screen.margin};
    for (const ScreenRect& r : blockers)
        rows.push_back(r.y + r.height + screen.margin);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::remove_if(rows.begin(), rows.end(), [](float y) { return y < 0.0f; }),
               rows.end());
    rows.erase(std::unique(rows.begin(), rows.end(),
                           [](float a, float b) { return std::abs(a - b) < 0.5f; }),
               rows.end());
    return rows;
}

// The tallest window of `width` whose top-left corner is (x, y), up to `height`, that meets
// no blocker and stays on screen; 0 when the corner itself is covered.
float roomBelow(float x, float y, float width, float height, const Screen& screen,
                const std::vector<ScreenRect>& blockers) {
    float room = std::min(height, screen.height - screen.margin - y);
    for (const ScreenRect& r : blockers) {
        if (r.x >= x + width || x >= r.x + r.width || r.y + r.height <= y)
            continue; // beside it, or above it
        if (r.y <= y)
            return 0.0f; // the corner is inside it
        room = std::min(room, r.y - y);
    }
    return std::max(room, 0.0f);
}

std::optional<ScreenRect> firstPlace(float width, float height, float minHeight,
                                     const Screen& screen,
                                     const std::vector<ScreenRect>& blockers) {
    const float left = screen.margin, right = screen.width - width - screen.margin;
    for (float x : columnsFor(width, screen, blockers))
        for (float y : rowsFor(height, screen, blockers)) {
            const float room = roomBelow(x, y, width, height, screen, blockers);
            if (room < minHeight)
                continue;
            // At an edge of the screen: in the left or right column, or (anywhere along it)
            // against the top or the bottom, never afloat in the middle of the scene.
            const bool edge = std::abs(x - left) < 0.5f || std::abs(x - right) < 0.5f ||
                              std::abs(y - screen.margin) < 0.5f ||
                              y + room >= screen.height - screen.margin - 0.5f;
            if (edge)
                return ScreenRect{x, y, width, room};
        }
    return std::nullopt;
}

} // namespace

ScreenRect paneCentreBox(const ScreenRect& pane, float minCentreBox) {
    const float side = std::min(std::max(minCentreBox, 0.25f * std::min(pane.width, pane.height)),
                                std::min(pane.width, pane.height));
    return {pane.x + 0.5f * (pane.width - side), pane.y + 0.5f * (pane.height - side), side, side};
}

std::vector<PanelPlace> placePanels(float displayWidth, float displayHeight,
                                    const std::vector<ScreenRect>& keepClear,
                                    const std::vector<PanelRequest>& requests, float titleHeight,
                                    float margin) {
    const Screen screen{displayWidth, displayHeight, margin};
    std::vector<PanelPlace> places;
    std::vector<ScreenRect> blockers = keepClear; // then every window placed, with its margin
    const auto gapped = [&](const ScreenRect& r) {
        return ScreenRect{r.x, r.y, r.width + margin, r.height + margin};
    };
    for (const PanelRequest& request : requests) {
        const float width = std::min(request.width, displayWidth - 2.0f * margin);
        std::optional<ScreenRect> open;
        if (!request.folded)
            open = firstPlace(width, request.height, std::min(request.height, request.minHeight),
                              screen, blockers);
        PanelPlace place;
        if (open) {
            place = {*open, false, open->height};
        } else {
            // Folded: a title bar, clear of the other windows if there is room, else of the
            // panes alone; at worst the top-left corner (a screen too small for any pane).
            std::optional<ScreenRect> bar =
                firstPlace(width, titleHeight, titleHeight, screen, blockers);
            if (!bar) // a narrower bar (it unfolds as narrow; the window can be widened)
                bar = firstPlace(std::min(width, kNarrowBar), titleHeight, titleHeight, screen,
                                 blockers);
            if (!bar)
                bar = firstPlace(width, titleHeight, titleHeight, screen, keepClear);
            place = {bar.value_or(ScreenRect{margin, margin, width, titleHeight}), true,
                     std::min(request.height, displayHeight - 2.0f * margin)};
        }
        blockers.push_back(gapped(place.rect));
        places.push_back(place);
    }
    return places;
}

} // namespace snowcap
