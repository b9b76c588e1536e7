#pragma once
// The viewer's mouse and keyboard: orbit / pan / zoom on the pane under the cursor, the
// draggable divider and the probe click through ImGui's io (which the GLFW backend fills); the
// action keys from the window's key events, so each press acts exactly once however short or
// long it is and whatever the frame rate (a per-frame poll misses a press and release that
// fall between two frames, and repeats a held key). Only `.` (step) repeats, on purpose.
// Nothing reaches the scene while ImGui wants the mouse or keyboard.

#include "lab/lab.hpp"
#include "platform/window.hpp"
#include "viewer/viewer_state.hpp"

#include <span>

namespace snowcap {

class ViewerInput {
public:
    // Returns true when the user asked to quit (Esc).
    bool handle(Lab& lab, ViewerState& state, int width, int height,
                std::span<const Window::KeyEvent> keyEvents);

private:
    void mouse(Lab& lab, ViewerState& state, int width, int height);
    bool keys(Lab& lab, ViewerState& state, std::span<const Window::KeyEvent> keyEvents);

    bool draggingDivider_ = false;
    int dragCamera_ = -1; // which camera a drag that began on the scene moves
};

} // namespace snowcap
