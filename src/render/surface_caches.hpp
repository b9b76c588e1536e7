#pragma once
// What SnowSurfacePass (render/snow_surface_pass.hpp) builds once and keeps: the region's
// geometry for each size the frame's views draw, and the material's program for each variant.

#include "core/snow_math.hpp"
#include "gpu/objects.hpp"
#include "gpu/shader_library.hpp"
#include "render/surface_variant.hpp"

#include <map>
#include <tuple>

namespace snowcap {

// The region's displaced grid, patches and skirts, for a region of one width and grid.
struct SurfaceMeshes {
    static constexpr int kPatchesPerSide = 32;
    // `draped`: over a terrain, the skirt is dense enough to follow the ground.
    static SurfaceMeshes build(const Region& region, int cells, bool draped);

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

// One SurfaceMeshes per size the frame's views draw (two sims of other resolutions draw other
// grids); sizes no view of the list being built draws go when a fifth size is needed.
class SurfaceMeshCache {
public:
    // The meshes for the region's width and `cells` (draped: over a terrain), used by the list
    // of frame `frame`.
    const SurfaceMeshes& get(const Region& region, int cells, bool draped, int frame);

private:
    using Key = std::tuple<double, int, bool>; // region width, cells, draped
    std::map<Key, SurfaceMeshes> meshes_;
};

// The material's program per variant, built on first use (the library caches it too); null if
// it failed, which is logged once.
class SurfacePrograms {
public:
    explicit SurfacePrograms(gpu::ShaderLibrary& shaders) : shaders_(shaders) {}
    const gpu::ShaderProgram* get(const SurfaceVariant& variant);
    // A program built already (the default variant, which create() builds to fail early).
    void insert(const SurfaceVariant& variant, const gpu::ShaderProgram* program) {
        programs_.emplace(variant, program);
    }

private:
    gpu::ShaderLibrary& shaders_;
    std::map<SurfaceVariant, const gpu::ShaderProgram*> programs_;
};

} // namespace snowcap
