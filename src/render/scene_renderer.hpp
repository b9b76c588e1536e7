#pragma once
// One view of the scene for one sim: clear -> snow surface -> deformers -> sky, into a pane of
// a framebuffer. The frame (render/frame.hpp) draws every view through it. The sim's blurred
// copy (blur = "prepass" / "separable") must be current: the frame's blur pass runs first.

#include "gpu/timers.hpp"
#include "render/shadow_pass.hpp"
#include "render/snow_surface_pass.hpp"
#include "render/view_params.hpp"
#include "snow/contact_capture.hpp"

#include <glm/vec4.hpp>
#include <memory>
#include <span>
#include <string>
#include <variant>

namespace snowcap {

struct ViewRequest {
    GLuint framebuffer = 0; // 0: the window
    Camera camera;
    glm::ivec4 viewportPx{0, 0, 1, 1}; // x, y, width, height
    SurfaceOutput output = SurfaceOutput::Lit;
    bool drawSky = true;
    bool drawDeformers = true;
};

class SceneRenderer {
public:
    static std::variant<std::unique_ptr<SceneRenderer>, std::string>
    create(gpu::ShaderLibrary& shaders);

    // With a timer, the view's passes are timed as "view.surface", "view.deformers" and
    // "view.sky" (summed over the views of a frame).
    // The deformers are this frame's, prepared once (deformerBatch().prepare) for every pass.
    void render(const SnowSim& sim, DeformerBatch& deformers, const ViewRequest& request,
                gpu::PassTimer* timer = nullptr);

    // The frame's shadow pass: with look.deformer_shadows and deformers to cast, the sun's map
    // over `regions` (the views' snow) is drawn and the views after it sample it; otherwise
    // the views draw unshadowed (nothing could cast). Returns whether it drew. The frame's look
    // (settings.look) is also what the views after it shade with.
    bool drawShadows(DeformerBatch& deformers, std::span<const Region> regions,
                     const Settings& settings);

    // The frame's deformer instances as every deformer pass draws them (render/frame.cpp
    // prepares it once per frame): records and poses uploaded once, shared by all passes.
    DeformerBatch& deformerBatch() { return batch_; }
    // What the last view's deformer pass drew (draw calls, instances).
    const DeformerDrawStats& lastDeformerDraw() const { return lastDeformerDraw_; }

    SnowSurfacePass& surface() { return *surface_; }
    ShadowPass& shadow() { return *shadow_; }

private:
    SceneRenderer() = default;

    LookSettings look_; // the frame's look.* (drawShadows), read by each view

    std::unique_ptr<SnowSurfacePass> surface_;
    std::unique_ptr<ShadowPass> shadow_;
    bool shadowDrawn_ = false; // by this frame's shadow pass
    const gpu::ShaderProgram* skyProgram_ = nullptr;
    const gpu::ShaderProgram* deformerProgram_ = nullptr;
    const gpu::ShaderProgram* shadowedDeformerProgram_ = nullptr; // DEFORMER_SHADOWS
    DeformerBatch batch_;
    DeformerDrawStats lastDeformerDraw_;
    gpu::Buffer viewBuffer_;
    gpu::VertexArray emptyArray_;
};

} // namespace snowcap
