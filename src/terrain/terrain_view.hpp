#pragma once
// What the viewer shows of the ground and where a click lands on it (docs/terrain.md §1): the
// first point where a ray meets the undisturbed snow top over the terrain, and a top-down map
// of the terrain's height and slope for the Terrain section's view and its legend. CPU only,
// from the HeightField the surface drapes over.

#include "terrain/height_field.hpp"

#include <glm/vec3.hpp>
#include <optional>
#include <vector>

namespace snowcap {

// Where the segment from `fromCm` to `toCm` first passes from above to below the surface
// z = baseZCm + field.heightCm(x, y) (the undisturbed snow top when baseZCm is
// snow.surface_z_cm); none when it stays above it. On a flat field this is the plane z = baseZCm.
// The search steps half a cell along the part of the segment within the field's height span,
// then bisects the step that crossed (at most a million steps): a ridge narrower than half a
// cell can be stepped over.
std::optional<glm::dvec3> firstGroundHit(const HeightField& field, double baseZCm,
                                         glm::dvec3 fromCm, glm::dvec3 toCm);

// The slope at world (x, y) in degrees from level (0 when flat), from HeightField::normal.
double slopeDeg(const HeightField& field, double xCm, double yCm);

// The terrain seen from above on a grid of at most `maxSide` cells a side over its extent
// (fewer when it has fewer samples): each cell's height (cm, above the flat ground) and slope
// (degrees) at the cell's centre, rows south first (a GL texture's order), interleaved as
// height, slope, 0, 0 per cell (RGBA32F). Empty for a flat field.
struct TerrainMap {
    int columns = 0, rows = 0;
    glm::dvec2 cellCm{0.0}; // one map cell's side
    glm::dvec2 southWestCm{0.0};
    std::vector<float> texels; // columns x rows x 4
    float highestSlopeDeg = 0.0f;
    float heightCm(int column, int row) const {
        return texels[4 * (std::size_t(row) * columns + column)];
    }
    float slopeDeg(int column, int row) const {
        return texels[4 * (std::size_t(row) * columns + column) + 1];
    }
    // The world point at the centre of cell (column, row).
    glm::dvec2 centreCm(int column, int row) const {
        return southWestCm + (glm::dvec2(column, row) + 0.5) * cellCm;
    }
};
TerrainMap terrainMap(const HeightField& field, int maxSide);

} // namespace snowcap
