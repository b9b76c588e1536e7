#include "render/frame.hpp"

#include "render/view_params.hpp"

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
    // follow -> capture -> accumulate, with idle skip (snow/snow_field.cpp)
    if (frame.stepDtS > 0.0)
        field.step(frame.deformers, frame.stepDtS, timer);

    // The per-step blur, for the sims this frame draws (a no-op when the copy is current).
    std::array<bool, SnowField::kSimCount> drawn{};
    for (const FrameView& view : frame.draw.views)
        drawn[view.sim] = true;
    for (int s = 0; s < SnowField::kSimCount; ++s) {
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
        renderer.drawShadows(frame.deformers, litRegions, field.effectiveSettings());
    }

    if (frame.draw.background)
        gpu::beginPass(*frame.draw.background);

    // Each view: clear, surface, deformers, sky (render/scene_renderer.cpp).
    for (const FrameView& view : frame.draw.views) {
        Timed timed(timer, view.timerScope);
        renderer.render(field.sim(view.sim), frame.deformers, view.request, timer);
    }

    if (frame.draw.ui) {
        Timed timed(timer, "ui");
        frame.draw.ui();
    }
}

std::vector<FrameView> splitViews(const SnowField& field, const Settings& settings,
                                  GLuint framebuffer, int width, int height, SurfaceOutput output) {
    std::vector<FrameView> views;
    const int half = width / 2;
    for (int s = 0; s < SnowField::kSimCount; ++s) {
        FrameView view;
        view.sim = s;
        view.request.framebuffer = framebuffer;
        view.request.viewportPx = {s == 0 ? 0 : width - half, 0, half, height};
        view.request.camera = cameraFor(settings.view, field.sim(s).region(),
                                        settings.snow.surfaceZCm, double(half) / height);
        view.request.output = output;
        views.push_back(view);
    }
    return views;
}

} // namespace snowcap
