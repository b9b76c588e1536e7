#include "snow/weather_reference.hpp"

#include "core/ground.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace snowcap {

namespace {

double quantaKg(std::uint64_t quanta, double texelCm) {
    const double areaM2 = (texelCm * 0.01) * (texelCm * 0.01);
    return static_cast<double>(quanta) * static_cast<double>(kWeatherQuantum) * areaM2;
}

} // namespace

double WeatherTotals::inKg(double texelCm) const {
    return quantaKg(inQuanta, texelCm);
}
double WeatherTotals::outKg(double texelCm) const {
    return quantaKg(outQuanta, texelCm);
}

WeatherReference::WeatherReference(const SnowpackConstants& constants, int size, glm::vec2 originCm)
    : constants_(constants), size_(size), originCm_(originCm),
      scratch_(static_cast<std::size_t>(size) * size), flux_(static_cast<std::size_t>(size) * size),
      driftRecord_(static_cast<std::size_t>(size) * size, 0) {}

void WeatherReference::tick(SnowpackGrid& grid, std::span<const std::uint8_t> inside,
                            const WeatherTick& tick) {
    snowfallAndMelt(grid, inside, tick);
    if (tick.windMS > 0.0f)
        driftFlux(inside, tick);
    driftApply(grid, tick);
}

void WeatherReference::snowfallAndMelt(const SnowpackGrid& grid,
                                       std::span<const std::uint8_t> inside,
                                       const WeatherTick& tick) {
    const int n = size_;
    // The surface's normal, of its tops over the ground's prints (surfaceTopCm), standing on
    // the terrain's heights where there is one (snowTopCm).
    const auto topOf = [&](std::size_t t) {
        return ground_.empty() ? surfaceTopCm(grid.columns[t])
                               : snowTopCm(ground_[t], grid.columns[t]);
    };
    const auto topAt = [&](int x, int y, float self) {
        return x < 0 || y < 0 || x >= n || y >= n ? self
                                                  : topOf(static_cast<std::size_t>(y) * n + x);
    };
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const std::size_t t = static_cast<std::size_t>(y) * n + x;
            glm::vec3 normal{0.0f, 0.0f, 1.0f};
            if (tick.sunMeltPerCos > 0.0f) {
                const float self = topOf(t);
                normal =
                    surfaceNormal(topAt(x - 1, y, self), topAt(x + 1, y, self),
                                  topAt(x, y - 1, self), topAt(x, y + 1, self), constants_.texelCm);
            }
            const WeatheredColumn c = weatherColumn(grid.columns[t], tick, !inside[t], normal);
            totals_.inQuanta += c.inQuanta;
            totals_.outQuanta += c.outQuanta;
            scratch_[t] = c.column;
        }
}

void WeatherReference::driftFlux(std::span<const std::uint8_t> inside, const WeatherTick& tick) {
    const int n = size_;
    const int eta = kDriftCurvatureTexels;
    // The wind's terrain is the surface's: its tops over the ground's prints (surfaceTopCm),
    // and over [terrain] the ground's own slope and curvature on top (windTerrain_).
    const auto topAt = [&](int x, int y) {
        return surfaceTopCm(scratch_[static_cast<std::size_t>(std::clamp(y, 0, n - 1)) * n +
                                     std::clamp(x, 0, n - 1)]);
    };
    const float texel = constants_.texelCm;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const std::size_t t = static_cast<std::size_t>(y) * n + x;
            const float z = surfaceTopCm(scratch_[t]);
            const float slopeX = (topAt(x + 1, y) - topAt(x - 1, y)) / (2.0f * texel);
            const float slopeY = (topAt(x, y + 1) - topAt(x, y - 1)) / (2.0f * texel);
            float slopeAlong = slopeX * tick.windDirection.x + slopeY * tick.windDirection.y;
            const std::array<float, 8> around{topAt(x - eta, y),       topAt(x + eta, y),
                                              topAt(x, y - eta),       topAt(x, y + eta),
                                              topAt(x - eta, y - eta), topAt(x + eta, y + eta),
                                              topAt(x - eta, y + eta), topAt(x + eta, y - eta)};
            float curvature = microMetCurvature(z, around, float(eta) * texel);
            if (!windTerrain_.empty()) { // over [terrain]: the ground's slope and curvature too
                slopeAlong = slopeAlongWind(slopeAlong, windTerrain_[t], tick.windDirection);
                curvature = curvature + windTerrain_[t].curvature;
            }
            const glm::vec2 world{originCm_.x + (float(x) + 0.5f) * texel,
                                  originCm_.y + (float(y) + 0.5f) * texel};
            flux_[t] = driftOut(scratch_[t], inside[t] != 0, gustedWind(world, tick), slopeAlong,
                                curvature, tick, texel);
        }
}

void WeatherReference::driftApply(SnowpackGrid& grid, const WeatherTick& tick) {
    const int n = size_;
    if (!(tick.windMS > 0.0f)) {
        grid.columns = scratch_;
        return;
    }
    const int sx = tick.windDirection.x >= 0.0f ? 1 : -1;
    const int sy = tick.windDirection.y >= 0.0f ? 1 : -1;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const std::size_t t = static_cast<std::size_t>(y) * n + x;
            const DriftOut own = flux_[t];
            // From the upwind neighbours; at the upwind border, what the world beyond sends is
            // taken to be what this texel sends (a flat field stays flat), counted in.
            const int ux = x - sx, uy = y - sy;
            std::uint32_t in = 0;
            if (ux >= 0 && ux < n) {
                in += flux_[static_cast<std::size_t>(y) * n + ux].x;
            } else {
                in += own.x;
                totals_.inQuanta += own.x;
                totals_.driftInQuanta += own.x;
            }
            if (uy >= 0 && uy < n) {
                in += flux_[static_cast<std::size_t>(uy) * n + x].y;
            } else {
                in += own.y;
                totals_.inQuanta += own.y;
                totals_.driftInQuanta += own.y;
            }
            // What leaves through the downwind border is gone, counted out.
            const int dx = x + sx, dy = y + sy;
            if (dx < 0 || dx >= n) {
                totals_.outQuanta += own.x;
                totals_.driftOutQuanta += own.x;
            }
            if (dy < 0 || dy >= n) {
                totals_.outQuanta += own.y;
                totals_.driftOutQuanta += own.y;
            }
            grid.columns[t] = driftColumn(scratch_[t], own.x + own.y, in, constants_);
            driftRecord_[t] +=
                static_cast<std::int32_t>(in) - static_cast<std::int32_t>(own.x + own.y);
        }
}

WeatheredSnowpack::WeatheredSnowpack(int size, const SnowpackSettings& snowpack,
                                     const WeatherSettings& weather, const WindSettings& wind,
                                     glm::vec3 sunDirection, double captureZCm, double captureFarCm,
                                     double texelCm, glm::vec2 originCm, float groundPrintMaxCm)
    : snowpack_(size, snowpack, captureZCm, captureFarCm, texelCm, groundPrintMaxCm),
      weather_(snowpack_.constants(), size, originCm),
      clock_(weather, snowpack, wind, sunDirection), texelCm_(texelCm), massStartKg_(massKg()) {
    snowpack_.setWeather(weather); // settling on the sky's clock, at its air temperature
}

void WeatheredSnowpack::step(std::span<const float> windowDepth, double dtS) {
    // Frozen mud: the sky at the instant the step ends, as SnowpackSim::step takes it.
    snowpack_.setGroundFrozen(groundFrozenAt(clock_.weather(), clock_.timeS() + dtS));
    snowpack_.step(windowDepth, dtS);
    for (const WeatherTick& tick : clock_.advance(dtS))
        weather_.tick(snowpack_.grid(), snowpack_.inside(), tick);
}

void WeatheredSnowpack::setGround(std::vector<float> groundCm) {
    weather_.setGround(groundCm);
    snowpack_.setGround(std::move(groundCm));
    massStartKg_ = massKg();
}

double WeatheredSnowpack::massKg() const {
    return snowpackBudget(snowpack_.grid().columns, texelCm_, snowpack_.constants().initialDensity)
        .massKg;
}

} // namespace snowcap
