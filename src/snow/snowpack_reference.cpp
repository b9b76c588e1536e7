#include "snow/snowpack_reference.hpp"

#include "core/ground.hpp"
#include "core/weather_laws.hpp"
#include "snow/snowpack_terrain.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace snowcap {

SnowpackGrid SnowpackGrid::uniform(int size, const SnowpackConstants& c) {
    SnowpackGrid grid;
    grid.size = size;
    grid.columns.assign(static_cast<std::size_t>(size) * size, initialColumn(c));
    return grid;
}

int nearestOutside(std::span<const std::uint8_t> inside, int size, int x, int y, int reach) {
    int best = -1;
    int bestD2 = std::numeric_limits<int>::max();
    for (int r = 1; r <= reach; ++r) {
        for (int dy = -r; dy <= r; ++dy) {
            const bool edgeRow = dy == -r || dy == r;
            for (int dx = -r; dx <= r; dx += edgeRow ? 1 : 2 * r) {
                const int tx = x + dx, ty = y + dy;
                if (tx < 0 || ty < 0 || tx >= size || ty >= size)
                    continue;
                const int t = ty * size + tx;
                const int d2 = dx * dx + dy * dy;
                if (inside[t] == 0 && d2 < bestD2) {
                    bestD2 = d2;
                    best = t;
                }
            }
        }
        // Every texel of the next ring is at least r + 1 away.
        if (best >= 0 && bestD2 <= (r + 1) * (r + 1))
            break;
    }
    return best;
}

namespace {
SnowpackConstants withGroundPrints(SnowpackConstants c, float groundPrintMaxCm) {
    c.groundPrintMaxCm = std::max(groundPrintMaxCm, 0.0f);
    return c;
}
} // namespace

SnowpackReference::SnowpackReference(int size, const SnowpackSettings& settings, double captureZCm,
                                     double captureFarCm, double texelCm, float groundPrintMaxCm)
    : settings_(settings),
      constants_(withGroundPrints(snowpackConstants(settings, captureZCm, captureFarCm, texelCm),
                                  groundPrintMaxCm)),
      clock_(settings), grid_(SnowpackGrid::uniform(size, constants_)),
      undisturbed_(initialColumn(constants_)), inside_(static_cast<std::size_t>(size) * size, 0),
      quanta_(static_cast<std::size_t>(size) * size, 0),
      received_(static_cast<std::size_t>(size) * size, 0) {}

SnowpackStepReport SnowpackReference::step(std::span<const float> windowDepth, double dtS) {
    const SnowpackStep step = clock_.advance(dtS);
    settleAndCompact(windowDepth, step.settleTicks);
    SnowpackStepReport report;
    for (std::size_t t = 0; t < quanta_.size(); ++t) {
        report.ploughedQuanta += quanta_[t];
        report.insideTexels += inside_[t];
    }
    plough();
    for (int i = 0; i < step.slumpIterations; ++i)
        slump();
    return report;
}

void SnowpackReference::settleAndCompact(std::span<const float> windowDepth, int settleTicks) {
    const SettleClimate climate = settleClimate(settings_, weather_, clock_.timeS(), settleTicks);
    const float settleDtS = climate.dtS;
    const float temperature = climate.temperatureC;
    if (settleTicks > 0)
        undisturbed_ = settleColumn(undisturbed_, settleDtS, temperature, constants_);
    const bool frozen = groundFrozen_ && constants_.groundPrintMaxCm > 0.0f;
    for (std::size_t t = 0; t < grid_.columns.size(); ++t) {
        SnowColumn column = grid_.columns[t];
        if (settleTicks > 0)
            column = settleColumn(column, settleDtS, temperature, constants_);
        float contact = contactHeightCm(windowDepth[t], constants_);
        if (frozen) // the ground is a floor at the print's bottom (core/ground.hpp)
            contact = frozenGroundContactCm(contact, column.groundPrintCm);
        const Compaction compacted = compactColumn(column, contact, constants_);
        grid_.columns[t] = compacted.column;
        quanta_[t] = compacted.ploughQuanta;
        inside_[t] = compacted.inside ? 1 : 0;
    }
}

double shiftGrid(SnowpackGrid& grid, glm::ivec2 offset, const SnowColumn& entering) {
    const int n = grid.size;
    std::vector<SnowColumn> moved(grid.columns.size(), entering);
    std::vector<std::uint8_t> kept(grid.columns.size(), 0);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const int ox = x + offset.x, oy = y + offset.y;
            if (ox < 0 || oy < 0 || ox >= n || oy >= n)
                continue;
            const std::size_t from = static_cast<std::size_t>(oy) * n + ox;
            moved[static_cast<std::size_t>(y) * n + x] = grid.columns[from];
            kept[from] = 1;
        }
    double left = 0.0;
    for (std::size_t t = 0; t < grid.columns.size(); ++t)
        if (!kept[t])
            left += double(grid.columns[t].massKgM2) + double(grid.columns[t].waterKgM2);
    grid.columns = std::move(moved);
    return left;
}

double SnowpackReference::shift(glm::ivec2 offset) {
    const double left = shiftGrid(grid_, offset, undisturbed_);
    std::fill(inside_.begin(), inside_.end(), 0);
    return left;
}

void SnowpackReference::setGround(std::vector<float> groundCm) {
    ground_ = std::move(groundCm);
    grid_.columns = initialCover(ground_, grid_.size, constants_, settings_.coverFollowsSlope);
}

void SnowpackReference::plough() {
    const int size = grid_.size;
    std::fill(received_.begin(), received_.end(), 0u);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const int t = y * size + x;
            if (quanta_[t] == 0)
                continue;
            const int to = nearestOutside(inside_, size, x, y, constants_.ploughReachTexels);
            received_[to >= 0 ? to : t] += quanta_[t]; // nowhere to go: it stays
        }
    for (std::size_t t = 0; t < received_.size(); ++t)
        if (received_[t] != 0)
            grid_.columns[t] = depositOnto(
                grid_.columns[t], static_cast<float>(received_[t]) * kPloughQuantum, constants_);
}

void SnowpackReference::slump() {
    const int size = grid_.size;
    std::vector<SnowColumn> next = grid_.columns;
    // The step each column holds (the shader computes it per neighbour: the same floats).
    std::vector<float> holds(grid_.columns.size());
    for (std::size_t t = 0; t < holds.size(); ++t)
        holds[t] = reposeStepCm(densityOf(grid_.columns[t]), constants_);
    // Over terrain the tops stand on the ground (snowTopCm); flat, on 0 (surfaceTopCm).
    auto top = [&](int t, const SnowColumn& c) {
        return ground_.empty() ? surfaceTopCm(c) : snowTopCm(ground_[t], c);
    };
    // Over terrain a bare column (thinner than kBareDepthCm: no density of its own) gives
    // nothing. Without it the last of a face's snow drains geometrically in ever smaller flows,
    // and those below half a float step of the pile at the foot round away there: 5e-5 of the
    // mass over a 7 m face. Flat, the law as it was.
    auto giving = [&](const SnowColumn& c) {
        return ground_.empty() || c.depthCm >= kBareDepthCm ? c.depthCm : 0.0f;
    };
    constexpr int kOffsets[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const int t = y * size + x;
            if (inside_[t])
                continue; // under a contact nothing flows in or out
            const SnowColumn self = grid_.columns[t];
            const float selfDensity = densityOf(self);
            const float selfTop = top(t, self); // the surfaces' step, over prints too
            // The flows are summed apart and added once: one rounding at the column's own
            // magnitude instead of one per neighbour.
            float depthIn = 0.0f;
            float massIn = 0.0f;
            for (const auto& offset : kOffsets) {
                const int nx = x + offset[0], ny = y + offset[1];
                if (nx < 0 || ny < 0 || nx >= size || ny >= size)
                    continue;
                const int n = ny * size + nx;
                if (inside_[n])
                    continue;
                const SnowColumn other = grid_.columns[n];
                const float otherTop = top(n, other);
                if (otherTop > selfTop) {
                    const float flow = slumpFlowCm(otherTop, holds[n], selfTop, giving(other));
                    depthIn = depthIn + flow;
                    massIn = massIn + flow * 0.01f * densityOf(other);
                } else if (otherTop < selfTop) {
                    const float flow = slumpFlowCm(selfTop, holds[t], otherTop, giving(self));
                    depthIn = depthIn - flow;
                    massIn = massIn - flow * 0.01f * selfDensity;
                }
            }
            const float depth = self.depthCm + depthIn;
            const float mass = self.massKgM2 + massIn;
            // Flows in and out can cancel in depth and not in mass (their densities differ).
            if (depthIn != 0.0f || massIn != 0.0f)
                next[t] = withMass(self, depth, mass, constants_);
        }
    grid_.columns = std::move(next);
}

SnowpackBudget snowpackBudget(std::span<const SnowColumn> columns, double texelCm,
                              double initialDensityKgM3) {
    SnowpackBudget budget;
    if (columns.empty())
        return budget;
    const double areaM2 = (texelCm * 0.01) * (texelCm * 0.01);
    double mass = 0.0, depth = 0.0;
    long long compacted = 0;
    budget.minDepthCm = std::numeric_limits<double>::max();
    for (const SnowColumn& c : columns) {
        mass += c.massKgM2;
        mass += c.waterKgM2; // the water melt left in the column is held mass too
        depth += c.depthCm;
        budget.minDepthCm = std::min(budget.minDepthCm, static_cast<double>(c.depthCm));
        budget.maxDepthCm = std::max(budget.maxDepthCm, static_cast<double>(c.depthCm));
        if (c.depthCm >= kBareDepthCm) {
            const double density = densityOf(c);
            budget.maxDensityKgM3 = std::max(budget.maxDensityKgM3, density);
            if (density > initialDensityKgM3 * 1.01)
                ++compacted;
        }
    }
    budget.massKg = mass * areaM2;
    budget.meanDepthCm = depth / static_cast<double>(columns.size());
    budget.compactedFraction = static_cast<double>(compacted) / static_cast<double>(columns.size());
    return budget;
}

std::vector<SnowColumn> columnsFromRgba(std::span<const float> rgba) {
    std::vector<SnowColumn> columns(rgba.size() / 4);
    for (std::size_t i = 0; i < columns.size(); ++i)
        columns[i] = {rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3]};
    return columns;
}

} // namespace snowcap
