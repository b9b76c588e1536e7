#include "render/scene_renderer.hpp"

#include <algorithm>
#include <glm/common.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace {

// The deformers' lit program, with or without the shadow map (DEFORMER_SHADOWS).
gpu::ProgramDesc deformerProgram(bool shadows) {
    return {
        shadows ? "deformer.shadowed" : "deformer",
        {{GL_VERTEX_SHADER, "render/deformer.vert"}, {GL_FRAGMENT_SHADER, "render/deformer.frag"}},
        {{"DEFORMER_SHADOWS", shadows ? "1" : "0"}}};
}

// A lit pass of one view after its surface: into the pane, with the view's bindings, inside the
// view's timer scope and timed as its own name.
gpu::PassRecord viewPass(std::string name, const std::vector<std::string>& scope, int group,
                         const gpu::PassState& view, gpu::DepthTest depthTest, bool depthWrite,
                         GLuint program, const std::vector<gpu::PassBinding>& bindings,
                         const std::string& pane) {
    gpu::PassRecord pass;
    pass.timers = scope;
    pass.timers.push_back(name);
    pass.name = std::move(name);
    pass.group = group;
    pass.state = view;
    pass.state->depthTest = depthTest;
    pass.state->depthWrite = depthWrite;
    pass.state->program = program;
    pass.bindings = bindings;
    pass.reads = {{pane}};
    pass.writes = {pane};
    return pass;
}

} // namespace

std::variant<std::unique_ptr<SceneRenderer>, std::string>
SceneRenderer::create(gpu::ShaderLibrary& shaders) {
    std::unique_ptr<SceneRenderer> renderer(new SceneRenderer());
    auto surface = SnowSurfacePass::create(shaders);
    if (auto* error = std::get_if<std::string>(&surface))
        return *error;
    renderer->surface_ = std::move(std::get<0>(surface));
    auto loaded = shaders.loadAll(
        {{"sky",
          {{GL_VERTEX_SHADER, "common/fullscreen.vert"}, {GL_FRAGMENT_SHADER, "render/sky.frag"}},
          {{"FAR_PLANE", "1"}}},
         deformerProgram(false),
         deformerProgram(true)});
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    const auto& programs = std::get<std::vector<gpu::ShaderProgram*>>(loaded);
    renderer->skyProgram_ = programs[0];
    renderer->deformerProgram_ = programs[1];
    renderer->shadowedDeformerProgram_ = programs[2];
    auto shadow = ShadowPass::create(shaders);
    if (auto* error = std::get_if<std::string>(&shadow))
        return *error;
    renderer->shadow_ = std::move(std::get<0>(shadow));
    auto fallingSnow = FallingSnowPass::create(shaders);
    if (auto* error = std::get_if<std::string>(&fallingSnow))
        return *error;
    renderer->fallingSnow_ = std::move(std::get<0>(fallingSnow));
    renderer->emptyArray_ = gpu::VertexArray("view.fullscreen");
    return renderer;
}

void SceneRenderer::newFrame() {
    surface_->newFrame();
}

const TerrainTexture* SceneRenderer::terrainFor(const std::shared_ptr<const HeightField>& terrain) {
    if (!terrain || terrain->flat()) {
        terrain_.reset();
        return nullptr;
    }
    if (terrain_ && terrain_->fieldPointer() == terrain)
        return terrain_.get();
    terrain_.reset(); // a new terrain (a live edit): the old texture goes first
    if (terrainFailed_ == terrain)
        return nullptr;
    auto made = TerrainTexture::create(terrain);
    if (auto* error = std::get_if<std::string>(&made)) {
        spdlog::error("{}: the snow is drawn flat", *error);
        terrainFailed_ = terrain;
        return nullptr;
    }
    terrain_ = std::move(std::get<0>(made));
    return terrain_.get();
}

std::optional<gpu::PassRecord>
SceneRenderer::shadowPass(DeformerBatch& batch, std::span<const DeformerInstance> deformers,
                          std::span<const Region> regions, const Settings& settings,
                          const HeightField* terrain) {
    const bool casters = std::any_of(deformers.begin(), deformers.end(),
                                     [](const DeformerInstance& d) { return d.mesh != nullptr; });
    if (!settings.look.deformerShadows || !casters || regions.empty())
        return std::nullopt;
    // The receivers: the regions' snow from the ground under it up to the tallest caster, and
    // the skirt beyond them as far as that caster's shadow reaches (growShadowBox).
    ShadowBox box;
    box.minCm = glm::dvec2(1e30);
    box.maxCm = glm::dvec2(-1e30);
    for (const Region& region : regions) {
        const glm::dvec2 half(region.widthCm * 0.5);
        box.minCm = glm::min(box.minCm, region.centreCm - half);
        box.maxCm = glm::max(box.maxCm, region.centreCm + half);
    }
    // Over a terrain the snow spans its relief under the box (the receivers' draped heights).
    HeightSpan relief;
    if (terrain && !terrain->flat())
        relief = terrain->spanCm(0.5 * (box.minCm + box.maxCm),
                                 std::max(box.maxCm.x - box.minCm.x, box.maxCm.y - box.minCm.y));
    box.zLowCm = settings.snow.surfaceZCm - settings.snow.depthCm + relief.lowCm;
    box.zHighCm = settings.snow.surfaceZCm + relief.highCm + 1.0;
    for (const DeformerInstance& d : deformers)
        if (d.mesh && d.worldBounds.valid())
            box.zHighCm = std::max(box.zHighCm, double(d.worldBounds.max.z));
    // Shadows thrown onto the lowest snow reach furthest.
    box = growShadowBox(box, settings.look.sunDirection, settings.snow.surfaceZCm + relief.lowCm);
    shadow_->prepare(box, settings.look.sunDirection);

    gpu::PassRecord pass;
    pass.name = "shadow";
    pass.timers = {"shadow"};
    pass.state = shadow_->passState();
    pass.stateNote = "depth clamp";
    pass.reads = {{"deformers"}};
    pass.writes = {"shadow.map"};
    pass.execute = [this, &batch] {
        shadow_->drawCasters(batch);
    };
    return pass;
}

void SceneRenderer::appendViewPasses(std::vector<gpu::PassRecord>& passes, const SnowSim& sim,
                                     DeformerBatch& deformers, const ViewRequest& request,
                                     const ViewPasses& v) {
    // The view's block, written now: it holds the camera and the pane, which the frame's other
    // passes do not change.
    while (static_cast<int>(viewBuffers_.size()) <= v.index)
        viewBuffers_.emplace_back(sizeof(ViewParamsBlock), nullptr,
                                  "view.params." + std::to_string(viewBuffers_.size()));
    gpu::Buffer& viewBuffer = viewBuffers_[v.index];
    const glm::ivec4 vp = request.viewportPx;
    const ViewParamsBlock block =
        makeViewParams(request.camera, glm::vec4(vp), request.output,
                       static_cast<float>(surface_->maxTessellationLevel()),
                       static_cast<float>(sim.region().widthCm * 0.5));
    viewBuffer.update(0, sizeof(block), &block);
    const std::string pane = "pane." + std::to_string(v.index);
    const SnowSim* simPtr = &sim;
    const gpu::Buffer* viewPtr = &viewBuffer;
    std::vector<gpu::PassBinding> viewBindings = {
        {gpu::BindingKind::UniformBlock, kViewParamsBinding, pane + ".view",
         [viewPtr] {
             return viewPtr->id();
         }},
        {gpu::BindingKind::UniformBlock, kSnowParamsBinding, sim.name() + ".params", [simPtr] {
             return simPtr->paramsBuffer().id();
         }}};
    // Uploaded before any pass runs: the view's block just above, while the list is planned;
    // the sim's parameters when it was configured or last stepped.
    for (gpu::PassBinding& binding : viewBindings)
        binding.history = true;
    const std::vector<std::string> scope =
        v.timerScope.empty() ? std::vector<std::string>{} : std::vector{v.timerScope};

    // Every pass of the view draws into its pane only: viewport and scissor are the pane.
    gpu::PassState view;
    view.framebuffer = request.framebuffer;
    view.viewport = vp;
    view.scissorToViewport = true;

    gpu::PassRecord clear;
    clear.name = "view.clear";
    clear.timers = scope;
    clear.group = v.index;
    clear.state = view;
    clear.state->clearColour = glm::vec4(0.0f);
    clear.state->clearDepth = 1.0f;
    clear.writes = {pane};
    passes.push_back(std::move(clear));

    const bool lit = request.output == SurfaceOutput::Lit;
    const bool shadows = !v.shadowBindings.empty() && v.look.deformerShadows;
    SurfaceView surface;
    surface.sim = &sim;
    surface.geometry = sim.settings().displacement;
    surface.view = view;
    surface.look = v.look;
    surface.shadowBindings = v.shadowBindings;
    surface.ground = v.ground;
    surface.terrain = v.terrain;
    surface.lit = lit;
    surface.group = v.index;
    surface.timers = scope;
    surface.viewBindings = viewBindings;
    surface.pane = pane;
    surface.input = v.input;
    surface.inputHistory = v.inputHistory;
    surface_->appendPasses(passes, surface);

    if (request.drawDeformers && lit) {
        const GLuint program = shadows ? shadowedDeformerProgram_->id() : deformerProgram_->id();
        gpu::PassRecord pass = viewPass("view.deformers", scope, v.index, view,
                                        gpu::DepthTest::Less, true, program, viewBindings, pane);
        pass.reads.insert(pass.reads.begin(), gpu::ResourceRead{"deformers"});
        if (shadows) {
            pass.bindings.insert(pass.bindings.end(), v.shadowBindings.begin(),
                                 v.shadowBindings.end());
            pass.reads.push_back({"shadow.map"});
        }
        const glm::mat4 viewProjection = request.camera.viewProjection();
        pass.execute = [this, &deformers, program, viewProjection] {
            glProgramUniformMatrix4fv(program, 0, 1, GL_FALSE, glm::value_ptr(viewProjection));
            lastDeformerDraw_ = deformers.draw(program); // each instance's albedo by its index
        };
        passes.push_back(std::move(pass));
    }
    if (request.drawSky && lit) {
        // Last, at the far plane: only what the snow and the deformers left uncovered is shaded.
        gpu::PassRecord pass = viewPass("view.sky", scope, v.index, view, gpu::DepthTest::LessEqual,
                                        false, skyProgram_->id(), viewBindings, pane);
        pass.execute = [this] {
            glBindVertexArray(emptyArray_.id());
            glDrawArrays(GL_TRIANGLES, 0, 3);
        };
        passes.push_back(std::move(pass));
    }
    if (lit && v.fallingSnow && v.fallingSnow->flakes > 0) {
        // After the sky, blended over everything, tested against the view's depth and not
        // writing it: the picture only (the sims never read it).
        gpu::PassRecord pass =
            viewPass("view.falling_snow", scope, v.index, view, gpu::DepthTest::Less, false,
                     fallingSnow_->program(), viewBindings, pane);
        pass.state->blend = gpu::Blend::Alpha;
        pass.state->programPointSize = true; // a sprite a flake, its size from the vertex shader
        pass.stateNote = "alpha over the pane, no depth write, no vertex buffer";
        const FallingSnowAir air = *v.fallingSnow;
        const glm::mat4 projection = request.camera.projection;
        pass.execute = [this, air, projection] {
            fallingSnow_->draw(air, projection);
        };
        passes.push_back(std::move(pass));
    }
}

} // namespace snowcap
