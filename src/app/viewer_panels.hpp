#pragma once
// The viewer's ImGui panels. Only src/app/ touches ImGui.

#include "core/settings.hpp"

#include <string>

namespace snowcap {

enum class CompareLayout { SideBySide, AOnly, BOnly };

struct ViewerState {
    bool paused = false;
    bool stepOnce = false;
    bool resetRequested = false;
    bool reloadShaders = false;
    bool screenshotRequested = false;
    bool vsync = true;
    CompareLayout layout = CompareLayout::SideBySide;
    // Orbit camera.
    double yawDeg = -60.0, pitchDeg = 38.0, distanceCm = 0.0; // 0: fit on first frame
    double targetCm[3] = {0.0, 0.0, 0.0};
    std::string status; // last screenshot path, reload result, errors
};

// Per-sim parameters; returns true when `sim` changed.
bool simPanel(const char* title, SimSettings& sim);
// Play / step / reset / layout / vsync; help text.
void controlPanel(ViewerState& state, double simTimeS, double fps, const std::string& renderer,
                  const std::string& shaderError);

} // namespace snowcap
