#pragma once
// SnowSurfacePass — M_Snow drawn over a sim's region.
// Reads:  the sim's persistent buffer (bilinear, border 0) and SnowParams; ViewParams (bound by
//         the caller); the view's colour + depth; with [ground] kind = "texture", the ground
//         texture (repeat, mipmapped).
//         With a terrain, its heights and mapping (render/terrain_texture.hpp).
// Writes: colour and depth of the snow surface: a displaced region (vertex grid or hardware
//         tessellation, same displacement function) plus a skirt to the horizon, undisturbed
//         snow; over a terrain both stand on the ground's height (a ring skirt that follows it).

#include "gpu/objects.hpp"
#include "gpu/pass_record.hpp"
#include "gpu/pass_state.hpp"
#include "gpu/shader_library.hpp"
#include "gpu/timers.hpp"
#include "render/surface_caches.hpp"
#include "render/surface_upsample.hpp"
#include "render/surface_variant.hpp"
#include "render/terrain_texture.hpp"
#include "snow/ground_texture.hpp"
#include "snow/snow_sim.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// What one view's surface passes need from the frame's list (render/frame.cpp).
struct SurfaceView {
    const SnowSim* sim = nullptr;
    SurfaceGeometry geometry = SurfaceGeometry::VertexGrid;
    gpu::PassState view; // the pane: its target, viewport and scissor
    // The frame's look (its compiled switches: specular, sparkle, shadows) and whether the
    // frame's shadow pass draws the map (shadowBindings: its block and sampler).
    LookSettings look;
    std::vector<gpu::PassBinding> shadowBindings; // empty: no shadow map this frame
    // [ground] kind = "texture": the field's ground texture (the ground layer's albedo); null
    // for every other kind.
    const GroundTexture* ground = nullptr;
    // [terrain] not flat: the ground's shape the surface and its skirt stand on; null when
    // flat (the programs compile without TERRAIN and bind nothing of it).
    const TerrainTexture* terrain = nullptr;
    // The lit colour, which the rung may shade at a lower rate (QualityRung::shadingScale) and
    // upsample; every debug output is drawn at full resolution.
    bool lit = false;
    // The list's bookkeeping: the view's index (its group), the enclosing timer scopes, the
    // view's own bindings (ViewParams, SnowParams), the pane's resource name, the name of the
    // sim's input (buffer or blurred copy) and whether it is a history input this frame.
    int group = 0;
    std::vector<std::string> timers;
    std::vector<gpu::PassBinding> viewBindings;
    std::string pane;
    std::string input;
    bool inputHistory = false;
};

class SnowSurfacePass {
public:
    static std::variant<std::unique_ptr<SnowSurfacePass>, std::string>
    create(gpu::ShaderLibrary& shaders);

    // The view's surface passes, appended to the frame's list: one forward pass into the pane
    // ("view.surface"), or at a lower rate the geometry's depth and the material once a pixel
    // ("view.surface.shade") and their upsample into the pane ("view.surface.upsample"), all
    // inside the "view.surface" timer scope. Clears nothing: the view's clear comes before it.
    // Setup only: the geometry for the region, the programs, the low-rate targets.
    void appendPasses(std::vector<gpu::PassRecord>& passes, const SurfaceView& view);
    // The detail noise's bake, when a hot reload (F5, an edit on disk) has rebuilt its program
    // since the last bake; none otherwise.
    std::optional<gpu::PassRecord> detailPass();
    // A new frame's list: the low-rate targets its views prepare stay while it runs.
    void newFrame() {
        ++frame_;
        upsample_->newFrame();
    }

    // Replaces the rung's shading scale for the lit colour (0: the rung's; 1: full
    // resolution). The bench's full-resolution reference frame uses it.
    void setShadingScaleOverride(float scale) { shadingScaleOverride_ = scale; }
    // The scale a lit view of `sim` is shaded at.
    float shadingScale(const SnowSim& sim) const;

    // The material's program for one variant (tests count its samplers).
    static gpu::ProgramDesc surfaceProgram(const SurfaceVariant& variant);
    // Every variant the build can make, in a fixed order.
    static std::vector<SurfaceVariant> allVariants();

    int gridCells() const { return gridCells_; }
    int maxTessellationLevel() const { return maxTessellationLevel_; }

    // Cells per side of the vertex grid for a buffer resolution with snow.quality = "custom":
    // one vertex per texel up to 512 x 512 cells, enough for the seed's ~20-texel blur to be
    // resolved (the rungs set their own, core/quality.hpp).
    static int gridCellsFor(int resolution);
    static constexpr int kPatchesPerSide = SurfaceMeshes::kPatchesPerSide;
    static constexpr int kDetailSize = 512; // texels per side of the baked detail noise

private:
    explicit SnowSurfacePass(gpu::ShaderLibrary& shaders) : shaders_(shaders), programs_(shaders) {}
    std::optional<std::string> bakeDetail();
    // The skirt, then the region, into the pass begun last (its target, viewport, depth).
    void drawGeometry(const SurfaceMeshes& geometry, const gpu::ShaderProgram& region,
                      const gpu::ShaderProgram& skirt, bool tessellated) const;
    // The material's inputs: the snow's buffer (or blurred copy), the baked detail.
    std::vector<gpu::PassBinding> materialBindings(const SurfaceView& view) const;

    gpu::ShaderLibrary& shaders_;
    std::unique_ptr<SurfaceUpsample> upsample_;
    float shadingScaleOverride_ = 0.0f;
    SurfacePrograms programs_; // the material's, by variant
    gpu::Sampler persistentSampler_;
    // The landscape's baked detail noise (shaders/surface/detail_bake.frag), tiling, mipmapped.
    gpu::Texture2D detail_;
    gpu::Sampler detailSampler_;
    const gpu::ShaderProgram* detailBake_ = nullptr;
    int detailGeneration_ = 0;    // the bake program's generation the texture was baked with
    SurfaceMeshCache geometries_; // the region's, by width and grid
    int frame_ = 0;
    int gridCells_ = 0; // the grid of the last view planned
    int maxTessellationLevel_ = 1;
    gpu::VertexArray fullscreenArray_; // attribute-less: the Shade stage's triangle
};

} // namespace snowcap
