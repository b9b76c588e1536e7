#include "render/scene_renderer.hpp"

#include <algorithm>
#include <glm/common.hpp>
#include <glm/gtc/type_ptr.hpp>

namespace snowcap {

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
         {{"DEFORMER_SHADOWS", "0"}}});
    if (auto* error = std::get_if<std::string>(&deformer))
        return *error;
    auto shadowed = shaders.load(
        {"deformer.shadowed",
         {{GL_VERTEX_SHADER, "render/deformer.vert"}, {GL_FRAGMENT_SHADER, "render/deformer.frag"}},
         {{"DEFORMER_SHADOWS", "1"}}});
    if (auto* error = std::get_if<std::string>(&shadowed))
        return *error;
    renderer->shadowedDeformerProgram_ = std::get<gpu::ShaderProgram*>(shadowed);
    auto shadow = ShadowPass::create(shaders);
    if (auto* error = std::get_if<std::string>(&shadow))
        return *error;
    renderer->shadow_ = std::move(std::get<0>(shadow));
    renderer->skyProgram_ = std::get<gpu::ShaderProgram*>(sky);
    renderer->deformerProgram_ = std::get<gpu::ShaderProgram*>(deformer);
    renderer->viewBuffer_ = gpu::Buffer(sizeof(ViewParamsBlock), nullptr, "view.params");
    renderer->emptyArray_ = gpu::VertexArray("view.fullscreen");
    return renderer;
}

bool SceneRenderer::drawShadows(DeformerBatch& batch, std::span<const Region> regions,
                                const Settings& settings) {
    look_ = settings.look;
    shadowDrawn_ = false;
    const std::span<const DeformerInstance> deformers = batch.instances();
    const bool casters = batch.meshCount() > 0;
    if (!settings.look.deformerShadows || !casters || regions.empty())
        return false;
    // The receivers: the regions' snow from the ground under it up to the tallest caster (the
    // skirt beyond the regions is left unshadowed).
    ShadowBox box;
    box.minCm = glm::dvec2(1e30);
    box.maxCm = glm::dvec2(-1e30);
    for (const Region& region : regions) {
        const glm::dvec2 half(region.widthCm * 0.5);
        box.minCm = glm::min(box.minCm, region.centreCm - half);
        box.maxCm = glm::max(box.maxCm, region.centreCm + half);
    }
    box.zLowCm = settings.snow.surfaceZCm - settings.snow.depthCm;
    box.zHighCm = settings.snow.surfaceZCm + 1.0;
    for (const DeformerInstance& d : deformers)
        if (d.mesh && d.worldBounds.valid())
            box.zHighCm = std::max(box.zHighCm, double(d.worldBounds.max.z));
    shadow_->draw(batch, box, settings.look.sunDirection);
    shadowDrawn_ = true;
    return true;
}

void SceneRenderer::render(const SnowSim& sim, DeformerBatch& deformers, const ViewRequest& request,
                           gpu::PassTimer* timer) {
    auto begin = [timer](std::string_view pass) {
        if (timer)
            timer->begin(pass);
    };
    auto end = [timer](std::string_view pass) {
        if (timer)
            timer->end(pass);
    };
    const glm::ivec4 vp = request.viewportPx;
    const ViewParamsBlock block =
        makeViewParams(request.camera, glm::vec4(vp), request.output,
                       static_cast<float>(surface_->maxTessellationLevel()),
                       static_cast<float>(sim.region().widthCm * 0.5));
    viewBuffer_.update(0, sizeof(block), &block);
    glBindBufferBase(GL_UNIFORM_BUFFER, kViewParamsBinding, viewBuffer_.id());
    glBindBufferBase(GL_UNIFORM_BUFFER, kSnowParamsBinding, sim.paramsBuffer().id());

    // Every pass of the view draws into its pane only: viewport and scissor are the pane.
    gpu::PassState view;
    view.framebuffer = request.framebuffer;
    view.viewport = vp;
    view.scissorToViewport = true;

    gpu::PassState clear = view;
    clear.clearColour = glm::vec4(0.0f);
    clear.clearDepth = 1.0f;
    gpu::beginPass(clear);

    const bool shadows = shadowDrawn_ && look_.deformerShadows;
    if (shadows)
        shadow_->bind();
    begin("view.surface");
    surface_->draw(sim, sim.settings().displacement, view, look_, shadows,
                   request.output == SurfaceOutput::Lit, timer);
    end("view.surface");

    const bool lit = request.output == SurfaceOutput::Lit;
    if (request.drawDeformers && lit) {
        begin("view.deformers");
        const GLuint program = shadows ? shadowedDeformerProgram_->id() : deformerProgram_->id();
        gpu::PassState pass = view;
        pass.depthTest = gpu::DepthTest::Less;
        pass.depthWrite = true;
        pass.program = program;
        gpu::beginPass(pass);
        const glm::mat4 viewProjection = request.camera.viewProjection();
        glProgramUniformMatrix4fv(program, 0, 1, GL_FALSE, glm::value_ptr(viewProjection));
        lastDeformerDraw_ = deformers.draw(program); // each instance's albedo by its index
        end("view.deformers");
    }
    if (request.drawSky && lit) {
        // Last, at the far plane: only what the snow and the deformers left uncovered is shaded.
        begin("view.sky");
        gpu::PassState pass = view;
        pass.depthTest = gpu::DepthTest::LessEqual;
        pass.depthWrite = false;
        pass.program = skyProgram_->id();
        gpu::beginPass(pass);
        glBindVertexArray(emptyArray_.id());
        glDrawArrays(GL_TRIANGLES, 0, 3);
        end("view.sky");
    }
}

} // namespace snowcap
