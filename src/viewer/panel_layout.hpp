#pragma once
// A rectangle of the screen in ImGui's coordinates (top-left origin, points): where a pane, a
// pane's label or the side bar lies, as the tests compare them.

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

} // namespace snowcap
