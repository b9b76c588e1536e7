#include "render/surface_caches.hpp"

#include "render/snow_surface_pass.hpp"

#include <glm/common.hpp>
#include <glm/vec2.hpp>
#include <spdlog/spdlog.h>
#include <string>
#include <vector>

namespace snowcap {

namespace {

// Attribute 0: vec2 offset from the region centre, in cm.
gpu::VertexArray offsetArray(const gpu::Buffer& vertices, const gpu::Buffer* indices,
                             std::string_view name) {
    gpu::VertexArray array(name);
    glVertexArrayVertexBuffer(array.id(), 0, vertices.id(), 0, 2 * sizeof(float));
    if (indices)
        glVertexArrayElementBuffer(array.id(), indices->id());
    glEnableVertexArrayAttrib(array.id(), 0);
    glVertexArrayAttribFormat(array.id(), 0, 2, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(array.id(), 0, 0);
    return array;
}

// A fan per side from the outer corner over the border's `segments` + 1 inner vertices.
int buildSkirt(int segments, float half, gpu::Buffer& vertices, gpu::VertexArray& array,
               const std::string& name) {
    const float outer = half + 100000.0f;
    const glm::vec2 corners[4] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    std::vector<float> skirt;
    auto put = [&skirt](glm::vec2 p) {
        skirt.insert(skirt.end(), {p.x, p.y});
    };
    for (int side = 0; side < 4; ++side) {
        const glm::vec2 a = corners[side], b = corners[(side + 1) % 4];
        auto inner = [&](int i) {
            return glm::mix(a, b, float(i) / float(segments)) * half;
        };
        for (int i = 0; i < segments; ++i) {
            put(a * outer);
            put(inner(i + 1));
            put(inner(i));
        }
        put(a * outer);
        put(b * outer);
        put(b * half);
    }
    vertices = gpu::Buffer(skirt.size() * sizeof(float), skirt.data(), "surface.skirt." + name);
    array = offsetArray(vertices, nullptr, "surface.skirt." + name);
    return static_cast<int>(skirt.size() / 2);
}

// The skirt over a terrain: it must follow the ground out to the horizon, so instead of four
// fans it is a ring of quads around the region, then rings that widen with their distance
// (each about twice as deep as its quads are long), out to the same 1 km. The first ring's
// inner edge carries the border's `segments` + 1 vertices a side, its outer edge
// kDrapedSegments, stitched in between; every ring after it has kDrapedSegments a side.
constexpr int kDrapedSegments = 64;
int buildDrapedSkirt(int segments, float half, gpu::Buffer& vertices, gpu::VertexArray& array,
                     const std::string& name) {
    const float outer = half + 100000.0f;
    const glm::vec2 corners[4] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    std::vector<float> skirt;
    auto put = [&skirt](glm::vec2 p) {
        skirt.insert(skirt.end(), {p.x, p.y});
    };
    // One side's strip between the square of half-side `r0` cut in `n0` and that of `r1` in
    // `n1`: triangles in order of the position along the side, so it is covered once.
    auto strip = [&](glm::vec2 a, glm::vec2 b, float r0, int n0, float r1, int n1) {
        auto at = [&](float r, int i, int n) {
            return glm::mix(a, b, float(i) / float(n)) * r;
        };
        int i = 0, j = 0;
        while (i < n0 || j < n1) {
            // Advance the edge whose next vertex comes first along the side.
            // Counter-clockwise from above, as the fans and the grid.
            if (j == n1 || (i < n0 && (i + 1) * n1 <= (j + 1) * n0)) {
                put(at(r0, i, n0));
                put(at(r1, j, n1));
                put(at(r0, i + 1, n0));
                ++i;
            } else {
                put(at(r0, i, n0));
                put(at(r1, j, n1));
                put(at(r1, j + 1, n1));
                ++j;
            }
        }
    };
    float r0 = half;
    int n0 = segments;
    while (r0 < outer) {
        const float r1 = std::min(outer, r0 * (1.0f + 4.0f / kDrapedSegments));
        for (int side = 0; side < 4; ++side)
            strip(corners[side], corners[(side + 1) % 4], r0, n0, r1, kDrapedSegments);
        r0 = r1;
        n0 = kDrapedSegments;
    }
    vertices = gpu::Buffer(skirt.size() * sizeof(float), skirt.data(), "surface.skirt." + name);
    array = offsetArray(vertices, nullptr, "surface.skirt." + name);
    return static_cast<int>(skirt.size() / 2);
}

} // namespace

SurfaceMeshes SurfaceMeshes::build(const Region& region, int cells, bool draped) {
    const float half = static_cast<float>(region.widthCm * 0.5);
    SurfaceMeshes g;
    g.cells = cells;

    // The displaced grid: (cells + 1)^2 vertices, two triangles per cell.
    const int n = cells + 1;
    std::vector<float> vertices;
    vertices.reserve(static_cast<std::size_t>(n) * n * 2);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            vertices.push_back(-half + 2.0f * half * float(i) / float(cells));
            vertices.push_back(-half + 2.0f * half * float(j) / float(cells));
        }
    std::vector<std::uint32_t> indices;
    indices.reserve(static_cast<std::size_t>(cells) * cells * 6);
    for (int j = 0; j < cells; ++j)
        for (int i = 0; i < cells; ++i) {
            const std::uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
            indices.insert(indices.end(), {a, b, d, a, d, c});
        }
    g.gridVertices = gpu::Buffer(vertices.size() * sizeof(float), vertices.data(), "surface.grid");
    g.gridIndices =
        gpu::Buffer(indices.size() * sizeof(std::uint32_t), indices.data(), "surface.grid.indices");
    g.gridIndexCount = static_cast<int>(indices.size());
    g.gridArray = offsetArray(g.gridVertices, &g.gridIndices, "surface.grid");

    // The skirts: from the region's border out to 1 km, flat at the surface. Their inner edge
    // carries exactly the border vertices of the geometry inside (every grid vertex, or every
    // patch corner), so no T-junction can leave pinholes along the border.
    // Over a terrain they follow the ground (buildDrapedSkirt).
    const auto skirt = draped ? buildDrapedSkirt : buildSkirt;
    g.skirtVertexCount[0] = skirt(cells, half, g.skirtVertices[0], g.skirtArray[0], "grid");
    g.skirtVertexCount[1] =
        skirt(kPatchesPerSide, half, g.skirtVertices[1], g.skirtArray[1], "patches");

    // Tessellation patches: quads with corners (u0,v0) (u1,v0) (u1,v1) (u0,v1).
    std::vector<float> patches;
    const float step = 2.0f * half / kPatchesPerSide;
    for (int j = 0; j < kPatchesPerSide; ++j)
        for (int i = 0; i < kPatchesPerSide; ++i) {
            const float x0 = -half + i * step, y0 = -half + j * step;
            patches.insert(patches.end(),
                           {x0, y0, x0 + step, y0, x0 + step, y0 + step, x0, y0 + step});
        }
    g.patchVertices =
        gpu::Buffer(patches.size() * sizeof(float), patches.data(), "surface.patches");
    g.patchVertexCount = static_cast<int>(patches.size() / 2);
    g.patchArray = offsetArray(g.patchVertices, nullptr, "surface.patches");
    return g;
}

const SurfaceMeshes& SurfaceMeshCache::get(const Region& region, int cells, bool draped,
                                           int frame) {
    const Key key{region.widthCm, cells, draped};
    auto found = meshes_.find(key);
    if (found == meshes_.end()) {
        if (meshes_.size() >= 4) // sizes no view of the list being built draws
            std::erase_if(meshes_,
                          [frame](const auto& entry) { return entry.second.frame != frame; });
        found = meshes_.emplace(key, SurfaceMeshes::build(region, cells, draped)).first;
    }
    found->second.frame = frame;
    return found->second;
}

const gpu::ShaderProgram* SurfacePrograms::get(const SurfaceVariant& variant) {
    if (auto found = programs_.find(variant); found != programs_.end())
        return found->second;
    auto loaded = shaders_.load(SnowSurfacePass::surfaceProgram(variant));
    const gpu::ShaderProgram* program = nullptr;
    if (auto* error = std::get_if<std::string>(&loaded))
        spdlog::error("{}", *error); // once: the null is remembered below
    else
        program = std::get<gpu::ShaderProgram*>(loaded);
    programs_.emplace(variant, program);
    return program;
}

} // namespace snowcap
