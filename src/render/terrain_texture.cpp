#include "render/terrain_texture.hpp"

#include "gpu/binding_slots.hpp"

#include <fmt/format.h>

namespace snowcap {

TerrainParamsBlock terrainParams(const HeightField& field) {
    const glm::dvec2 cell = field.cellCm();
    TerrainParamsBlock block{};
    block.mapping[0] = static_cast<float>(field.centreCm().x - field.sizeCm().x * 0.5);
    block.mapping[1] = static_cast<float>(field.centreCm().y + field.sizeCm().y * 0.5);
    block.mapping[2] = static_cast<float>(1.0 / cell.x);
    block.mapping[3] = static_cast<float>(1.0 / cell.y);
    block.grid[0] = static_cast<float>(field.columns());
    block.grid[1] = static_cast<float>(field.rows());
    block.grid[2] = static_cast<float>(cell.x);
    block.grid[3] = static_cast<float>(cell.y);
    return block;
}

std::variant<std::unique_ptr<TerrainTexture>, std::string>
TerrainTexture::create(std::shared_ptr<const HeightField> field) {
    if (!field || field->flat())
        return std::string("a flat terrain has no texture");
    GLint maxSide = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSide);
    if (field->columns() > maxSide || field->rows() > maxSide)
        return fmt::format("terrain: {} x {} samples, the GL's textures hold at most {} a side",
                           field->columns(), field->rows(), maxSide);
    std::unique_ptr<TerrainTexture> terrain(new TerrainTexture());
    terrain->heights_ = gpu::Texture2D(field->columns(), field->rows(), gpu::TextureFormat::R32F,
                                       "terrain.heights");
    if (!terrain->heights_.id())
        return terrain->heights_.allocationError();
    // Texture row j is the field's row j (north first): the shader indexes rows as the field
    // does, so nothing is flipped on either side.
    std::vector<float> heightsCm(field->heightsM().size());
    for (std::size_t i = 0; i < heightsCm.size(); ++i)
        heightsCm[i] = field->heightsM()[i] * 100.0f;
    terrain->heights_.upload(heightsCm);
    // Bilinear between cell centres, the edge samples held beyond the extent: HeightField's rule.
    terrain->sampler_ = gpu::Sampler(GL_LINEAR, GL_CLAMP_TO_EDGE, "terrain.heights");
    const TerrainParamsBlock block = terrainParams(*field);
    terrain->params_ = gpu::Buffer(sizeof(block), &block, "terrain.params");
    terrain->field_ = std::move(field);
    return terrain;
}

std::vector<gpu::PassBinding> TerrainTexture::bindings() const {
    const TerrainTexture* self = this;
    std::vector<gpu::PassBinding> bindings = {{gpu::BindingKind::UniformBlock,
                                               gpu::slot::kTerrainParams, kResource,
                                               [self] {
                                                   return self->params_.id();
                                               }},
                                              {gpu::BindingKind::Texture, gpu::slot::kTerrainField,
                                               kResource, [self] { return self->heights_.id(); },
                                               [self] {
                                                   return self->sampler_.id();
                                               }}};
    for (gpu::PassBinding& binding : bindings)
        binding.history = true; // made with the terrain, before any frame
    return bindings;
}

} // namespace snowcap
