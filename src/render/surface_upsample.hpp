#pragma once
// SurfaceUpsample — the lit snow shaded at a lower rate than the view's pixels.
// Reads:  nothing of the snow itself. SnowSurfacePass first draws the lit surface into this
//         class's low-rate colour + depth (`scale` x the pane's size), then draws the same
//         geometry again into the view with the upsample variant of the material
//         (shaders/surface/upsample.frag), which reads them back here.
// Writes: (the second draw) the view's colour and depth: the depth is the geometry's own at full
//         resolution, so the deformers drawn after it meet the snow at full resolution; the
//         colour is the low-rate colour upsampled with depth awareness: bilinear where the four
//         low-rate depths continue the pixel's depth (a plane's window depth is affine in screen
//         space), the tap of the nearest depth where they do not (a wall in front of a floor,
//         the snow's edge against the sky).
// Why: on a CPU rasteriser the lit material costs tens of texel copies a pixel and the second
// draw's fragment three texture reads, so shading a quarter of the pixels is most of the
// frame's saving (docs/performance.md §7).

#include "gpu/objects.hpp"
#include "gpu/pass_state.hpp"

#include <map>
#include <utility>

namespace snowcap {

class SurfaceUpsample {
public:
    // Texture units of the low-rate colour and depth in the upsample variant (the snow's buffer
    // stays on 2 for the vertex stage).
    static constexpr int kColourUnit = 0;
    static constexpr int kDepthUnit = 1;

    SurfaceUpsample();

    // The low-rate targets for a pane of width x height shaded at `scale` (0 < scale < 1), made
    // on first use per pane size (two panes of an odd-width window differ by a pixel). False
    // when they could not be allocated (logged).
    bool prepare(int width, int height, float scale);
    // The lit pass at the low rate (clears colour and depth).
    gpu::PassState shadePass() const;
    // Binds the low-rate colour and depth, and sets the upsample variant's uniforms for the
    // pane at `viewport` (the view's).
    void bindFor(GLuint program, glm::ivec4 viewport) const;
    void unbind() const;

private:
    struct Targets {
        gpu::Texture2D colour, depth;
        gpu::Framebuffer framebuffer;
    };
    std::map<std::pair<int, int>, Targets> targets_; // by the pane's size
    const Targets* current_ = nullptr;
    int width_ = 0, height_ = 0; // the pane's pixels
    gpu::Sampler linear_;        // the colour's bilinear taps
};

} // namespace snowcap
