#include "snow/snowpack_terrain.hpp"

#include "terrain/height_field.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace snowcap {

std::vector<float> snowpackGroundCm(const HeightField& terrain, const Region& region) {
    const int n = region.resolution;
    std::vector<float> heights(static_cast<std::size_t>(n) * n);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const glm::dvec2 at = texelCentreToWorld({x, y}, region);
            heights[static_cast<std::size_t>(y) * n + x] =
                static_cast<float>(terrain.heightCm(at.x, at.y));
        }
    return heights;
}

std::vector<WindTerrain> windTerrainTerms(const HeightField& terrain, const Region& region,
                                          double curvatureLengthCm) {
    const int n = region.resolution;
    const double half = 0.5 * region.texelCm();
    const double eta = std::max(curvatureLengthCm, half);
    std::vector<glm::dvec2> slope(static_cast<std::size_t>(n) * n);
    std::vector<double> curvature(slope.size());
    double steepest = 0.0, curviest = 0.0;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const glm::dvec2 at = texelCentreToWorld({x, y}, region);
            const auto h = [&](double dx, double dy) {
                return terrain.heightCm(at.x + dx, at.y + dy);
            };
            const glm::dvec2 g{(h(half, 0.0) - h(-half, 0.0)) / (2.0 * half),
                               (h(0.0, half) - h(0.0, -half)) / (2.0 * half)};
            const double rise = glm::length(g);
            // MicroMet's slope is the angle beta along the steepest rise: (gx, gy) beta / |g|.
            const std::size_t t = static_cast<std::size_t>(y) * n + x;
            slope[t] = rise > 0.0 ? g * (std::atan(rise) / rise) : glm::dvec2(0.0);
            steepest = std::max(steepest, std::atan(rise));
            // MicroMet's curvature over eta: west-east, south-north and the two diagonals (their
            // points eta along each axis, sqrt 2 eta away), as microMetCurvature takes them.
            const double z = h(0.0, 0.0), d = eta;
            const double straight = 2.0 * eta, diagonal = 2.0 * std::sqrt(2.0) * eta;
            curvature[t] = 0.25 * ((z - 0.5 * (h(-eta, 0.0) + h(eta, 0.0))) / straight +
                                   (z - 0.5 * (h(0.0, -eta) + h(0.0, eta))) / straight +
                                   (z - 0.5 * (h(-d, -d) + h(d, d))) / diagonal +
                                   (z - 0.5 * (h(-d, d) + h(d, -d))) / diagonal);
            curviest = std::max(curviest, std::abs(curvature[t]));
        }
    // Omega_s = beta cos(aspect - wind) / (2 beta_max) reaches 0.5 where terrainWindFactor's
    // slope does at 1: the vector is beta / beta_max. Omega_c = curvature / (2 |curvature|_max)
    // reaches 0.5 where terrainWindFactor's curvature does at 0.25: curvature / (4 its max).
    std::vector<WindTerrain> terms(slope.size());
    for (std::size_t t = 0; t < terms.size(); ++t) {
        if (steepest > 0.0) {
            terms[t].slopeX = static_cast<float>(slope[t].x / steepest);
            terms[t].slopeY = static_cast<float>(slope[t].y / steepest);
        }
        if (curviest > 0.0)
            terms[t].curvature = static_cast<float>(curvature[t] / (4.0 * curviest));
    }
    return terms;
}

float groundSlopeTan(std::span<const float> groundCm, int size, float texelCm, int x, int y) {
    auto at = [&](int tx, int ty) {
        tx = std::clamp(tx, 0, size - 1);
        ty = std::clamp(ty, 0, size - 1);
        return groundCm[static_cast<std::size_t>(ty) * size + tx];
    };
    // Central differences, one-sided where a neighbour is beyond the border.
    auto slope = [&](bool alongX) {
        const int at0 = alongX ? x : y;
        const int lo = std::max(at0 - 1, 0), hi = std::min(at0 + 1, size - 1);
        if (hi == lo)
            return 0.0f;
        const float rise = alongX ? at(hi, y) - at(lo, y) : at(x, hi) - at(x, lo);
        return rise / (static_cast<float>(hi - lo) * texelCm);
    };
    const float gx = slope(true), gy = slope(false);
    float steepest = std::sqrt(gx * gx + gy * gy);
    const float here = at(x, y);
    constexpr int kOffsets[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (const auto& o : kOffsets) {
        const int nx = x + o[0], ny = y + o[1];
        if (nx < 0 || ny < 0 || nx >= size || ny >= size)
            continue;
        steepest = std::max(steepest, std::abs(at(nx, ny) - here) / texelCm);
    }
    return steepest;
}

std::vector<SnowColumn> initialCover(std::span<const float> groundCm, int size,
                                     const SnowpackConstants& c, bool followsSlope) {
    const SnowColumn flat = initialColumn(c);
    std::vector<SnowColumn> columns(static_cast<std::size_t>(size) * size, flat);
    if (groundCm.empty() || !followsSlope)
        return columns;
    const float holds = reposeTan(c.initialDensity, c);
    std::vector<float> depth(columns.size());
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const float slope = groundSlopeTan(groundCm, size, c.texelCm, x, y);
            depth[static_cast<std::size_t>(y) * size + x] =
                coverDepthCm(c.initialDepthCm, slope, holds);
        }
    // At rest: no top more than the repose step above a neighbour's (else slump would move it
    // at once: 30 cm of snow beside a bare cliff is a 30 cm step). Sweeps lower the tops that
    // stand too high until none does; a hair under the step, so the float sums slump makes
    // cannot find an excess. Only ever lowering, it converges.
    const float step = holds * c.texelCm * 0.999f;
    constexpr int kOffsets[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (bool lowered = true; lowered;) {
        lowered = false;
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x) {
                const std::size_t t = static_cast<std::size_t>(y) * size + x;
                for (const auto& o : kOffsets) {
                    const int nx = x + o[0], ny = y + o[1];
                    if (nx < 0 || ny < 0 || nx >= size || ny >= size)
                        continue;
                    const std::size_t n = static_cast<std::size_t>(ny) * size + nx;
                    const float highest = groundCm[n] + depth[n] + step - groundCm[t];
                    if (depth[t] > 0.0f && depth[t] > highest) {
                        depth[t] = std::max(highest, 0.0f);
                        lowered = true;
                    }
                }
            }
    }
    for (std::size_t t = 0; t < columns.size(); ++t)
        if (depth[t] != c.initialDepthCm) // else the flat column, bit for bit
            columns[t] = {depth[t], columnMass(depth[t], c.initialDensity), 0.0f, 0.0f};
    return columns;
}

} // namespace snowcap
