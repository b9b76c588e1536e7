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
#include "gpu/pass_record.hpp"
#include "gpu/pass_state.hpp"
#include "gpu/shader_library.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace snowcap {

class SurfaceUpsample {
public:
    static std::variant<std::unique_ptr<SurfaceUpsample>, std::string>
    create(gpu::ShaderLibrary& shaders);

    // One pane size's low-rate targets.
    struct Targets {
        gpu::Texture2D colour, depth;
        gpu::Framebuffer geometry, shade; // depth only; colour only
        int paneWidth = 0, paneHeight = 0;
        int frame = 0; // the frame list that last used them
    };

    // A new frame's list is being built: the targets its views prepare stay while it runs.
    void newFrame() { ++frame_; }
    // The low-rate targets for a pane of width x height shaded at `scale` (0 < scale < 1), made
    // on first use per pane size (two panes of an odd-width window differ by a pixel). Null
    // when they could not be allocated (logged).
    const Targets* prepare(int width, int height, float scale);
    // The geometry at the low rate, depth only: its target and viewport, clearing the depth.
    static gpu::PassState geometryPass(const Targets& targets);
    // The material at the low rate, colour only (every pixel is written: nothing is cleared).
    static gpu::PassState shadePass(const Targets& targets);
    // The low-rate colour and depth into `view` (its framebuffer, viewport and scissor): the
    // pass's state, its inputs and its draw.
    gpu::PassState compositePass(const gpu::PassState& view) const;
    static std::vector<gpu::PassBinding> compositeBindings(const Targets& targets,
                                                           const std::string& resource);
    void compositeDraw(const Targets& targets, const gpu::PassState& view) const;

    // The low-rate size of the last prepare() (tests).
    int lowWidth() const { return current_ ? current_->colour.width() : 0; }
    int lowHeight() const { return current_ ? current_->colour.height() : 0; }

private:
    SurfaceUpsample() = default;

    const gpu::ShaderProgram* program_ = nullptr;
    gpu::VertexArray empty_;
    std::map<std::pair<int, int>, Targets> targets_; // by the pane's size
    const Targets* current_ = nullptr;
    int frame_ = 0;
};

} // namespace snowcap
