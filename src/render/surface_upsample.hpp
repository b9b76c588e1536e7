#pragma once
// SurfaceUpsample — the lit snow shaded at a lower rate than the view's pixels.
// Reads:  its own low-rate colour + depth (`scale` x the pane's size), into which
//         SnowSurfacePass draws the surface's geometry first, depth only (geometryPass()), then
//         its material once a pixel over a full-screen triangle (shadePass(), reading depth()).
// Writes: the view's colour and depth over its pane (composite(), shaders/surface/upsample.frag):
//         a bilinear mix of the four nearest shaded pixels that the snow covered, colour and
//         window depth alike; pixels with no covered tap keep the view's clear (the sky fills
//         them).
// Why: on a CPU rasteriser the lit material costs tens of texel copies a pixel and the
// composite eight texel fetches, so shading a quarter of the pixels is most of the frame's
// saving. A second pass of the surface's geometry at full resolution for an exact depth was
// measured too, and cost more than it saved (docs/performance.md §7).

#include "gpu/objects.hpp"
#include "gpu/pass_state.hpp"
#include "gpu/shader_library.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>

namespace snowcap {

class SurfaceUpsample {
public:
    static std::variant<std::unique_ptr<SurfaceUpsample>, std::string>
    create(gpu::ShaderLibrary& shaders);

    // The low-rate targets for a pane of width x height shaded at `scale` (0 < scale < 1), made
    // on first use per pane size (two panes of an odd-width window differ by a pixel). False
    // when they could not be allocated (logged).
    bool prepare(int width, int height, float scale);
    // The geometry at the low rate, depth only: its target and viewport, clearing the depth.
    gpu::PassState geometryPass() const;
    // The material at the low rate, colour only (every pixel is written: nothing is cleared).
    gpu::PassState shadePass() const;
    // The depth geometryPass() left, which the shading pass reads back (texelFetch).
    const gpu::Texture2D& depth() const { return current_->depth; }
    // The low-rate colour and depth into `view` (its framebuffer, viewport and scissor).
    void composite(const gpu::PassState& view) const;

    // The low-rate size of the last prepare() (tests).
    int lowWidth() const { return current_ ? current_->colour.width() : 0; }
    int lowHeight() const { return current_ ? current_->colour.height() : 0; }

private:
    SurfaceUpsample() = default;

    struct Targets {
        gpu::Texture2D colour, depth;
        gpu::Framebuffer geometry, shade; // depth only; colour only
    };
    const gpu::ShaderProgram* program_ = nullptr;
    gpu::VertexArray empty_;
    std::map<std::pair<int, int>, Targets> targets_; // by the pane's size
    const Targets* current_ = nullptr;
    int width_ = 0, height_ = 0; // the pane's pixels
};

} // namespace snowcap
