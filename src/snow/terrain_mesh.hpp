#pragma once
// A mesh as terrain ([terrain] kind = "mesh", or terrain.mesh_file over a heightmap, DEM or
// noise; docs/terrain_files.md): rasterised from above into the height field's samples on the
// GPU. An orthographic camera looks straight down over the field's extent with one pixel a
// sample, so each pixel centre is a sample's cell centre; the depth test keeps the highest
// triangle over it and the colour target (R32F) holds that triangle's world z there, read back
// into the field where it is higher than what the field had.

#include "core/settings.hpp"
#include "gpu/shader_library.hpp"
#include "scene/mesh.hpp"
#include "terrain/height_field.hpp"

#include <filesystem>
#include <string>
#include <variant>

namespace snowcap {

// `base` with `mesh` (world cm, Z up) rasterised in: each sample takes the higher of its own
// height and the highest triangle over its cell centre (z / 100 m); samples no triangle covers
// keep theirs. `base` must have samples (not flat). One line when the field is larger than the
// GL's viewport or the target cannot be allocated.
std::variant<HeightField, std::string>
rasteriseTerrainMesh(const HeightField& base, const Mesh& mesh, gpu::ShaderLibrary& shaders);

// The terrain of `settings.terrain` (loadTerrain) with its mesh, when it has one
// (terrainMeshPath), imported with [import]'s limits (the model import's checks: one line
// "key 'terrain.file': FILE: reason") and rasterised in. Needs a current GL context.
std::variant<HeightField, std::string> loadTerrainWithMesh(const Settings& settings,
                                                           const std::filesystem::path& root,
                                                           gpu::ShaderLibrary& shaders);

} // namespace snowcap
