#pragma once
// One view of the scene for one sim: clear -> snow surface -> deformers -> sky, into a pane of
// a framebuffer. The frame (render/frame.hpp) draws every view through it. The sim's blurred
// copy (blur = "prepass" / "separable") must be current: the frame's blur pass runs first.

#include "core/falling_snow.hpp"
#include "gpu/pass_record.hpp"
#include "render/falling_snow_pass.hpp"
#include "render/shadow_pass.hpp"
#include "render/snow_surface_pass.hpp"
#include "render/view_params.hpp"
#include "snow/contact_capture.hpp"

#include <deque>
#include <glm/vec4.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

struct ViewRequest {
    GLuint framebuffer = 0; // 0: the window
    Camera camera;
    glm::ivec4 viewportPx{0, 0, 1, 1}; // x, y, width, height
    SurfaceOutput output = SurfaceOutput::Lit;
    bool drawSky = true;
    bool drawDeformers = true;
};

// What the frame's list says about one view when the renderer adds its passes.
struct ViewPasses {
    int index = 0;          // the view's place in the frame (its passes' group, its pane's name)
    std::string timerScope; // the view's passes together are timed under it ("view A"); "": not
    LookSettings look;      // the frame's look.*
    std::vector<gpu::PassBinding> shadowBindings; // the frame's shadow map; empty: none drawn
    std::string input;         // the sim's surface input ("a.blurred", "a.buffer")
    bool inputHistory = false; // nothing earlier in this frame writes it
    // The air over the view's region while it snows (core/falling_snow.hpp); none: no flakes,
    // and no falling-snow pass in the list.
    std::optional<FallingSnowAir> fallingSnow;
    const GroundTexture* ground = nullptr;   // the field's ground texture; null: none
    const TerrainTexture* terrain = nullptr; // the ground's shape (terrainFor); null: flat
};

class SceneRenderer {
public:
    static std::variant<std::unique_ptr<SceneRenderer>, std::string>
    create(gpu::ShaderLibrary& shaders);

    // A new frame's list is being built (the per-view targets it prepares stay while it runs).
    void newFrame();
    // The frame's shadow pass ("shadow"): with look.deformer_shadows, a deformer with a mesh
    // and a region to receive, the sun's map over `regions` (the lit views' snow), which the
    // views after it sample (ShadowPass::bindings); otherwise none, and the views draw
    // unshadowed. Setup: the light's matrices and block for the box.
    // `terrain`: the ground under the regions (null: flat), whose relief the box spans.
    std::optional<gpu::PassRecord> shadowPass(DeformerBatch& batch,
                                              std::span<const DeformerInstance> deformers,
                                              std::span<const Region> regions,
                                              const Settings& settings,
                                              const HeightField* terrain = nullptr);
    // The GPU copy of `terrain` (render/terrain_texture.hpp), made on first use and kept while
    // the field holds the same terrain; null for none or a flat one, or when it cannot be made
    // (logged once: the surface is then drawn flat).
    const TerrainTexture* terrainFor(const std::shared_ptr<const HeightField>& terrain);
    // One view of the scene for one sim: clear, surface (render/snow_surface_pass.hpp),
    // deformers, sky and, while it snows, the falling snow, appended to the frame's list; the
    // view's passes are timed as "view.surface", "view.deformers", "view.sky" and
    // "view.falling_snow" (summed over the views of a frame).
    void appendViewPasses(std::vector<gpu::PassRecord>& passes, const SnowSim& sim,
                          DeformerBatch& deformers, const ViewRequest& request,
                          const ViewPasses& view);

    // The frame's deformer instances as every deformer pass draws them: records and poses
    // uploaded once a frame by the frame's "deformers" pass, shared by all passes after it.
    DeformerBatch& deformerBatch() { return batch_; }
    // What the last view's deformer pass drew (draw calls, instances).
    const DeformerDrawStats& lastDeformerDraw() const { return lastDeformerDraw_; }

    SnowSurfacePass& surface() { return *surface_; }
    ShadowPass& shadow() { return *shadow_; }

private:
    SceneRenderer() = default;

    std::unique_ptr<SnowSurfacePass> surface_;
    std::unique_ptr<ShadowPass> shadow_;
    std::unique_ptr<FallingSnowPass> fallingSnow_;
    std::unique_ptr<TerrainTexture> terrain_;
    std::shared_ptr<const HeightField> terrainFailed_; // the terrain that could not be made
    const gpu::ShaderProgram* skyProgram_ = nullptr;
    const gpu::ShaderProgram* deformerProgram_ = nullptr;
    const gpu::ShaderProgram* shadowedDeformerProgram_ = nullptr; // DEFORMER_SHADOWS
    DeformerBatch batch_;
    DeformerDrawStats lastDeformerDraw_;
    // One ViewParams block per view of the frame, written when its passes are planned.
    std::deque<gpu::Buffer> viewBuffers_; // a deque: the list's bindings point into it
    gpu::VertexArray emptyArray_;
};

} // namespace snowcap
