#pragma once
// The landscape in an Unreal card (`snowcap export-ue`, docs/unreal.md, docs/terrain.md §7):
// for a heightmap or DEM terrain, the values a Landscape import takes so that the landscape
// comes back 1:1 under the snow: the actor's scale X/Y/Z and location from terrain.size_m,
// height_range_m and centre_cm, the row order, and the component layout (section size,
// sections per component, components) that holds the file's samples exactly, or the padding
// that makes it so. UE's mapping (the Landscape Technical Guide, docs/sources.md): a vertex's
// height is (v - 32768) / 128 x scale_z cm above the actor, vertex (i, j) lies scale_x i,
// scale_y j cm from it, and the file's first row is the lowest Y. No GL.

#include "core/settings.hpp"
#include "terrain/height_field.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

namespace snowcap {

// UE's quads per section, and 1 or 2 x 2 sections per component.
inline constexpr int kLandscapeQuadsPerSection[] = {7, 15, 31, 63, 127, 255};

// A landscape of components x sections x quads + 1 vertices a side.
struct LandscapeLayout {
    int quadsPerSection = 0;
    int sectionsPerComponent = 1; // a side: 1 (1x1) or 2 (2x2)
    int componentsX = 0, componentsY = 0;
    int verticesX() const { return componentsX * sectionsPerComponent * quadsPerSection + 1; }
    int verticesY() const { return componentsY * sectionsPerComponent * quadsPerSection + 1; }
    bool operator==(const LandscapeLayout&) const = default;
};
// The layout for columns x rows samples: of those that hold them with the fewest added
// vertices (none when one fits exactly), the one of fewest components, then 1x1 sections.
LandscapeLayout landscapeLayout(int columns, int rows);

// The import of a terrain's samples as a UE Landscape.
struct LandscapeImport {
    int columns = 0, rows = 0;
    double scaleX = 0.0, scaleY = 0.0, scaleZ = 0.0; // the actor's scale (cm a quad; Z: x / 128)
    double locationCm[3] = {0.0, 0.0, 0.0};          // the actor's location: vertex (0, 0)
    bool flipRows = false; // the file's first row is north: flip it before the import
    LandscapeLayout layout;
    bool exact() const { return layout.verticesX() == columns && layout.verticesY() == rows; }
};
// `field` as loaded from the file; 16-bit value 0 maps to `lowCm` and 65535 to `highCm` above
// the flat ground at `groundZCm` (snow.surface_z_cm - snow.depth_cm); `firstRowNorth`: the
// file's first row is the terrain's north edge.
LandscapeImport landscapeImport(const HeightField& field, double lowCm, double highCm,
                                double groundZCm, bool firstRowNorth);

// The card's "Landscape" section for `settings`' terrain (a relative file under `root`); none
// for a flat terrain; "key 'terrain.file': PATH: reason" when the file cannot be read.
std::variant<std::optional<nlohmann::ordered_json>, std::string>
ueLandscapeSection(const Settings& settings, const std::filesystem::path& root);
// The section as Markdown (a table under "## Landscape").
std::string ueLandscapeMarkdown(const nlohmann::ordered_json& landscape);

} // namespace snowcap
