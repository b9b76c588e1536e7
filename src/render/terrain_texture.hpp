#pragma once
// TerrainTexture — the ground's shape ([terrain], terrain/height_field.hpp) on the GPU, for every
// pass that draws on it (the snow surface and its skirt; shaders/common/terrain.glsl).
// Holds:  the HeightField's samples as an R32F texture in cm (texel (i, j) is sample (column i,
//         row j): row 0 north, as the field stores them) and the TerrainParams block that maps
//         world cm onto it. The shader's height is the field's own bilinear rule over texelFetch
//         taps, so the GPU and HeightField::heightCm agree to float rounding; the normal takes
//         the sampler's bilinear taps a cell apart, as HeightField::normal does.
// A flat terrain has no texture: the passes that draw on it compile without TERRAIN and bind
// nothing, so a flat scene's programs and images are what they were.
//
// It lives beside the passes that read it rather than in src/terrain/: the terrain module sits
// below gpu/ in the layering (scene reads heights, gpu builds on scene).

#include "gpu/objects.hpp"
#include "gpu/pass_record.hpp"
#include "terrain/height_field.hpp"

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// The C++ mirror of shaders/common/terrain.glsl's TerrainParams (std140).
struct alignas(16) TerrainParamsBlock {
    float mapping[4]; // west edge (cm), north edge (cm), 1 / cell x, 1 / cell y (per cm)
    float grid[4];    // columns, rows, cell x (cm), cell y (cm)
};
static_assert(sizeof(TerrainParamsBlock) == 32, "std140 size drift: see terrain.glsl");

// The block of `field` (not flat).
TerrainParamsBlock terrainParams(const HeightField& field);

class TerrainTexture {
public:
    // The texture and block of a field that is not flat; the reason on failure (a side past
    // GL_MAX_TEXTURE_SIZE, out of memory).
    static std::variant<std::unique_ptr<TerrainTexture>, std::string>
    create(std::shared_ptr<const HeightField> field);

    const HeightField& field() const { return *field_; }
    const std::shared_ptr<const HeightField>& fieldPointer() const { return field_; }
    const gpu::Texture2D& heights() const { return heights_; }
    std::size_t bytes() const { return heights_.bytes(); }

    // The block and the heights (with a bilinear sampler clamped to the edge), as a pass binds
    // them; the resource is "terrain", made with the terrain before any frame (history).
    std::vector<gpu::PassBinding> bindings() const;
    static constexpr const char* kResource = "terrain";

private:
    TerrainTexture() = default;
    std::shared_ptr<const HeightField> field_;
    gpu::Texture2D heights_;
    gpu::Sampler sampler_;
    gpu::Buffer params_;
};

} // namespace snowcap
