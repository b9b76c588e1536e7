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
};

} // namespace snowcap
