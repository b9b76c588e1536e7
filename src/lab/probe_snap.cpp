#include "lab/probe_snap.hpp"

#include "core/snow_math.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace snowcap {

namespace {

// The floor under the initial depth a snowpack column must be pressed to count as a print:
// half a centimetre, well above what settling takes from untouched snow over a run.
constexpr float kSnowpackPrintCm = 0.5f;
// A decay sim's print: a mask of this or more (a twentieth of a full print).
constexpr float kMaskPrintFloor = 0.05f;

bool isPrint(float value, PrintTest test) {
    if (!std::isfinite(value))
        return false;
    return test.lowerIsPrint ? value <= test.floor : value >= test.floor;
}

} // namespace

std::optional<glm::ivec2> nearestPrintTexel(const ValueWindow& window, glm::ivec2 centre,
                                            int radiusTexels, PrintTest test) {
    std::optional<glm::ivec2> best;
    long bestDistance = long(radiusTexels) * radiusTexels + 1;
    for (int y = 0; y < window.size; ++y)
        for (int x = 0; x < window.size; ++x) {
            const glm::ivec2 texel = window.origin + glm::ivec2(x, y);
            const long dx = texel.x - centre.x, dy = texel.y - centre.y;
            const long distance = dx * dx + dy * dy;
            if (distance >= bestDistance)
                continue;
            if (!isPrint(window.values[std::size_t(y) * window.size + x], test))
                continue;
            best = texel;
            bestDistance = distance;
        }
    return best;
}

std::optional<ProbeSnap> snapToPrint(const SnowSim& sim, glm::dvec2 clickCm, double radiusCm) {
    const Region& region = sim.region();
    const glm::ivec2 centre = worldToTexel(clickCm, region);
    const int n = region.resolution;
    if (centre.x < 0 || centre.y < 0 || centre.x >= n || centre.y >= n)
        return std::nullopt;
    const double texelCm = region.widthCm / n;
    const int radius = std::clamp(int(std::ceil(radiusCm / texelCm)), 0, 256);
    // The window: the disc's bounding square, cut to the buffer.
    const glm::ivec2 low = glm::max(centre - radius, glm::ivec2(0));
    const glm::ivec2 high = glm::min(centre + radius, glm::ivec2(n - 1));
    const int size = std::max(high.x - low.x, high.y - low.y) + 1;
    const glm::ivec2 origin = glm::min(low, glm::ivec2(n - size));
    std::vector<float> values(std::size_t(size) * size);
    glGetTextureSubImage(sim.persistent().id(), 0, origin.x, origin.y, 0, size, size, 1, GL_RED,
                         GL_FLOAT, GLsizei(values.size() * sizeof(float)), values.data());
    const bool snowpack = sim.settings().model == SimModel::Snowpack;
    const PrintTest test =
        snowpack ? PrintTest{float(sim.settings().snowpack.depthCm) - kSnowpackPrintCm, true}
                 : PrintTest{kMaskPrintFloor, false};
    const auto texel = nearestPrintTexel({values, size, origin}, centre, radius, test);
    if (!texel)
        return std::nullopt;
    ProbeSnap snap;
    snap.worldCm = texelCentreToWorld(*texel, region);
    snap.movedCm = glm::length(snap.worldCm - clickCm);
    const glm::ivec2 local = *texel - origin;
    snap.value = values[std::size_t(local.y) * size + local.x];
    return snap;
}

} // namespace snowcap
