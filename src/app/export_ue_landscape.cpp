#include "app/export_ue_landscape.hpp"

#include "core/config.hpp"
#include "terrain/terrain.hpp"

#include <cmath>
#include <fmt/format.h>
#include <tuple>

namespace snowcap {

using json = nlohmann::ordered_json;

LandscapeLayout landscapeLayout(int columns, int rows) {
    LandscapeLayout best;
    std::tuple<long long, long long, int> bestScore{-1, 0, 0}; // added vertices, components, s
    for (int sections : {1, 2})
        for (int quads : kLandscapeQuadsPerSection) {
            const int unit = quads * sections;
            LandscapeLayout layout{quads, sections, std::max(1, (columns - 2) / unit + 1),
                                   std::max(1, (rows - 2) / unit + 1)};
            const std::tuple<long long, long long, int> score{
                (long long)layout.verticesX() * layout.verticesY() - (long long)columns * rows,
                (long long)layout.componentsX * layout.componentsY, sections};
            if (std::get<0>(bestScore) < 0 || score < bestScore) {
                best = layout;
                bestScore = score;
            }
        }
    return best;
}

LandscapeImport landscapeImport(const HeightField& field, double lowCm, double highCm,
                                double groundZCm, bool firstRowNorth) {
    LandscapeImport import;
    import.columns = field.columns();
    import.rows = field.rows();
    const glm::dvec2 cell = field.cellCm();
    import.scaleX = cell.x;
    import.scaleY = cell.y;
    // One 16-bit step is (high - low) / 65535 cm here and scale_z / 128 cm in UE.
    const double stepCm = (highCm - lowCm) / 65535.0;
    import.scaleZ = stepCm * 128.0;
    // Vertex (0, 0) is the south-west sample's centre (UE's first row is its lowest Y), and
    // UE's value 32768 stands at the actor's z.
    const glm::dvec2 southWest = field.centreCm() - field.sizeCm() * 0.5 + cell * 0.5;
    import.locationCm[0] = southWest.x;
    import.locationCm[1] = southWest.y;
    import.locationCm[2] = groundZCm + lowCm + 32768.0 * stepCm;
    import.flipRows = firstRowNorth;
    import.layout = landscapeLayout(import.columns, import.rows);
    return import;
}

namespace {

json entry(json value, const char* unit, const std::string& key, const std::string& note = "") {
    return {{"value", std::move(value)}, {"unit", unit}, {"snowcap", key}, {"note", note}};
}

// A figure to the micrometre or the millionth: what a Details panel field holds.
double rounded(double x) {
    return std::round(x * 1e6) / 1e6;
}

json importSection(const LandscapeImport& import, const std::string& fileNote) {
    json section;
    section["Heightmap_File"] = entry(fileNote, "", "terrain.file");
    section["Flip_Rows"] = entry(
        import.flipRows, "", "terrain.first_row",
        import.flipRows ? "the file's first row is north, UE's first row is its lowest Y: flip "
                          "the image vertically before the import (or set first_row = \"south\" "
                          "for a file exported from UE)"
                        : "the file's first row is south, as UE reads it: import it as it is");
    section["Scale"] =
        entry(json::array({rounded(import.scaleX), rounded(import.scaleY), rounded(import.scaleZ)}),
              "[cm a quad, cm a quad, x 1/128 cm a 16-bit step]", "terrain.size_m, height_range_m",
              "the Landscape actor's scale: one sample a vertex, one 16-bit step of the file "
              "one step of the landscape");
    section["Location"] =
        entry(json::array({rounded(import.locationCm[0]), rounded(import.locationCm[1]),
                           rounded(import.locationCm[2])}),
              "cm", "terrain.centre_cm, height_range_m, snow.surface_z_cm - snow.depth_cm",
              "the actor's location: the south-west sample's centre, at the height of the "
              "16-bit value 32768 over snowcap's flat ground");
    const LandscapeLayout& l = import.layout;
    section["Section_Size"] = entry(fmt::format("{0}x{0} quads", l.quadsPerSection), "", "");
    section["Sections_Per_Component"] =
        entry(fmt::format("{0}x{0}", l.sectionsPerComponent), "", "");
    section["Number_Of_Components"] = entry(json::array({l.componentsX, l.componentsY}), "", "");
    section["Overall_Resolution"] = entry(
        json::array({l.verticesX(), l.verticesY()}), "vertices", "",
        import.exact()
            ? fmt::format("the file's {} x {} samples exactly", import.columns, import.rows)
            : fmt::format("the file has {} x {} samples, which no layout holds exactly: pad it "
                          "to {} x {} by repeating its east column and its north row (after the "
                          "flip, its last row), so the location and the scale stay",
                          import.columns, import.rows, l.verticesX(), l.verticesY()));
    return section;
}

} // namespace

std::variant<std::optional<json>, std::string>
ueLandscapeSection(const Settings& settings, const std::filesystem::path& root) {
    const TerrainSettings& terrain = settings.terrain;
    if (terrain.kind == TerrainKind::Flat)
        return std::optional<json>();
    const std::string kind(toString(terrain.kind));
    if (terrain.kind != TerrainKind::Heightmap && terrain.kind != TerrainKind::Dem) {
        json section;
        section["Kind"] = entry(kind, "", "terrain.kind",
                                "made by snowcap, not read from a file: there is no heightmap to "
                                "import; a heightmap or DEM terrain's card gives the Landscape's "
                                "import values");
        return std::optional<json>(std::move(section));
    }
    auto loaded = loadTerrain(terrain, root);
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    const HeightField& field = std::get<HeightField>(loaded);
    const double groundZCm = settings.snow.surfaceZCm - settings.snow.depthCm;
    json section;
    section["Kind"] = entry(kind, "", "terrain.kind");
    if (terrain.kind == TerrainKind::Heightmap) {
        const LandscapeImport import =
            landscapeImport(field, terrain.heightRangeM[0] * 100.0, terrain.heightRangeM[1] * 100.0,
                            groundZCm, terrain.firstRow == TerrainFirstRow::North);
        section.update(importSection(import, terrain.file));
    } else {
        // A DEM's heights are floats: a 16-bit PNG of its span first, north row first as GDAL
        // writes it.
        const HeightSpan span = field.spanCm();
        const LandscapeImport import =
            landscapeImport(field, span.lowCm, span.highCm, groundZCm, true);
        section.update(importSection(
            import,
            fmt::format("a 16-bit PNG of {0}: gdal_translate -ot UInt16 -scale {1} {2} 0 "
                        "65535 -of PNG {0} landscape.png",
                        terrain.file, rounded(span.lowCm / 100.0), rounded(span.highCm / 100.0))));
    }
    return std::optional<json>(std::move(section));
}

std::string ueLandscapeMarkdown(const json& landscape) {
    std::string md = "\n## Landscape\n\n| Unreal | value | unit | snowcap key | note |\n"
                     "| --- | --- | --- | --- | --- |\n";
    for (const auto& [name, e] : landscape.items()) {
        const json& value = e.at("value");
        const std::string key = e.at("snowcap").get<std::string>();
        md += fmt::format("| {} | `{}` | {} | {} | {} |\n", name,
                          value.is_string() ? value.get<std::string>() : value.dump(),
                          e.at("unit").get<std::string>(), key.empty() ? "" : "`" + key + "`",
                          e.at("note").get<std::string>());
    }
    return md;
}

} // namespace snowcap
