#pragma once
// The scene part of a viewer frame: the panes of the compare layout (A | B, A over B, one sim,
// the A - B difference, or the grid of every sim: A B / C D), their orbit cameras, probe picking,
// and the GL the panels need (colour-mapped buffer previews, single-texel readback). The panes are
// views of the lab's frame (render/frame.hpp).

#include "gpu/objects.hpp"
#include "lab/lab.hpp"
#include "viewer/viewer_state.hpp"

#include <functional>
#include <glm/vec4.hpp>
#include <map>
#include <optional>
#include <vector>

namespace snowcap {

struct Pane {
    int sim = 0;        // 0 = A, 1 = B, ..., -1 = the difference view
    glm::ivec4 rect{0}; // x, y (bottom-left, GL), width, height in framebuffer pixels
};

// The docked side bar's width in framebuffer pixels on a window `width` pixels wide: the
// user's width (state.sideBarWidth points), at most kSideBarShare of the window so the panes
// keep the larger part; 0 while hidden.
inline constexpr float kSideBarShare = 0.4f;
int sideBarPixels(const ViewerState& state, int width);
// The part of a width x height framebuffer the panes share, right of the side bar: x, y
// (bottom-left, GL), width, height in framebuffer pixels.
glm::ivec4 sceneArea(const ViewerState& state, int width, int height);
// The panes of `state.layout` over the scene area of a width x height framebuffer (the grid:
// state.simCount).
std::vector<Pane> layoutPanes(const ViewerState& state, int width, int height);
// The orbit camera a pane uses (cameras[0] when linked or for the difference view).
Camera paneCamera(const ViewerState& state, const Lab& lab, const Pane& pane);
// Sets a camera that frames the region (in a pane of `aspect`) when its distance is still 0.
void fitCameras(ViewerState& state, const Lab& lab, double aspect);

// The pane under framebuffer pixel (x, y) (bottom-left origin); none between or outside them.
std::optional<Pane> paneAt(const ViewerState& state, int width, int height, glm::dvec2 pixel);

// Where the ray through framebuffer pixel (x, y) (bottom-left origin) meets the undisturbed
// snow surface: z = snow.surface_z_cm, or on a terrain the snow top over it (its first crossing
// between the near and the far plane, terrain/terrain_view.hpp); none when it misses it.
std::optional<glm::dvec3> pickGround(const ViewerState& state, const Lab& lab, int width,
                                     int height, glm::dvec2 pixel);
// pickGround's x, y.
std::optional<glm::dvec2> pickSurface(const ViewerState& state, const Lab& lab, int width,
                                      int height, glm::dvec2 pixel);

// Puts the probe where a click hit the snow (`hit`, from pickSurface), snapped to the nearest
// print of sim `snapSim` (the clicked pane's; A for the difference view) within
// state.probeSnapCm; a miss, or a click on untouched snow, leaves a note in state.probeNote (and
// a miss leaves the probe where it was).
void placeProbe(ViewerState& state, const Lab& lab, std::optional<glm::dvec2> hit, int snapSim);

// Throws a snowball (physics/body_list.hpp's snowballToward) from the camera of the pane under
// framebuffer pixel `pixel` to where the ray through it meets the snow, at state.throwSpeedCmS;
// the lab takes it as a [[body]] launched now. One line when the ray misses the snow or the lab
// refuses it.
std::optional<std::string> throwSnowball(const ViewerState& state, Lab& lab, int width, int height,
                                         glm::dvec2 pixel);

// One texel of a texture read back (only that texel): up to 4 channels, or the depth.
glm::vec4 readTexel(const gpu::Texture2D& texture, int x, int y);

class ViewerGl {
public:
    // Fails with the shader library's one line.
    std::optional<std::string> init(gpu::ShaderLibrary& shaders);

    // The viewer's frame without a step (the lab stepped already): the window background, the
    // panes of the current layout (when `drawPanes`) into `framebuffer` (0 or an offscreen
    // one), then the A - B composite and `panels` as the frame's last pass. `deformers`, when
    // given, are drawn instead of the lab's own (a session's client: the server's poses).
    void drawFrame(Lab& lab, const ViewerState& state, GLuint framebuffer, int width, int height,
                   bool drawPanes, std::function<void()> panels,
                   std::span<const DeformerInstance> deformers = {});

    // A width x width RGBA8 picture of one channel of `source` through inferno over `range`;
    // `slot` names the preview so each keeps its own texture. SnowpackDensity maps a snowpack
    // state's density (mass G / depth R; bare texels slate grey) instead of a channel.
    // Diverging: a signed channel, -range.y (blue) .. 0 (white) .. +range.y (red).
    enum class PreviewValue { Channel, SnowpackDensity, Diverging };
    const gpu::Texture2D& preview(int slot, const gpu::Texture2D& source, int channel,
                                  glm::vec2 range, int size,
                                  PreviewValue value = PreviewValue::Channel);
    // The legend of a preview: a width x height RGBA8 bar of the same colour map, its left
    // column the range's low end and its right column the high end (viewer/colour_map.frag,
    // mode 3: the very ramp the previews map onto). Diverging: the difference view's key
    // (mode 4), -range (B holds more, blue) on the left, 0 (white) mid, +range (red) right.
    enum class BarMap { Inferno, Diverging };
    const gpu::Texture2D& colourBar(int slot, int width, int height, BarMap map = BarMap::Inferno);

    // The |A - B| the difference pane maps to the ends of its colour map: the slider's, or with
    // auto (the default) the 99th percentile of |A - B| over the pane's pixels where either sim
    // holds a print, rounded up to 1, 2 or 5 times a power of ten (0.001 .. 1), re-measured every
    // tenth frame, so a faint difference is not white and a strong one does not saturate.
    float differenceRange(const ViewerState& state) const;

private:
    float measureDifferenceRange() const;
    float autoDifferenceRange_ = 0.25f;
    int framesSinceMeasured_ = 1 << 20;
    // The A - B pane: both sims' persistent values seen by the camera (two views into
    // offscreen targets), then composited into the pane.
    void differenceViews(const ViewerState& state, const Lab& lab, const Pane& pane,
                         std::vector<FrameView>& views);
    void composeDifference(const ViewerState& state, const Pane& pane, GLuint framebuffer);
    struct Target {
        gpu::Texture2D colour, depth;
        gpu::Framebuffer framebuffer;
    };
    Target& target(std::map<int, Target>& targets, int slot, int width, int height,
                   gpu::TextureFormat format, bool withDepth);

    const gpu::ShaderProgram* colourMap_ = nullptr;
    gpu::VertexArray emptyArray_;
    gpu::Sampler linear_;
    std::map<int, Target> previews_;
    std::map<int, Target> colourBars_;
    std::map<int, Target> difference_; // [0] A, [1] B: the persistent value seen by the camera
};

} // namespace snowcap
