#include "terrain/terrain_view.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace snowcap {

std::optional<glm::dvec3> firstGroundHit(const HeightField& field, double baseZCm,
                                         glm::dvec3 fromCm, glm::dvec3 toCm) {
    const glm::dvec3 along = toCm - fromCm;
    const auto above = [&](double t) {
        const glm::dvec3 p = fromCm + along * t;
        return p.z - (baseZCm + field.heightCm(p.x, p.y));
    };
    // Only where the segment's z lies within the surface's span can it cross it.
    const HeightSpan span = field.spanCm();
    const double low = baseZCm + span.lowCm, high = baseZCm + span.highCm;
    double t0 = 0.0, t1 = 1.0;
    if (std::abs(along.z) > 1e-12) {
        const double ta = (high - fromCm.z) / along.z, tb = (low - fromCm.z) / along.z;
        t0 = std::max(t0, std::min(ta, tb));
        t1 = std::min(t1, std::max(ta, tb));
    } else if (fromCm.z > high || fromCm.z < low) {
        return std::nullopt;
    }
    if (t0 > t1 || above(0.0) <= 0.0) // misses the span, or starts under the snow
        return std::nullopt;
    // Half a cell a step, horizontally; a level field crosses at t1 (its span is one height).
    const glm::dvec2 cell = field.cellCm();
    const double stepCm = field.flat() ? 0.0 : 0.5 * std::min(cell.x, cell.y);
    const double runCm = glm::length(glm::dvec2(along)) * (t1 - t0);
    const int steps = stepCm > 0.0 ? int(std::min(std::ceil(runCm / stepCm), 1e6)) : 1;
    double previous = t0;
    for (int k = 1; k <= std::max(steps, 1); ++k) {
        const double t = t0 + (t1 - t0) * double(k) / std::max(steps, 1);
        if (above(t) > 0.0) {
            previous = t;
            continue;
        }
        double lo = previous, hi = t; // above at lo, on or under at hi
        for (int i = 0; i < 60 && hi - lo > 1e-12; ++i) {
            const double mid = 0.5 * (lo + hi);
            (above(mid) > 0.0 ? lo : hi) = mid;
        }
        const glm::dvec3 hit = fromCm + along * hi;
        return glm::dvec3(hit.x, hit.y, baseZCm + field.heightCm(hit.x, hit.y));
    }
    return std::nullopt;
}

double slopeDeg(const HeightField& field, double xCm, double yCm) {
    const double up = std::clamp(field.normal(xCm, yCm).z, -1.0, 1.0);
    return glm::degrees(std::acos(up));
}

TerrainMap terrainMap(const HeightField& field, int maxSide) {
    TerrainMap map;
    if (field.flat() || maxSide < 1)
        return map;
    map.columns = std::min(field.columns(), maxSide);
    map.rows = std::min(field.rows(), maxSide);
    map.cellCm = field.sizeCm() / glm::dvec2(map.columns, map.rows);
    map.southWestCm = field.centreCm() - field.sizeCm() * 0.5;
    map.texels.assign(std::size_t(map.columns) * map.rows * 4, 0.0f);
    for (int row = 0; row < map.rows; ++row)
        for (int column = 0; column < map.columns; ++column) {
            const glm::dvec2 at = map.centreCm(column, row);
            const std::size_t i = 4 * (std::size_t(row) * map.columns + column);
            const float slope = float(slopeDeg(field, at.x, at.y));
            map.texels[i] = float(field.heightCm(at.x, at.y));
            map.texels[i + 1] = slope;
            map.highestSlopeDeg = std::max(map.highestSlopeDeg, slope);
        }
    return map;
}

} // namespace snowcap
