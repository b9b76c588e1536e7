#pragma once
// What the viewer's panels and its frame share: the user's choices (layout, cameras, playback,
// previews) and what the last frame measured. No GLFW here, so `render --ui` can draw the same
// panels headless.

#include <array>
#include <deque>
#include <glm/vec2.hpp>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

enum class CompareLayout { SplitVertical, SplitHorizontal, AOnly, BOnly, Difference };

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
    std::array<float, 2> value; // per sim; NaN outside its region
};

struct Recording; // viewer/panel_record.cpp

struct ViewerState {
    // Playback.
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

    // Compare.
    CompareLayout layout = CompareLayout::SplitVertical;
    float divider = 0.5f; // split position as a fraction of the window
    bool linkedCameras = true;
    std::array<OrbitView, 2> cameras; // [1] used only when unlinked
    float differenceRange = 0.25f;    // |A - B| mapped to the ends of the diverging map

    // Buffers panel: colour-map range per preview slot (capture, A, B).
    // (0, 0) for the capture: from the settings on first use.
    std::array<glm::vec2, 3> previewRange{glm::vec2(0.0f), glm::vec2(0.0f, 1.0f),
                                          glm::vec2(0.0f, 1.0f)};
    int previewSize = 192;

    // Decay probe: world position on the snow surface, and what it read over time.
    std::optional<glm::dvec2> probeCm;
    std::vector<ProbeSample> probeSamples;

    // Timings: per pass, the latest results as a rolling series.
    std::map<std::string, History> passHistory;
    History frameMs;
    std::string timingMethod;

    // Text fields of the panels.
    std::string scenarioPath;
    std::string deformerPath;
    std::string status;      // last screenshot path, reload result, errors
    std::string sceneError;  // the last failed load, one line
    std::string shaderError; // first failing program's reload error (file:line)
    std::string renderer;    // GL_RENDERER
    double fps = 0.0;
};

} // namespace snowcap
