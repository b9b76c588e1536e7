#pragma once
// The viewer's mouse and keyboard, read through ImGui's io (which the GLFW backend fills):
// orbit / pan / zoom on the pane under the cursor, the draggable divider, the probe click,
// and the shortcut keys. Nothing reaches the scene while ImGui wants the mouse or keyboard.

#include "lab/lab.hpp"
#include "viewer/viewer_state.hpp"

namespace snowcap {

class ViewerInput {
public:
    // Returns true when the user asked to quit (Esc).
    bool handle(Lab& lab, ViewerState& state, int width, int height);

private:
    void mouse(Lab& lab, ViewerState& state, int width, int height);
    bool keys(Lab& lab, ViewerState& state);

    bool draggingDivider_ = false;
    int dragCamera_ = -1; // which camera a drag that began on the scene moves
};

} // namespace snowcap
