#pragma once
// The terrain [terrain] describes (docs/terrain.md), read or made on the CPU: a HeightField, or
// one line "key 'terrain.file': PATH: reason" (the caller adds nothing and exits 2, or keeps the
// terrain it had on a live edit). Files are untrusted (core/untrusted_file.hpp): whatever the
// name points at is refused before it is decoded unless it is a regular file within the budget,
// and every size a header claims is checked before anything is allocated for it.

#include "core/settings.hpp"
#include "terrain/height_field.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// The most samples a side a terrain file may have.
inline constexpr int kMaxTerrainSide = 16384;

// The terrain of `terrain`; a relative terrain.file is under `root` (the config reader has
// already made a file found beside its scenario absolute).
std::variant<HeightField, std::string> loadTerrain(const TerrainSettings& terrain,
                                                   const std::filesystem::path& root);

// What a heightmap file holds: its samples as 16-bit values (an 8-bit PNG's x 257, so 255 is
// 65535), row 0 first in the file.
struct HeightmapSamples {
    int columns = 0, rows = 0;
    std::vector<std::uint16_t> values;
};
// A grayscale PNG of 8 or 16 bits, not interlaced; at most kMaxTerrainSide a side and `maxBytes`
// of 4-byte heights. "PATH: reason" on failure.
std::variant<HeightmapSamples, std::string> readHeightmapPng(const std::filesystem::path& path,
                                                             std::uint64_t maxBytes);
// A raw .r16: little-endian 16-bit samples of a square (UE Landscape's export), no header: the
// file's size is its header, and it must be 2 n^2 bytes.
std::variant<HeightmapSamples, std::string> readHeightmapR16(const std::filesystem::path& path,
                                                             std::uint64_t maxBytes);
// Writes `samples` as a 16-bit grayscale PNG (row 0 first), atomically; the reason on failure.
std::optional<std::string> writeHeightmapPng(const std::filesystem::path& path,
                                             const HeightmapSamples& samples);

// Samples to metres: 0 is heightRangeM[0], 65535 heightRangeM[1]; first_row = "south" turns
// the rows so that row 0 is north.
HeightField heightmapField(const HeightmapSamples& samples, const TerrainSettings& terrain);

// kind = "dem": any raster GDAL reads (band 1, metres), north up, in a projected CRS with
// metres (or another linear unit, converted); a geographic CRS is refused with a line that says
// to reproject. The georeferenced centre goes to terrain.centre_cm. No-data samples take the
// lowest valid height.
std::variant<HeightField, std::string> readDem(const std::filesystem::path& path,
                                               const TerrainSettings& terrain);

// kind = "noise": seeded fractal hills over terrain.size_m, heights from 0 to relief_m.
HeightField noiseTerrain(const TerrainSettings& terrain);

// kind = "mesh" before its mesh is rasterised in (snow/terrain_mesh.hpp): samples of
// terrain.mesh_cell_cm over terrain.size_m at terrain.centre_cm, every height 0; one line when
// that is more than kMaxTerrainSide a side or terrain.max_mib.
std::variant<HeightField, std::string> meshBaseField(const TerrainSettings& terrain);

// The mesh rasterised from above into the terrain's samples: kind = "mesh"'s file, else
// terrain.mesh_file over a heightmap, DEM or noise (relative names under `root`); none without.
std::optional<std::filesystem::path> terrainMeshPath(const TerrainSettings& terrain,
                                                     const std::filesystem::path& root);

} // namespace snowcap
