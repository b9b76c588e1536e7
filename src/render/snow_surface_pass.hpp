#pragma once
// SnowSurfacePass — M_Snow drawn over a sim's region.
// Reads:  the sim's persistent buffer (bilinear, border 0) and SnowParams; ViewParams (bound by
//         the caller); the view's colour + depth.
// Writes: colour and depth of the snow surface: a displaced region (vertex grid or hardware
//         tessellation, same displacement function) plus a flat skirt to the horizon.

#include "gpu/objects.hpp"
#include "gpu/pass_record.hpp"
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

// What one view's surface passes need from the frame's list (render/frame.cpp).
struct SurfaceView {
    const SnowSim* sim = nullptr;
    SurfaceGeometry geometry = SurfaceGeometry::VertexGrid;
    gpu::PassState view; // the pane: its target, viewport and scissor
    // The frame's look (its compiled switches: specular, sparkle, shadows) and whether the
    // frame's shadow pass draws the map (shadowBindings: its block and sampler).
    LookSettings look;
    std::vector<gpu::PassBinding> shadowBindings; // empty: no shadow map this frame
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
    static constexpr int kPatchesPerSide = 32;
    static constexpr int kDetailSize = 512; // texels per side of the baked detail noise

private:
    explicit SnowSurfacePass(gpu::ShaderLibrary& shaders) : shaders_(shaders) {}
    // The region's displaced grid, patches and skirts, for a region of that width and grid:
    // one per size the frame's views draw (two sims of other resolutions draw other grids).
    struct Geometry {
        int cells = 0;
        gpu::VertexArray gridArray, patchArray;
        gpu::Buffer gridVertices, gridIndices, patchVertices;
        // [0] around the vertex grid, [1] around the tessellation patches.
        gpu::VertexArray skirtArray[2];
        gpu::Buffer skirtVertices[2];
        int skirtVertexCount[2] = {0, 0};
        int gridIndexCount = 0, patchVertexCount = 0;
        int frame = 0; // the frame list that last used it
    };
    const Geometry& geometryFor(const Region& region, int cells);
    static Geometry buildGeometry(const Region& region, int cells);
    std::optional<std::string> bakeDetail();
    // The variant's program, built on first use (the library caches it); null if it failed,
    // which is logged once.
    const gpu::ShaderProgram* program(const SurfaceVariant& variant);
    // The skirt, then the region, into the pass begun last (its target, viewport, depth).
    void drawGeometry(const Geometry& geometry, const gpu::ShaderProgram& region,
                      const gpu::ShaderProgram& skirt, bool tessellated) const;
    // The material's inputs: the snow's buffer (or blurred copy), the baked detail.
    std::vector<gpu::PassBinding> materialBindings(const SurfaceView& view) const;

    gpu::ShaderLibrary& shaders_;
    std::unique_ptr<SurfaceUpsample> upsample_;
    float shadingScaleOverride_ = 0.0f;
    std::map<SurfaceVariant, const gpu::ShaderProgram*> programs_;
    gpu::Sampler persistentSampler_;
    // The landscape's baked detail noise (shaders/surface/detail_bake.frag), tiling, mipmapped.
    gpu::Texture2D detail_;
    gpu::Sampler detailSampler_;
    const gpu::ShaderProgram* detailBake_ = nullptr;
    int detailGeneration_ = 0; // the bake program's generation the texture was baked with
    std::map<std::pair<double, int>, Geometry> geometries_; // by region width and cells
    int frame_ = 0;
    int gridCells_ = 0; // the grid of the last view planned
    int maxTessellationLevel_ = 1;
    gpu::VertexArray fullscreenArray_; // attribute-less: the Shade stage's triangle
};

} // namespace snowcap
