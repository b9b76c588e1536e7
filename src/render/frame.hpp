#pragma once
// One frame of the lab as the list of its passes, in the order they run. The viewer, `render`
// (its images and its final.png), the benchmark, the soak and the tests all draw through
// runFrame, so they run the same passes in the same order, with or without a timer. Each pass
// is a record (gpu/pass_record.hpp): name, timer scopes, state, bindings, reads, writes, and a
// function that only draws; framePasses builds the list, gpu::runPasses runs it. A pass that
// quality "off", idle skip or a switched-off feature leaves out is not in the list. The list
// of a scenario: `snowcap passes --scenario S` (docs/architecture.md's table is its output):
//
//   deformers   the frame's instances uploaded once for every deformer pass
//   follow      following windows move towards their observers (with paging)
//   capture     deformer depth from below, once per distinct capture  (capture, capture.N)
//   idle        the clocks of the windows idle skip leaves out
//   accumulate  capture + previous buffers -> next buffers, one pass  (accumulate.ab, ...)
//               per capture and format with an output per sim sharing it
//   sync, world overlapping windows made equal; the world stores' part of the step
//   blur        the per-step blurred copy of each sim a view draws    (blur.a, blur.b)
//   shadow      the sun's shadow map of the deformers (look.deformer_shadows) (shadow)
//   background  the target cleared around the views, when asked
//   per view:   clear, surface (or its depth, shade and upsample at a lower rate), deformers,
//               sky                                                   (view.*)
//   ui          the viewer's panels                                   (ui)
//
// Each pass's state is the whole GL state it needs (gpu/pass_state.hpp); nothing is restored.

#include "gpu/pass_record.hpp"
#include "gpu/pass_state.hpp"
#include "gpu/timers.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace snowcap {

struct FrameView {
    int sim = 0; // which sim's snow the view shows
    ViewRequest request;
    // With a timer, the view's passes together are also timed under this name ("view A").
    std::string timerScope;
};

// What a frame draws after the snow has stepped.
struct FrameDraw {
    std::vector<FrameView> views;
    // Cleared before the views (the viewer's window: the gaps between its panes).
    std::optional<gpu::PassState> background;
    // The last pass (the viewer's panels: the snow code never calls ImGui itself).
    std::function<void()> ui;
};

struct Frame {
    // Where the deformers are at the time this frame ends at (they press and are drawn there).
    std::span<const DeformerInstance> deformers;
    // > 0: the snow steps by this much first. 0: the frame shows the snow as it stands (a
    // paused viewer, an image of the end state).
    double stepDtS = 0.0;
    FrameDraw draw;
};

// The frame's passes, planned (setup: the per-view blocks, targets and programs) but not run.
// A frame that steps plans from the field as SnowField::advance(frame.deformers) left it (the
// following windows' next places and their captures); planning changes no snow state. Run them
// at once (gpu::runPasses) and plan nothing in between.
std::vector<gpu::PassRecord> framePasses(SnowField& field, SceneRenderer& renderer,
                                         const Frame& frame);
// The field advanced (when the frame steps), then framePasses run by gpu::runChecked (checked
// first in debug builds, as every graph is). With a timer, every pass is timed under the names
// above (the caller starts the timer's frame); timing changes no pass and no order.
void runFrame(SnowField& field, SceneRenderer& renderer, const Frame& frame,
              gpu::PassTimer* timer = nullptr);

// How `render` and the viewer's grid tile N sims: one row of 1 or 2 (A | B), else 2 rows of
// ceil(N / 2) columns (A B / C D for 3 or 4 sims; 4 x 2 for 7 or 8), filled row by row.
struct PaneGrid {
    int columns = 1, rows = 1;
};
PaneGrid paneGrid(int count);
// Pane `index` of `count` in a width x height target: x, y (bottom-left, GL), width, height.
// Equal cells, the last column and row flush with the far edges (B at width - width / 2).
glm::ivec4 gridPaneRect(int index, int count, int width, int height);

// The undisturbed snow top at sim `sim`'s region centre, where a camera that frames the region
// looks: snow.surface_z_cm, plus the terrain's height there when there is one.
double viewSurfaceZCm(const SnowField& field, int sim, const Settings& settings);

// The views `render` and the benchmark draw: each sim in its cell of the pane grid over a
// width x height target (A | B for two sims), through the scenario's camera (view.* settings).
std::vector<FrameView> splitViews(const SnowField& field, const Settings& settings,
                                  GLuint framebuffer, int width, int height,
                                  SurfaceOutput output = SurfaceOutput::Lit);

} // namespace snowcap
