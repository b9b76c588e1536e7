#include "render/frame.hpp"

#include "gpu/frame_graph.hpp"
#include "render/view_params.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace snowcap {

namespace {

// The sim's buffer pair and blurred copy are the only resources a frame may read before it
// writes them: they hold what earlier frames made.
bool blurs(const SnowSim& sim) {
    return sim.settings().blur != BlurMode::PerPixel && sim.allocated();
}

} // namespace

std::vector<gpu::PassRecord> framePasses(SnowField& field, SceneRenderer& renderer,
                                         const Frame& frame) {
    std::vector<gpu::PassRecord> passes;
    renderer.newFrame();

    // The deformers' records and poses, uploaded once for every pass that draws them.
    DeformerBatch& batch = renderer.deformerBatch();
    {
        gpu::PassRecord upload;
        upload.name = "deformers";
        upload.stateNote = "no draw: records and joint palette uploaded";
        upload.writes = {"deformers"};
        const std::span<const DeformerInstance> instances = frame.deformers;
        upload.execute = [&batch, instances] {
            batch.prepare(instances);
        };
        passes.push_back(std::move(upload));
    }

    // follow -> capture -> accumulate, with idle skip (snow/snow_field_passes.cpp)
    StepPlan step;
    if (frame.stepDtS > 0.0)
        step = field.planStep(batch, frame.deformers, frame.stepDtS);
    for (gpu::PassRecord& pass : step.passes)
        passes.push_back(std::move(pass));

    // The per-step blur, for the sims this frame draws, when the copy is older than the buffer
    // (or this step writes the buffer).
    std::array<bool, kMaxSims> drawn{}, blurred{};
    for (const FrameView& view : frame.draw.views)
        drawn[view.sim] = true;
    for (int s = 0; s < field.simCount(); ++s) {
        SnowSim& sim = field.sim(s);
        if (!drawn[s] || !blurs(sim) || !(sim.blurDue() || step.writes[s]))
            continue;
        gpu::PassRecord blur;
        blur.name = "blur." + sim.name();
        blur.timers = {blur.name};
        blur.stateNote = sim.settings().blur == BlurMode::Separable
                             ? "fbo: x into the half-size temp, then y into the copy"
                             : "fbo: the blurred copy";
        blur.bindings = sim.blurBindings();
        blur.reads = {{sim.bufferResource(), !step.writes[s]}};
        blur.writes = {sim.blurredResource()};
        blur.execute = [&sim] {
            sim.blurDraws();
        };
        passes.push_back(std::move(blur));
        blurred[s] = true;
    }

    // A hot reload of the detail noise (F5, or an edit on disk) re-bakes it.
    if (std::optional<gpu::PassRecord> detail = renderer.surface().detailPass())
        passes.push_back(std::move(*detail));

    // The sun's shadow map of the deformers, over the regions the lit views show (where this
    // step's follow takes them).
    std::vector<Region> litRegions;
    for (const FrameView& view : frame.draw.views)
        if (view.request.output != SurfaceOutput::Persistent &&
            view.request.output != SurfaceOutput::SnowMask)
            litRegions.push_back(field.plannedRegion(view.sim));
    std::optional<gpu::PassRecord> shadow = renderer.shadowPass(
        batch, frame.deformers, litRegions, field.effectiveSettings(), field.terrain().get());
    const std::vector<gpu::PassBinding> shadowBindings =
        shadow ? renderer.shadow().bindings() : std::vector<gpu::PassBinding>{};
    if (shadow)
        passes.push_back(std::move(*shadow));

    if (frame.draw.background) {
        gpu::PassRecord background;
        background.name = "background";
        background.state = *frame.draw.background;
        background.writes = {"target"};
        passes.push_back(std::move(background));
    }

    // Each view: clear, surface, deformers, sky (render/scene_renderer.cpp).
    for (std::size_t v = 0; v < frame.draw.views.size(); ++v) {
        const FrameView& view = frame.draw.views[v];
        const SnowSim& sim = field.sim(view.sim);
        ViewPasses passesOf;
        passesOf.index = static_cast<int>(v);
        passesOf.timerScope = view.timerScope;
        passesOf.look = field.effectiveSettings().look;
        passesOf.shadowBindings = shadowBindings;
        passesOf.ground = field.groundTexture();
        passesOf.terrain = renderer.terrainFor(field.terrain());
        passesOf.input = blurs(sim) ? sim.blurredResource() : sim.bufferResource();
        passesOf.inputHistory = blurs(sim) ? !blurred[view.sim] : !step.writes[view.sim];
        // The flakes while [weather] snows, in the air this view's camera sees, at the sim's time.
        const FallingSnowAir air =
            fallingSnowAirFor(field.effectiveSettings(), field.plannedRegion(view.sim),
                              view.request.camera, sim.timeS());
        if (air.flakes > 0)
            passesOf.fallingSnow = air;
        renderer.appendViewPasses(passes, sim, batch, view.request, passesOf);
    }

    if (frame.draw.ui) {
        gpu::PassRecord ui;
        ui.name = "ui";
        ui.timers = {"ui"};
        ui.stateNote = "the panels' own (ImGui)";
        ui.writes = {"window"};
        ui.execute = frame.draw.ui;
        passes.push_back(std::move(ui));
    }
    return passes;
}

void runFrame(SnowField& field, SceneRenderer& renderer, const Frame& frame,
              gpu::PassTimer* timer) {
    if (frame.stepDtS > 0.0)
        field.advance(frame.deformers);
    gpu::runChecked(framePasses(field, renderer, frame), timer);
}

double viewSurfaceZCm(const SnowField& field, int sim, const Settings& settings) {
    const std::shared_ptr<const HeightField>& terrain = field.terrain();
    if (!terrain || terrain->flat())
        return settings.snow.surfaceZCm;
    const glm::dvec2 centre = field.sim(sim).region().centreCm;
    return settings.snow.surfaceZCm + terrain->heightCm(centre.x, centre.y);
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
        view.request.camera =
            cameraFor(settings.view, field.sim(s).region(), viewSurfaceZCm(field, s, settings),
                      double(rect.z) / rect.w);
        view.request.output = output;
        views.push_back(view);
    }
    return views;
}

} // namespace snowcap
