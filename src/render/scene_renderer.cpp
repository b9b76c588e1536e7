#include "render/scene_renderer.hpp"

#include <glm/gtc/type_ptr.hpp>

namespace snowcap {

namespace {

// Distinct, muted colours so deformers read as objects against white snow.
glm::vec3 deformerAlbedo(std::size_t index) {
    static const glm::vec3 palette[] = {
        {0.45f, 0.28f, 0.16f}, {0.62f, 0.16f, 0.12f}, {0.18f, 0.30f, 0.52f},
        {0.25f, 0.42f, 0.22f}, {0.50f, 0.45f, 0.38f},
    };
    return palette[index % std::size(palette)];
}

} // namespace

std::variant<std::unique_ptr<SceneRenderer>, std::string>
SceneRenderer::create(gpu::ShaderLibrary& shaders) {
    std::unique_ptr<SceneRenderer> renderer(new SceneRenderer());
    auto surface = SnowSurfacePass::create(shaders);
    if (auto* error = std::get_if<std::string>(&surface))
        return *error;
    renderer->surface_ = std::move(std::get<0>(surface));
    auto sky = shaders.load(
        {"sky",
         {{GL_VERTEX_SHADER, "common/fullscreen.vert"}, {GL_FRAGMENT_SHADER, "render/sky.frag"}},
         {{"FAR_PLANE", "1"}}});
    if (auto* error = std::get_if<std::string>(&sky))
        return *error;
    auto deformer = shaders.load(
        {"deformer",
         {{GL_VERTEX_SHADER, "render/deformer.vert"}, {GL_FRAGMENT_SHADER, "render/deformer.frag"}},
         {}});
    if (auto* error = std::get_if<std::string>(&deformer))
        return *error;
    renderer->skyProgram_ = std::get<gpu::ShaderProgram*>(sky);
    renderer->deformerProgram_ = std::get<gpu::ShaderProgram*>(deformer);
    renderer->viewBuffer_ = gpu::Buffer(sizeof(ViewParamsBlock), nullptr, "view.params");
    renderer->emptyArray_ = gpu::VertexArray("view.fullscreen");
    return renderer;
}

void SceneRenderer::render(const SnowSim& sim, std::span<const DeformerInstance> deformers,
                           const ViewRequest& request, gpu::PassTimer* timer) {
    auto begin = [timer](std::string_view pass) {
        if (timer)
            timer->begin(pass);
    };
    auto end = [timer](std::string_view pass) {
        if (timer)
            timer->end(pass);
    };
    if (timer) {
        // The prepass blur runs when the surface first asks for its input; run it here so it
        // has a time of its own.
        GLint framebuffer = 0;
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
        begin("view.blur");
        sim.surfaceInput();
        end("view.blur");
        glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(framebuffer));
    }
    const glm::ivec4 vp = request.viewportPx;
    const ViewParamsBlock block =
        makeViewParams(request.camera, glm::vec4(vp), request.output,
                       static_cast<float>(surface_->maxTessellationLevel()),
                       static_cast<float>(sim.region().widthCm * 0.5));
    viewBuffer_.update(0, sizeof(block), &block);
    glBindBufferBase(GL_UNIFORM_BUFFER, kViewParamsBinding, viewBuffer_.id());
    glBindBufferBase(GL_UNIFORM_BUFFER, kSnowParamsBinding, sim.paramsBuffer().id());
    glViewport(vp.x, vp.y, vp.z, vp.w);
    glEnable(GL_SCISSOR_TEST);
    glScissor(vp.x, vp.y, vp.z, vp.w);
    glDepthMask(GL_TRUE);
    glClearDepth(1.0);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    begin("view.surface");
    surface_->draw(sim, sim.settings().displacement);
    end("view.surface");

    if (request.drawDeformers && request.output == SurfaceOutput::Lit) {
        begin("view.deformers");
        glEnable(GL_DEPTH_TEST);
        glUseProgram(deformerProgram_->id());
        const glm::mat4 viewProjection = request.camera.viewProjection();
        glProgramUniformMatrix4fv(deformerProgram_->id(), 0, 1, GL_FALSE,
                                  glm::value_ptr(viewProjection));
        for (std::size_t i = 0; i < deformers.size(); ++i) {
            if (!deformers[i].mesh)
                continue;
            glProgramUniformMatrix4fv(deformerProgram_->id(), 1, 1, GL_FALSE,
                                      glm::value_ptr(deformers[i].model));
            glProgramUniform3fv(deformerProgram_->id(), 2, 1, glm::value_ptr(deformerAlbedo(i)));
            deformers[i].mesh->draw(deformerProgram_->id(), deformers[i].skinning);
        }
        end("view.deformers");
    }
    if (request.drawSky && request.output == SurfaceOutput::Lit) {
        // Last, at the far plane: only what the snow and the deformers left uncovered is shaded.
        begin("view.sky");
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LEQUAL);
        glDepthMask(GL_FALSE);
        glUseProgram(skyProgram_->id());
        glBindVertexArray(emptyArray_.id());
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDepthMask(GL_TRUE);
        glDepthFunc(GL_LESS);
        end("view.sky");
    }
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_SCISSOR_TEST);
}

} // namespace snowcap
