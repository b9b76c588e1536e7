#pragma once
// SnowSurfacePass — M_Snow drawn over a sim's region.
// Reads:  the sim's persistent buffer (bilinear, border 0) and SnowParams; ViewParams (bound by
//         the caller); the view's colour + depth.
// Writes: colour and depth of the snow surface: a displaced region (vertex grid or hardware
//         tessellation, same displacement function) plus a flat skirt to the horizon.

#include "gpu/objects.hpp"
#include "gpu/pass_state.hpp"
#include "gpu/shader_library.hpp"
#include "gpu/timers.hpp"
#include "render/surface_upsample.hpp"
#include "snow/snow_sim.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// Which part of the surface a program draws. Forward: the geometry and the material in one
// pass (every pixel at full resolution). The lower-rate lit path splits them: Depth draws the
// geometry alone (no colour), then Shade runs the material once a pixel over a full-screen
// triangle, its world point taken back from that depth. Drawn with the geometry, llvmpipe shades
// every 4 x 4 block a small triangle touches in full, so at half resolution, where the grid's
// triangles cover a few pixels each, a pixel was shaded several times over.
enum class SurfaceStage { Forward, Depth, Shade };

// The material's switches that are compiled into its program rather than branched on at run
// time. A CPU rasteriser (llvmpipe) executes both sides of a branch whose condition it cannot
// prove uniform, so rims or a Sobel filter switched off in a uniform still cost every pixel
// their taps (measured: the rim loops alone were 0.4 s of a 0.5 s surface at 1280 x 720).
struct SurfaceVariant {
    SurfaceGeometry geometry = SurfaceGeometry::VertexGrid;
    BlurMode blur = BlurMode::PerPixel;
    NormalMode normals = NormalMode::HeightToNormal;
    RimMode rims = RimMode::Off;
    BufferFormat format = BufferFormat::R16F;
    // Untouched snow only: no buffer read, Snow_Mask 0 (the skirt outside the region, whose
    // pixels are all untouched, and snow.quality = "off").
    bool flat = false;
    // sim.X.model = "snowpack": the buffer is the snowpack state; the surface stands on its
    // real depth (blur per pixel, no rim trick, R16F's slot unused).
    bool snowpack = false;
    // The look's switches (look.*): GGX specular, world-space sparkle (needs specular), and
    // the deformers' shadow map sampled with PCF. All off is the diffuse look from before them.
    bool specular = false;
    bool sparkle = false;
    bool shadows = false;
    SurfaceStage stage = SurfaceStage::Forward;

    static SurfaceVariant of(const SimSettings& sim, SurfaceGeometry geometry,
                             const LookSettings& look);
    // The same variant with the look's switches of `look`.
    SurfaceVariant withLook(const LookSettings& look) const;
    // The same variant drawing `stage` (Shade has no geometry of its own: VertexGrid).
    SurfaceVariant at(SurfaceStage stage) const;
    static SurfaceVariant flatSnow() {
        SurfaceVariant variant;
        variant.flat = true;
        return variant;
    }
    auto operator<=>(const SurfaceVariant&) const = default;
};

class SnowSurfacePass {
public:
    static std::variant<std::unique_ptr<SnowSurfacePass>, std::string>
    create(gpu::ShaderLibrary& shaders);

    // Into `view` (its target, viewport and scissor; the pass sets its own depth and program).
    // Clears nothing: the view's clear comes before it. `shadowMapDrawn`: the frame's shadow
    // pass has drawn and bound the deformers' shadow map (look.deformer_shadows samples it).
    // `frameLook` chooses the look's compiled switches (specular, sparkle, shadows).
    // `lit`: the view shows the lit colour, which the rung may shade at a lower rate
    // (QualityRung::shadingScale) and upsample; every debug output is drawn at full resolution.
    // `timer`: the low-rate path's two parts as "view.surface.shade" and "view.surface.upsample".
    void draw(const SnowSim& sim, SurfaceGeometry geometry, const gpu::PassState& view,
              const LookSettings& frameLook, bool shadowMapDrawn = false, bool lit = false,
              gpu::PassTimer* timer = nullptr);

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
    static constexpr int kPatchesPerSide = 32;
    static constexpr int kDetailSize = 512; // texels per side of the baked detail noise
    // The texture unit of the deformers' shadow map (render/shadow_pass.hpp).
    static constexpr int kShadowUnit = 5;
    // The texture unit of the low-rate depth that the Shade stage reads.
    static constexpr int kSurfaceDepthUnit = 6;

private:
    explicit SnowSurfacePass(gpu::ShaderLibrary& shaders) : shaders_(shaders) {}
    void buildGeometry(const Region& region, int cells);
    std::optional<std::string> bakeDetail();
    // The variant's program, built on first use (the library caches it); null if it failed,
    // which is logged once.
    const gpu::ShaderProgram* program(const SurfaceVariant& variant);
    // The skirt, then the region, into the pass begun last (its target, viewport, depth).
    void drawGeometry(const gpu::ShaderProgram& region, const gpu::ShaderProgram& skirt,
                      bool tessellated);
    // The material's textures (the snow's buffer, the baked detail) on their units, and off.
    void bindInputs() const;
    void unbindInputs() const;

    gpu::ShaderLibrary& shaders_;
    std::unique_ptr<SurfaceUpsample> upsample_;
    float shadingScaleOverride_ = 0.0f;
    const gpu::Texture2D* surfaceInput_ = nullptr; // the sim being drawn: its (blurred) buffer
    std::map<SurfaceVariant, const gpu::ShaderProgram*> programs_;
    gpu::Sampler persistentSampler_;
    // The landscape's baked detail noise (shaders/surface/detail_bake.frag), tiling, mipmapped.
    gpu::Texture2D detail_;
    gpu::Sampler detailSampler_;
    const gpu::ShaderProgram* detailBake_ = nullptr;
    int detailGeneration_ = 0; // the bake program's generation the texture was baked with
    Region builtFor_{{0, 0}, 0.0, 0};
    int gridCells_ = 0;
    int maxTessellationLevel_ = 1;
    gpu::VertexArray gridArray_, patchArray_;
    gpu::VertexArray fullscreenArray_; // attribute-less: the Shade stage's triangle
    gpu::Buffer gridVertices_, gridIndices_, patchVertices_;
    // [0] around the vertex grid, [1] around the tessellation patches.
    gpu::VertexArray skirtArray_[2];
    gpu::Buffer skirtVertices_[2];
    int skirtVertexCount_[2] = {0, 0};
    int gridIndexCount_ = 0, patchVertexCount_ = 0;
};

} // namespace snowcap
