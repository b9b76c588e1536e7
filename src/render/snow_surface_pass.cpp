#include "render/snow_surface_pass.hpp"

#include "core/config.hpp"
#include "core/quality.hpp"
#include "platform/gl_context.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <glm/vec2.hpp>
#include <spdlog/spdlog.h>
#include <string>
#include <vector>

namespace snowcap {

int SnowSurfacePass::gridCellsFor(int resolution) {
    return surfaceGridCells(Quality::Custom, resolution);
}

std::variant<std::unique_ptr<SnowSurfacePass>, std::string>
SnowSurfacePass::create(gpu::ShaderLibrary& shaders) {
    std::unique_ptr<SnowSurfacePass> pass(new SnowSurfacePass(shaders));
    // The default variant is built now, so a broken material fails here with its file and line;
    // the others are built when a sim first needs them.
    const SurfaceVariant defaults =
        SurfaceVariant::of(SimSettings{}, SurfaceGeometry::VertexGrid, LookSettings{});
    auto built = shaders.load(surfaceProgram(defaults));
    if (auto* error = std::get_if<std::string>(&built))
        return *error;
    pass->programs_.insert(defaults, std::get<gpu::ShaderProgram*>(built));
    auto upsample = SurfaceUpsample::create(shaders);
    if (auto* error = std::get_if<std::string>(&upsample))
        return *error;
    pass->upsample_ = std::move(std::get<0>(upsample));
    if (auto error = pass->bakeDetail())
        return *error;
    // Bilinear taps like UE's sampler; border 0 so taps past the region read untouched snow.
    pass->persistentSampler_ = gpu::Sampler(GL_LINEAR, GL_CLAMP_TO_BORDER, "surface.persistent");
    pass->maxTessellationLevel_ = queryMaxTessellationLevel();
    pass->fullscreenArray_ = gpu::VertexArray("surface.deferred");
    return pass;
}

std::optional<std::string> SnowSurfacePass::bakeDetail() {
    auto loaded = shaders_.load({"surface.detail_bake",
                                 {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
                                  {GL_FRAGMENT_SHADER, "surface/detail_bake.frag"}},
                                 {}});
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    detailBake_ = std::get<gpu::ShaderProgram*>(loaded);
    detailGeneration_ = detailBake_->generation();
    const GLuint program = detailBake_->id();
    int levels = 1;
    while ((kDetailSize >> levels) > 0)
        ++levels;
    detail_ = gpu::Texture2D(kDetailSize, kDetailSize, gpu::TextureFormat::RGBA8, "surface.detail",
                             levels);
    if (!detail_.id())
        return detail_.allocationError();
    {
        // A pass of its own (after a hot reload, in the middle of a view: the view's surface
        // pass sets its own state again afterwards).
        gpu::Framebuffer target(&detail_, nullptr, "surface.detail");
        gpu::PassState pass = gpu::passInto(target);
        pass.program = program;
        gpu::beginPass(pass);
        glProgramUniform1f(program, 0, static_cast<float>(kDetailSize));
        gpu::VertexArray empty("surface.detail");
        glBindVertexArray(empty.id());
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    detail_.generateMipmaps();
    detailSampler_ = gpu::Sampler(GL_LINEAR, GL_REPEAT, "surface.detail");
    glSamplerParameteri(detailSampler_.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST);
    return std::nullopt;
}

std::vector<gpu::PassBinding> SnowSurfacePass::materialBindings(const SurfaceView& view) const {
    const SnowSim* sim = view.sim;
    const SnowSurfacePass* self = this;
    // The blurred copy (blur = "prepass" / "separable") is made by the frame's blur pass.
    std::vector<gpu::PassBinding> bindings = {
        {gpu::BindingKind::Texture, gpu::slot::kPersistentBuffer, view.input,
         [sim] { return sim->surfaceInput().id(); },
         [self] {
             return self->persistentSampler_.id();
         }},
        {gpu::BindingKind::Texture, gpu::slot::kLandscapeDetail, "surface.detail",
         [self] { return self->detail_.id(); },
         [self] {
             return self->detailSampler_.id();
         }}};
    if (const GroundTexture* ground = view.ground)
        bindings.push_back({gpu::BindingKind::Texture, gpu::slot::kGroundTexture, "ground.texture",
                            [ground] { return ground->texture().id(); },
                            [ground] {
                                return ground->sampler().id();
                            }});
    return bindings;
}

std::optional<gpu::PassRecord> SnowSurfacePass::detailPass() {
    if (!detailBake_ || detailBake_->generation() == detailGeneration_)
        return std::nullopt;
    gpu::PassRecord pass;
    pass.name = "surface.detail";
    pass.stateNote = "fbo: the detail noise, then its mipmaps";
    pass.writes = {"surface.detail"};
    pass.execute = [this] {
        if (auto error = bakeDetail())
            spdlog::error("{}", *error);
    };
    return pass;
}

void SnowSurfacePass::appendPasses(std::vector<gpu::PassRecord>& passes, const SurfaceView& v) {
    const SnowSim& sim = *v.sim;
    const Region& region = sim.region();
    // snow.quality sets the grid's density with the resolution; "off" draws one flat quad.
    const Quality quality = sim.quality();
    const int cells = quality == Quality::Off ? 1 : surfaceGridCells(quality, region.resolution);
    const bool onTerrain = v.terrain != nullptr;
    const SurfaceMeshes& geometry = geometries_.get(region, cells, onTerrain, frame_);
    gridCells_ = cells;

    // The look's switches, with the shadows only where the frame draws the map.
    const bool shadowMap = !v.shadowBindings.empty();
    LookSettings look = v.look;
    look.deformerShadows = look.deformerShadows && shadowMap;
    SurfaceVariant variant = quality == Quality::Off
                                 ? SurfaceVariant::flatSnow().withLook(look)
                                 : SurfaceVariant::of(sim.settings(), v.geometry, look);
    variant.groundTexture = v.ground != nullptr && !variant.flat; // flat: no ground shows
    variant.groundPrints =
        variant.snowpack && !variant.flat && sim.snowpack() && sim.snowpack()->groundTakesPrints();
    variant.terrain = onTerrain;
    const gpu::ShaderProgram* material = programs_.get(variant);
    // The skirt lies outside the region, where Snow_Mask is 0, so it needs none of the snow's
    // taps; only with no edge fade could a print reach the border and lower the skirt's inner
    // vertices with the region's.
    SurfaceVariant skirtVariant = variant;
    skirtVariant.geometry = SurfaceGeometry::VertexGrid;
    if (sim.settings().material.edgeControl > 0.0) {
        skirtVariant = SurfaceVariant::flatSnow().withLook(look);
        skirtVariant.terrain = onTerrain;
    }
    const gpu::ShaderProgram* skirtMaterial = programs_.get(skirtVariant);
    if (!material || !skirtMaterial)
        return;
    const bool tessellated = variant.geometry == SurfaceGeometry::Tessellation;

    // What every surface pass binds and reads.
    std::vector<gpu::PassBinding> inputs = v.viewBindings;
    for (gpu::PassBinding& binding : materialBindings(v))
        inputs.push_back(std::move(binding));
    std::vector<gpu::ResourceRead> reads = {{v.input, v.inputHistory}, {"surface.detail", true}};
    if (variant.groundTexture)
        reads.push_back({"ground.texture", true});
    if (onTerrain) {
        for (gpu::PassBinding& binding : v.terrain->bindings())
            inputs.push_back(std::move(binding));
        reads.push_back({TerrainTexture::kResource, true});
    }
    if (const SnowpackSim* snowpack = sim.snowpack()) {
        // Its initial column and densities, and the state itself (mass and water) beside the
        // depth's blurred copy.
        // The names the snowpack's passes write them under (snow/snowpack_sim.hpp), so the
        // barrier after their stores reaches this pass; as the last step left them.
        const std::string state = snowpackResource(sim.name());
        inputs.push_back(
            {gpu::BindingKind::UniformBlock, gpu::slot::kSnowpack, state + ".block", [snowpack] {
                 return snowpack->block().id();
             }});
        inputs.back().history = true;
        const SnowSurfacePass* self = this;
        inputs.push_back({gpu::BindingKind::Texture, gpu::slot::kSnowpackStateTexture, state,
                          [snowpack] { return snowpack->state().id(); },
                          [self] {
                              return self->persistentSampler_.id();
                          }});
        // The view's input when it samples the state itself; else the state as it stands.
        inputs.back().history = v.input == state ? v.inputHistory : true;
        if (v.input != sim.bufferResource())
            reads.push_back({sim.bufferResource(), true}); // as the last step left it
    }
    auto withShadows = [&](std::vector<gpu::PassBinding> bindings) {
        if (look.deformerShadows)
            bindings.insert(bindings.end(), v.shadowBindings.begin(), v.shadowBindings.end());
        return bindings;
    };
    std::vector<gpu::ResourceRead> materialReads = reads;
    if (look.deformerShadows)
        materialReads.push_back({"shadow.map"});
    std::vector<std::string> surfaceScope = v.timers;
    surfaceScope.push_back("view.surface");

    // The lit colour at a lower rate where the rung asks for it: the material into the low-rate
    // targets, then their upsample into the view (render/surface_upsample.hpp).
    const float scale = v.lit ? shadingScale(sim) : 1.0f;
    const glm::ivec4 vp = v.view.viewport;
    const gpu::ShaderProgram* depthRegion =
        scale < 1.0f ? programs_.get(variant.at(SurfaceStage::Depth)) : nullptr;
    const gpu::ShaderProgram* depthSkirt =
        scale < 1.0f ? programs_.get(skirtVariant.at(SurfaceStage::Depth)) : nullptr;
    const gpu::ShaderProgram* deferred =
        scale < 1.0f ? programs_.get(variant.at(SurfaceStage::Shade)) : nullptr;
    const SurfaceUpsample::Targets* low =
        depthRegion && depthSkirt && deferred ? upsample_->prepare(vp.z, vp.w, scale) : nullptr;
    if (low) {
        const std::string lowName = v.pane + ".low";
        std::vector<std::string> shadeScope = surfaceScope;
        shadeScope.push_back("view.surface.shade");

        gpu::PassRecord depth;
        depth.name = "view.surface.depth";
        depth.timers = shadeScope;
        depth.group = v.group;
        depth.state = SurfaceUpsample::geometryPass(*low);
        depth.state->depthTest = gpu::DepthTest::Less;
        depth.state->depthWrite = true;
        depth.state->program = depthSkirt->id();
        depth.stateNote = "skirt + region, depth only";
        depth.bindings = inputs;
        depth.reads = reads;
        depth.writes = {lowName};
        depth.execute = [this, &geometry, depthRegion, depthSkirt, tessellated] {
            drawGeometry(geometry, *depthRegion, *depthSkirt, tessellated);
        };
        passes.push_back(std::move(depth));

        // The material once a pixel, over the whole low-rate target: pixels the geometry left
        // at depth 1 are shaded too, and the composite leaves them out.
        gpu::PassRecord shade;
        shade.name = "view.surface.shade";
        shade.timers = shadeScope;
        shade.group = v.group;
        shade.state = SurfaceUpsample::shadePass(*low);
        shade.state->program = deferred->id();
        shade.stateNote = "the material once a pixel";
        shade.bindings = withShadows(inputs);
        shade.bindings.push_back({gpu::BindingKind::Texture, gpu::slot::kSurfaceDepth, lowName,
                                  [low] { return low->depth.id(); },
                                  [] {
                                      return GLuint(0);
                                  }}); // texelFetch only
        shade.reads = materialReads;
        shade.reads.push_back({lowName});
        shade.writes = {lowName};
        shade.execute = [this] {
            glBindVertexArray(fullscreenArray_.id());
            glDrawArrays(GL_TRIANGLES, 0, 3);
        };
        passes.push_back(std::move(shade));

        gpu::PassRecord upsample;
        upsample.name = "view.surface.upsample";
        upsample.timers = surfaceScope;
        upsample.timers.push_back("view.surface.upsample");
        upsample.group = v.group;
        upsample.state = upsample_->compositePass(v.view);
        upsample.bindings = SurfaceUpsample::compositeBindings(*low, lowName);
        upsample.reads = {{lowName}};
        upsample.writes = {v.pane};
        const gpu::PassState view = v.view;
        upsample.execute = [this, low, view] {
            upsample_->compositeDraw(*low, view);
        };
        passes.push_back(std::move(upsample));
        return;
    }
    gpu::PassRecord forward;
    forward.name = "view.surface";
    forward.timers = surfaceScope;
    forward.group = v.group;
    forward.state = v.view;
    forward.state->depthTest = gpu::DepthTest::Less;
    forward.state->depthWrite = true;
    forward.state->program = skirtMaterial->id();
    forward.stateNote = tessellated ? "skirt + tessellated region" : "skirt + region";
    forward.bindings = withShadows(inputs);
    forward.reads = materialReads;
    forward.reads.push_back({v.pane});
    forward.writes = {v.pane};
    forward.execute = [this, &geometry, material, skirtMaterial, tessellated] {
        drawGeometry(geometry, *material, *skirtMaterial, tessellated);
    };
    passes.push_back(std::move(forward));
}

float SnowSurfacePass::shadingScale(const SnowSim& sim) const {
    if (shadingScaleOverride_ > 0.0f)
        return std::min(shadingScaleOverride_, 1.0f);
    return qualityRung(sim.quality()).shadingScale;
}

void SnowSurfacePass::drawGeometry(const SurfaceMeshes& g, const gpu::ShaderProgram& region,
                                   const gpu::ShaderProgram& skirt, bool tessellated) const {
    glUseProgram(skirt.id());
    const int geometry = tessellated ? 1 : 0;
    glBindVertexArray(g.skirtArray[geometry].id());
    glDrawArrays(GL_TRIANGLES, 0, g.skirtVertexCount[geometry]);
    glUseProgram(region.id());
    if (tessellated) {
        glPatchParameteri(GL_PATCH_VERTICES, 4);
        glBindVertexArray(g.patchArray.id());
        // Batches small enough that one draw can never generate more than ~32k tessellated
        // vertices: Mesa 22.3's llvmpipe scrambles a draw's output past a few tens of
        // thousands (measured: 32 patches at level 41 broke, at level 33 did not; one patch at
        // level 64 is fine). A patch makes at most (level + 1)^2 vertices.
        const int perPatch = (maxTessellationLevel_ + 1) * (maxTessellationLevel_ + 1);
        const int batch = 4 * std::max(1, 32768 / perPatch);
        for (int first = 0; first < g.patchVertexCount; first += batch)
            glDrawArrays(GL_PATCHES, first, std::min(batch, g.patchVertexCount - first));
    } else {
        glBindVertexArray(g.gridArray.id());
        glDrawElements(GL_TRIANGLES, g.gridIndexCount, GL_UNSIGNED_INT, nullptr);
    }
}

} // namespace snowcap
