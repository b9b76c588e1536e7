#pragma once
// SnowSurfacePass — M_Snow drawn over a sim's region.
// Reads:  the sim's persistent buffer (bilinear, border 0) and SnowParams; ViewParams (bound by
//         the caller); the current framebuffer's colour + depth.
// Writes: colour and depth of the snow surface: a displaced region (vertex grid or hardware
//         tessellation, same displacement function) plus a flat skirt to the horizon.

#include "gpu/objects.hpp"
#include "gpu/shader_library.hpp"
#include "snow/snow_sim.hpp"

#include <memory>
#include <string>
#include <variant>

namespace snowcap {

class SnowSurfacePass {
public:
    static std::variant<std::unique_ptr<SnowSurfacePass>, std::string>
    create(gpu::ShaderLibrary& shaders);

    void draw(const SnowSim& sim, SurfaceGeometry geometry);

    // The material's program variants: geometry x blur (tests count their samplers).
    static gpu::ProgramDesc surfaceProgram(bool tessellated, bool prepass);

    int gridCells() const { return gridCells_; }
    int maxTessellationLevel() const { return maxTessellationLevel_; }

    // Cells per side of the vertex grid for a buffer resolution with snow.quality = "custom":
    // one vertex per texel up to 512 x 512 cells, enough for the seed's ~20-texel blur to be
    // resolved (the rungs set their own, core/quality.hpp).
    static int gridCellsFor(int resolution);
    static constexpr int kPatchesPerSide = 32;

private:
    SnowSurfacePass() = default;
    void buildGeometry(const Region& region, int cells);

    // [blur mode]: per-pixel spiral blur, or one tap of the sim's prepass-blurred buffer.
    const gpu::ShaderProgram* gridProgram_[2] = {nullptr, nullptr};
    const gpu::ShaderProgram* tessellationProgram_[2] = {nullptr, nullptr};
    gpu::Sampler persistentSampler_;
    Region builtFor_{{0, 0}, 0.0, 0};
    int gridCells_ = 0;
    int maxTessellationLevel_ = 1;
    gpu::VertexArray gridArray_, patchArray_;
    gpu::Buffer gridVertices_, gridIndices_, patchVertices_;
    // [0] around the vertex grid, [1] around the tessellation patches.
    gpu::VertexArray skirtArray_[2];
    gpu::Buffer skirtVertices_[2];
    int skirtVertexCount_[2] = {0, 0};
    int gridIndexCount_ = 0, patchVertexCount_ = 0;
};

} // namespace snowcap
