#pragma once
// One view of the scene for one sim: sky -> snow surface -> deformers, into the bound
// framebuffer's viewport. The headless renderer, the viewer and the tests all draw through it.

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

    // With a timer, the view's passes are timed as "view.sky", "view.blur" (the sim's prepass,
    // when it is due), "view.surface" and "view.deformers".
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
