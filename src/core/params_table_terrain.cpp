// The parameter table, part 6: the ground's shape under every sim ([terrain], docs/terrain.md).
// One row per key, as in params_table.cpp.
#include "core/params.hpp"

namespace snowcap::params {

using enum Widget;
using config_read::kTerrainFirstRows;
using config_read::kTerrainKinds;

const Section<TerrainSettings>& terrainParams() {
    using T = TerrainSettings;
    static const Section<T> section{
        "terrain",
        "The shape of the ground under every sim (docs/terrain.md): heights in metres that lift "
        "the flat ground (snow.surface_z_cm - snow.depth_cm) point by point, so the undisturbed "
        "snow top is snow.surface_z_cm + the height. \"flat\" is the scene as it always was; a "
        "16-bit heightmap (UE Landscape's PNG or .r16), a DEM through GDAL, or seeded noise. "
        "Files are untrusted: one line naming terrain.file and the reason.",
        {
            {"kind", choice(&T::kind, kTerrainKinds), "flat", anyNumber(), "", Combo,
             "\"flat\": every height 0; \"heightmap\": terrain.file is a 16-bit grayscale PNG or "
             "a raw .r16; \"dem\": any raster GDAL reads, in a projected CRS in metres; "
             "\"noise\": seeded fractal hills; \"mesh\": terrain.file is a mesh Assimp reads, "
             "rasterised from above (its z in cm above the flat ground)."},
            {"file", &T::file, "", anyNumber(), "", None,
             "The heightmap or DEM (beside the file that names it, else in the repository, or "
             "absolute): at most 16384 samples a side and terrain.max_mib of heights."},
            {"size_m", &T::sizeM, xy(200.0, 200.0), aboveUpTo(0.0, 1.0e6), "m", None,
             "[x, y]: the whole heightmap's (or the noise's) extent, edge to edge of its outer "
             "samples' cells. A DEM takes its own from its georeferencing."},
            {"height_range_m", &T::heightRangeM, xy(0.0, 100.0), between(-1.0e5, 1.0e5), "m", None,
             "[lo, hi]: a heightmap's value 0 is lo metres, 65535 (255 in an 8-bit PNG) hi. A "
             "DEM's values are metres already."},
            {"centre_cm", &T::centreCm, xy(0.0, 0.0), anyNumber(), "cm", None,
             "[x, y]: where the terrain's centre lies in the world (a DEM's georeferenced "
             "centre)."},
            {"first_row", choice(&T::firstRow, kTerrainFirstRows), "north", anyNumber(), "", None,
             "Which edge a heightmap's first row is: \"north\" (+Y, as maps store them) or "
             "\"south\" (-Y, a UE Landscape's export)."},
            {"seed", &T::seed, 1, integerBetween(0, 2147483647), "", None,
             "Noise: the random sequence (the same seed, the same hills)."},
            {"relief_m", &T::reliefM, 20.0, between(0.0, 10000.0), "m", None,
             "Noise: the height from the lowest point to the highest."},
            {"feature_m", &T::featureM, 80.0, aboveUpTo(0.0, 1.0e5), "m", None,
             "Noise: the width of the largest hills (the first octave's wavelength)."},
            {"max_mib", &T::maxMiB, 256.0, aboveUpTo(0.0, 4096.0), "MiB", None,
             "What one height field may take in memory (4 bytes a sample); a file that claims "
             "more is refused before it is decoded."},
            {"mesh_file", &T::meshFile, "", anyNumber(), "", None,
             "A mesh Assimp reads (a level's rocks, roofs, a bridge), rasterised from above into "
             "the heightmap's or DEM's samples, the higher wins; its z in cm above the flat "
             "ground. Read with [import]'s limits."},
            {"mesh_cell_cm", &T::meshCellCm, 50.0, between(1.0, 10000.0), "cm", None,
             "kind = \"mesh\": the side of one sample of the height field the mesh is "
             "rasterised into (over size_m at centre_cm)."},
            {"mesh_offset_cm", &T::meshOffsetCm, xyz(0.0, 0.0, 0.0), anyNumber(), "cm", None,
             "[x, y, z]: moves the terrain's mesh from where the import places it: centred on "
             "centre_cm, its lowest point at height 0 (a heightmap's 0 m)."},
            {"export_snow_top", &T::exportSnowTop, false, anyNumber(), "", Checkbox,
             "render writes each sim's final snow top (terrain + snow + prints) as snow_top_X.png "
             "(16-bit), snow_top_X.exr (metres) and snow_top_X.toml (the [terrain] that reads "
             "it back) beside stats.json."},
        }};
    return section;
}

} // namespace snowcap::params
