#pragma once
// One view of the scene for one sim: clear -> snow surface -> deformers -> sky, into a pane of
// a framebuffer. The frame (render/frame.hpp) draws every view through it. The sim's blurred
// copy (blur = "prepass" / "separable") must be current: the frame's blur pass runs first.

#include "gpu/timers.hpp"
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
    void render(const SnowSim& sim, std::span<const DeformerInstance> deformers,
                const ViewRequest& request, gpu::PassTimer* timer = nullptr);

    SnowSurfacePass& surface() { return *surface_; }

private:
    SceneRenderer() = default;

    std::unique_ptr<SnowSurfacePass> surface_;
    const gpu::ShaderProgram* skyProgram_ = nullptr;
    const gpu::ShaderProgram* deformerProgram_ = nullptr;
    gpu::Buffer viewBuffer_;
    gpu::VertexArray emptyArray_;
};

} // namespace snowcap
