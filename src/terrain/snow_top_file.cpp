#include "terrain/snow_top_file.hpp"

#include "io/exr.hpp"
#include "io/image.hpp"
#include "terrain/terrain.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <toml++/toml.h>

namespace snowcap {

namespace fs = std::filesystem;

HeightmapMapping snowTopMapping(const HeightField& top, const TerrainSettings& terrain) {
    HeightmapMapping mapping;
    mapping.sizeM = {top.sizeCm().x / 100.0, top.sizeCm().y / 100.0};
    mapping.centreCm = {top.centreCm().x, top.centreCm().y};
    const auto [lowest, highest] =
        std::minmax_element(top.heightsM().begin(), top.heightsM().end());
    double low = lowest == top.heightsM().end() ? 0.0 : double(*lowest);
    double high = highest == top.heightsM().end() ? 0.0 : double(*highest);
    if (terrain.kind == TerrainKind::Heightmap) {
        mapping.firstRow = terrain.firstRow;
        low = std::min(low, terrain.heightRangeM[0]);
        high = std::max(high, terrain.heightRangeM[1]);
    }
    if (!(high > low))
        high = low + 0.01;
    mapping.heightRangeM = {low, high};
    return mapping;
}

std::optional<std::string> writeSnowTopFiles(const fs::path& stem, const HeightField& top,
                                             const HeightmapMapping& mapping,
                                             std::vector<fs::path>* written) {
    const int columns = top.columns(), rows = top.rows();
    if (top.flat())
        return "cannot write '" + stem.string() + ".png': the snow top has no samples";
    const auto done = [written](const fs::path& file) {
        if (written)
            written->push_back(file);
    };
    // The PNG: the nearest 16-bit value, rows in the mapping's order (a field's row 0 is north).
    const double low = mapping.heightRangeM[0], high = mapping.heightRangeM[1];
    const bool southFirst = mapping.firstRow == TerrainFirstRow::South;
    HeightmapSamples samples{columns, rows, std::vector<std::uint16_t>(top.heightsM().size())};
    for (int row = 0; row < rows; ++row)
        for (int column = 0; column < columns; ++column) {
            const double metres = top.sampleM(column, southFirst ? rows - 1 - row : row);
            const double value = std::round((metres - low) / (high - low) * 65535.0);
            samples.values[std::size_t(row) * columns + column] =
                std::uint16_t(std::clamp(value, 0.0, 65535.0));
        }
    const fs::path png = fs::path(stem).concat(".png");
    if (auto error = writeHeightmapPng(png, samples))
        return error;
    done(png);

    // The EXR: metres as they are, row 0 of the image south (io/exr.hpp stores north up).
    ExrImage exr;
    exr.width = columns;
    exr.height = rows;
    exr.channels = {"Y"};
    exr.pixel = ExrPixel::Float;
    exr.floats.resize(std::size_t(columns) * rows);
    for (int row = 0; row < rows; ++row)
        for (int column = 0; column < columns; ++column)
            exr.floats[std::size_t(rows - 1 - row) * columns + column] = top.sampleM(column, row);
    std::ostringstream comments;
    comments << "snowcap snow top: heights in metres above the flat ground, north up; "
             << mapping.sizeM[0] << " x " << mapping.sizeM[1] << " m centred on ["
             << mapping.centreCm[0] << ", " << mapping.centreCm[1] << "] cm";
    exr.comments = comments.str();
    const fs::path exrPath = fs::path(stem).concat(".exr");
    if (auto error = writeExr(exrPath, exr))
        return error;
    done(exrPath);

    // The [terrain] that reads the PNG back, beside it (a config names files beside itself).
    const auto pairOf = [](const std::array<double, 2>& values) {
        return toml::array{values[0], values[1]};
    };
    toml::table terrain{
        {"kind", "heightmap"},
        {"file", png.filename().string()},
        {"size_m", pairOf(mapping.sizeM)},
        {"height_range_m", pairOf(mapping.heightRangeM)},
        {"centre_cm", pairOf(mapping.centreCm)},
        {"first_row", southFirst ? "south" : "north"},
    };
    std::ostringstream text;
    text << "# The snow top snowcap wrote as " << png.filename().string()
         << " (docs/terrain_files.md): this [terrain] reads it back.\n"
         << toml::table{{"terrain", std::move(terrain)}} << "\n";
    const std::string bytes = text.str();
    const fs::path tomlPath = fs::path(stem).concat(".toml");
    if (auto error =
            writeFileAtomically(tomlPath, std::vector<std::uint8_t>(bytes.begin(), bytes.end())))
        return error;
    done(tomlPath);
    return std::nullopt;
}

} // namespace snowcap
