#pragma once
// The ground under every sim, [terrain]; a section of Settings (core/settings.hpp), one member a
// key of the parameter table.

#include "core/settings_options.hpp"

#include <array>
#include <string>

namespace snowcap {

// The ground's shape under every sim ([terrain], docs/terrain.md): heights in metres that lift
// the flat ground (snow.surface_z_cm - snow.depth_cm) at each point; the undisturbed snow top
// is snow.surface_z_cm + the height. "flat" (every height 0) is the scene as it always was.
struct TerrainSettings {
    TerrainSettings();  // the parameter table's defaults (params.cpp)
    TerrainKind kind{}; // kind: "flat" | "heightmap" | "noise" | "dem"
    // file: heightmap: a 16-bit (or 8-bit) grayscale PNG or a raw little-endian .r16; dem: any
    // raster GDAL reads, in a projected CRS in metres
    std::string file;
    std::array<double, 2> sizeM{};        // size_m = [x, y]: the heightmap's (or noise's) extent
    std::array<double, 2> heightRangeM{}; // height_range_m = [lo, hi]: 0 maps to lo, 65535 to hi
    std::array<double, 2> centreCm{};     // centre_cm = [x, y]: where the terrain's centre lies
    TerrainFirstRow firstRow{};           // first_row: which edge the file's first row is
    int seed{};                           // seed: noise's random sequence
    double reliefM{};                     // relief_m: noise's height from lowest to highest
    double featureM{};                    // feature_m: noise's largest hills, across
    double maxMiB{};                      // max_mib: what one height field may take in memory
    // mesh_file: a mesh (any format Assimp reads) rasterised from above over a heightmap or DEM,
    // the higher wins; kind = "mesh" takes it from `file` instead
    std::string meshFile;
    double meshCellCm{}; // mesh_cell_cm: the cell of kind = "mesh"'s height field
    // mesh_offset_cm = [x, y, z]: moves the mesh from where the import places it (centred on
    // centre_cm, its lowest point at height 0)
    std::array<double, 3> meshOffsetCm{};
    // export_snow_top: `render` writes each sim's final snow top as a 16-bit PNG and an EXR
    // height field in this terrain's mapping (docs/terrain_files.md)
    bool exportSnowTop{};
};

} // namespace snowcap
