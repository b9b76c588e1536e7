#include "render/frame.hpp"

#include "render/view_params.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace snowcap {

namespace {

class Timed {
public:
    Timed(gpu::PassTimer* timer, std::string_view pass) : timer_(timer), pass_(pass) {
        if (timer_ && !pass_.empty())
            timer_->begin(pass_);
    }
    ~Timed() {
        if (timer_ && !pass_.empty())
            timer_->end(pass_);
    }
    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;

private:
    gpu::PassTimer* timer_;
    std::string pass_;
};

} // namespace

void runFrame(SnowField& field, SceneRenderer& renderer, const Frame& frame,
              gpu::PassTimer* timer) {
    // The deformers' records and poses, uploaded once for every pass that draws them.
    DeformerBatch& deformers = renderer.deformerBatch();
    deformers.prepare(frame.deformers);

    // follow -> capture -> accumulate, with idle skip (snow/snow_field.cpp)
    if (frame.stepDtS > 0.0)
        field.step(deformers, frame.stepDtS, timer);

    // The per-step blur, for the sims this frame draws (a no-op when the copy is current).
    std::array<bool, kMaxSims> drawn{};
    for (const FrameView& view : frame.draw.views)
        drawn[view.sim] = true;
    for (int s = 0; s < field.simCount(); ++s) {
        SnowSim& sim = field.sim(s);
        if (!drawn[s] || !sim.blurDue())
            continue;
        Timed timed(timer, "blur." + sim.name());
        sim.blur();
    }

    // The sun's shadow map of the deformers, over the regions the lit views show.
    std::vector<Region> litRegions;
    for (const FrameView& view : frame.draw.views)
        if (view.request.output != SurfaceOutput::Persistent &&
            view.request.output != SurfaceOutput::SnowMask)
            litRegions.push_back(field.sim(view.sim).region());
    {
        Timed timed(timer, "shadow");
        renderer.drawShadows(deformers, litRegions, field.effectiveSettings());
    }

    if (frame.draw.background)
        gpu::beginPass(*frame.draw.background);

    // Each view: clear, surface, deformers, sky (render/scene_renderer.cpp).
    for (const FrameView& view : frame.draw.views) {
        Timed timed(timer, view.timerScope);
        renderer.render(field.sim(view.sim), deformers, view.request, timer);
    }

    if (frame.draw.ui) {
        Timed timed(timer, "ui");
        frame.draw.ui();
    }
}

PaneGrid paneGrid(int count) {
    if (count <= 2)
        return {std::max(count, 1), 1};
    return {(count + 1) / 2, 2};
}

glm::ivec4 gridPaneRect(int index, int count, int width, int height) {
    const PaneGrid grid = paneGrid(count);
    const int column = index % grid.columns, row = index / grid.columns;
    // Equal cells; the last column and row sit flush with the far edge, as B's half always did
    // (at width - width / 2), so a pixel division leaves over is a gap between panes.
    const int w = width / grid.columns, h = height / grid.rows;
    const int x = column == grid.columns - 1 ? width - w : column * w;
    const int top = row == grid.rows - 1 ? height - h : row * h; // row 0 is the top row
    return {x, height - top - h, w, h};
}

std::vector<FrameView> splitViews(const SnowField& field, const Settings& settings,
                                  GLuint framebuffer, int width, int height, SurfaceOutput output) {
    std::vector<FrameView> views;
    for (int s = 0; s < field.simCount(); ++s) {
        FrameView view;
        view.sim = s;
        view.request.framebuffer = framebuffer;
        view.request.viewportPx = gridPaneRect(s, field.simCount(), width, height);
        const glm::ivec4 rect = view.request.viewportPx;
        view.request.camera = cameraFor(settings.view, field.sim(s).region(),
                                        settings.snow.surfaceZCm, double(rect.z) / rect.w);
        view.request.output = output;
        views.push_back(view);
    }
    return views;
}

} // namespace snowcap
