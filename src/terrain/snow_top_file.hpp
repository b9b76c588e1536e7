#pragma once
// The final snow top as files a terrain tool reads back (docs/terrain_files.md): a 16-bit
// grayscale PNG in a heightmap's mapping (what [terrain] kind = "heightmap" and a UE Landscape
// import), an OpenEXR height field of 32-bit floats in metres (Houdini, Blender, Nuke), and the
// [terrain] table that reads the PNG back. No GL: lab/snow_top_export.hpp measures the top.

#include "core/settings.hpp"
#include "terrain/height_field.hpp"

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

// Where a heightmap's samples lie and what their values mean: [terrain]'s size_m,
// height_range_m, centre_cm and first_row.
struct HeightmapMapping {
    std::array<double, 2> sizeM{};
    std::array<double, 2> heightRangeM{};
    std::array<double, 2> centreCm{};
    TerrainFirstRow firstRow = TerrainFirstRow::North;
};

// The mapping an export of `top` (its heights in metres, on the terrain's own samples) is
// written in: the field's extent and centre; the terrain's first_row for a heightmap, else
// north; and the range: a heightmap's own height_range_m when every height of `top` lies within
// it (so the same keys read it back), else that range widened just enough to hold them (a
// heightmap's), or exactly the lowest to the highest height (any other kind). A level top gets
// a range of 1 cm above its height, so that every value is 0 and the range is not empty.
HeightmapMapping snowTopMapping(const HeightField& top, const TerrainSettings& terrain);

// `top` in `mapping` as STEM.png (16 bits, the nearest value: within half a step of
// (hi - lo) / 65535), STEM.exr (one float channel "Y", the heights in metres, north up) and
// STEM.toml ([terrain] kind = "heightmap" with the PNG beside it); each whole file is appended
// to `written`. One line naming the file on failure (a missing folder, no permission).
std::optional<std::string> writeSnowTopFiles(const std::filesystem::path& stem,
                                             const HeightField& top,
                                             const HeightmapMapping& mapping,
                                             std::vector<std::filesystem::path>* written = nullptr);

} // namespace snowcap
