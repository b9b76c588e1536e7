#include "terrain/terrain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace snowcap {

namespace {

const std::string kKey = "key 'terrain.file': ";

std::uint64_t budgetBytes(const TerrainSettings& terrain) {
    return static_cast<std::uint64_t>(terrain.maxMiB * 1024.0 * 1024.0);
}

glm::dvec2 pair(const std::array<double, 2>& values) {
    return {values[0], values[1]};
}

// A 32-bit hash of a lattice point (a few rounds of multiply-xorshift): the same seed and point,
// the same value on every machine.
std::uint32_t latticeHash(std::uint32_t seed, std::int32_t x, std::int32_t y,
                          std::uint32_t octave) {
    std::uint32_t h = seed * 0x9E3779B1u ^ std::uint32_t(x) * 0x85EBCA77u ^
                      std::uint32_t(y) * 0xC2B2AE3Du ^ octave * 0x27D4EB2Fu;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

// Value noise in [0, 1] at (x, y) in lattice units, smoothstep between lattice points.
double valueNoise(std::uint32_t seed, std::uint32_t octave, double x, double y) {
    const double fx = std::floor(x), fy = std::floor(y);
    const auto ix = std::int32_t(fx), iy = std::int32_t(fy);
    const double tx = x - fx, ty = y - fy;
    const double sx = tx * tx * (3.0 - 2.0 * tx), sy = ty * ty * (3.0 - 2.0 * ty);
    const auto at = [&](std::int32_t dx, std::int32_t dy) {
        return double(latticeHash(seed, ix + dx, iy + dy, octave)) / 4294967295.0;
    };
    const double south = at(0, 0) + (at(1, 0) - at(0, 0)) * sx;
    const double north = at(0, 1) + (at(1, 1) - at(0, 1)) * sx;
    return south + (north - south) * sy;
}

} // namespace

HeightField heightmapField(const HeightmapSamples& samples, const TerrainSettings& terrain) {
    const double low = terrain.heightRangeM[0], high = terrain.heightRangeM[1];
    std::vector<float> heights(samples.values.size());
    const bool flip = terrain.firstRow == TerrainFirstRow::South;
    for (int row = 0; row < samples.rows; ++row) {
        const int from = flip ? samples.rows - 1 - row : row;
        for (int column = 0; column < samples.columns; ++column) {
            const std::uint16_t value =
                samples.values[std::size_t(from) * samples.columns + column];
            heights[std::size_t(row) * samples.columns + column] =
                float(low + (high - low) * (double(value) / 65535.0));
        }
    }
    return HeightField(samples.columns, samples.rows, std::move(heights), pair(terrain.centreCm),
                       pair(terrain.sizeM) * 100.0);
}

HeightField noiseTerrain(const TerrainSettings& terrain) {
    // Eight samples across the finest of five octaves' features: cell = feature / 128, at most
    // 1024 a side (the hills stay smooth under bilinear sampling at that).
    constexpr int kOctaves = 5;
    const glm::dvec2 sizeM = pair(terrain.sizeM);
    const double cellM = std::max(terrain.featureM / 128.0, std::max(sizeM.x, sizeM.y) / 1024.0);
    const int columns = std::clamp(int(std::ceil(sizeM.x / cellM)), 2, 1024);
    const int rows = std::clamp(int(std::ceil(sizeM.y / cellM)), 2, 1024);
    std::vector<double> raw(std::size_t(columns) * rows);
    const auto seed = static_cast<std::uint32_t>(terrain.seed);
    for (int row = 0; row < rows; ++row)
        for (int column = 0; column < columns; ++column) {
            // Metres from the field's west and south edges (row 0 is north).
            const double x = (column + 0.5) * sizeM.x / columns;
            const double y = (rows - row - 0.5) * sizeM.y / rows;
            double sum = 0.0, amplitude = 1.0, frequency = 1.0 / terrain.featureM;
            for (int octave = 0; octave < kOctaves; ++octave) {
                sum += amplitude * valueNoise(seed, octave, x * frequency, y * frequency);
                amplitude *= 0.5;
                frequency *= 2.0;
            }
            raw[std::size_t(row) * columns + column] = sum;
        }
    const auto [low, high] = std::minmax_element(raw.begin(), raw.end());
    const double span = std::max(*high - *low, 1e-12);
    std::vector<float> heights(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i)
        heights[i] = float((raw[i] - *low) / span * terrain.reliefM);
    return HeightField(columns, rows, std::move(heights), pair(terrain.centreCm), sizeM * 100.0);
}

std::variant<HeightField, std::string> meshBaseField(const TerrainSettings& terrain) {
    if (terrain.file.empty())
        return kKey + "kind = \"mesh\" needs a file here";
    const glm::dvec2 sizeCm = pair(terrain.sizeM) * 100.0;
    const double columns = std::ceil(sizeCm.x / terrain.meshCellCm);
    const double rows = std::ceil(sizeCm.y / terrain.meshCellCm);
    if (columns > kMaxTerrainSide || rows > kMaxTerrainSide)
        return "key 'terrain.mesh_cell_cm': " + std::to_string(std::int64_t(columns)) + " x " +
               std::to_string(std::int64_t(rows)) + " samples over terrain.size_m, at most " +
               std::to_string(kMaxTerrainSide) + " a side";
    if (columns * rows * 4.0 > double(budgetBytes(terrain)))
        return "key 'terrain.mesh_cell_cm': " + std::to_string(std::int64_t(columns)) + " x " +
               std::to_string(std::int64_t(rows)) + " samples over terrain.size_m take more " +
               "than terrain.max_mib";
    const int c = std::max(int(columns), 1), r = std::max(int(rows), 1);
    return HeightField(c, r, std::vector<float>(std::size_t(c) * r, 0.0f), pair(terrain.centreCm),
                       sizeCm);
}

std::optional<std::filesystem::path> terrainMeshPath(const TerrainSettings& terrain,
                                                     const std::filesystem::path& root) {
    const std::string& named = terrain.kind == TerrainKind::Mesh ? terrain.file : terrain.meshFile;
    if (named.empty())
        return std::nullopt;
    const std::filesystem::path path(named);
    return path.is_absolute() ? path : root / path;
}

std::variant<HeightField, std::string> loadTerrain(const TerrainSettings& terrain,
                                                   const std::filesystem::path& root) {
    switch (terrain.kind) {
    case TerrainKind::Flat:
        return HeightField();
    case TerrainKind::Noise:
        return noiseTerrain(terrain);
    case TerrainKind::Mesh:
        return meshBaseField(terrain);
    case TerrainKind::Heightmap:
    case TerrainKind::Dem:
        break;
    }
    if (terrain.file.empty())
        return kKey + "kind = \"" +
               std::string(terrain.kind == TerrainKind::Dem ? "dem" : "heightmap") +
               "\" needs a file here";
    const std::filesystem::path named(terrain.file);
    const std::filesystem::path path = named.is_absolute() ? named : root / named;
    if (terrain.kind == TerrainKind::Dem) {
        auto dem = readDem(path, terrain);
        if (auto* error = std::get_if<std::string>(&dem))
            return kKey + *error;
        return std::move(std::get<HeightField>(dem));
    }
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    auto samples = extension == ".r16" || extension == ".raw"
                       ? readHeightmapR16(path, budgetBytes(terrain))
                       : readHeightmapPng(path, budgetBytes(terrain));
    if (auto* error = std::get_if<std::string>(&samples))
        return kKey + *error;
    return heightmapField(std::get<HeightmapSamples>(samples), terrain);
}

} // namespace snowcap
