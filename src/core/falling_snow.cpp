#include "core/falling_snow.hpp"

#include "core/phase_wrap.hpp"
#include "core/weather_laws.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace snowcap {

namespace {

constexpr double kTwoPi = 6.283185307179586;
constexpr double kWaterDensityKgM3 = 1000.0;

float unitOf(std::uint32_t h) {
    return static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
}

float fractOf(float x) {
    return x - std::floor(x);
}

} // namespace

std::uint32_t flakeHash(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

double snowfallWaterMmH(double snowfallCmH, double densityKgM3) {
    return snowfallCmH * 10.0 * densityKgM3 / kWaterDensityKgM3;
}

int fallingFlakeCount(const LookSettings& look, double snowfallCmH, double densityKgM3,
                      double volumeM3) {
    if (!look.fallingSnow || snowfallCmH <= 0.0 || densityKgM3 <= 0.0 || volumeM3 <= 0.0)
        return 0;
    const double flakes =
        look.fallingSnowFlakes * snowfallWaterMmH(snowfallCmH, densityKgM3) * volumeM3;
    return static_cast<int>(std::min(std::round(flakes), double(look.fallingSnowMaxFlakes)));
}

namespace {

// The wind and the clock of the air at `timeS` (the boxes aside).
FallingSnowAir airAt(const Sky& sky, const WindSettings& wind, double timeS) {
    FallingSnowAir air;
    air.timeS = timeS;
    const double toward = glm::radians(sky.windTowardDeg);
    air.windDirection = glm::vec2(float(std::cos(toward)), float(std::sin(toward)));
    air.windCmS = static_cast<float>(sky.windMS * 100.0);
    air.gustAmount = static_cast<float>(wind.gustAmount);
    air.gustOmega = static_cast<float>(kTwoPi * wind.gustHz);
    air.gustTimeS = wrappedTimeS(timeS, kTwoPi / double(air.gustOmega));
    air.gustWaveNumber =
        wind.gustWavelengthCm > 0.0 ? static_cast<float>(kTwoPi / wind.gustWavelengthCm) : 0.0f;
    return air;
}

} // namespace

FallingSnowAir fallingSnowAir(const WeatherSettings& weather, const WindSettings& wind,
                              const LookSettings& look, const Region& region, double surfaceZCm,
                              double timeS) {
    const Sky sky = skyAt(weather, timeS);
    FallingSnowAir air = airAt(sky, wind, timeS);
    const double width = region.widthCm, height = region.widthCm * 0.5;
    FlakeBox& box = air.boxes[0];
    box.minCm = glm::vec3(glm::dvec2(region.centreCm) - width * 0.5, surfaceZCm);
    box.sizeCm = glm::vec3(float(width), float(width), float(height));
    box.originCm = box.minCm; // the lattice anchored at the box: the region's flakes stay put
    air.levels = 1;
    air.flakes = fallingFlakeCount(look, sky.snowfallCmH, sky.snowfallDensityKgM3,
                                   width * width * height * 1e-6);
    return air;
}

FallingSnowAir fallingSnowAirAround(const WeatherSettings& weather, const WindSettings& wind,
                                    const LookSettings& look, const FlakeEye& eye,
                                    double surfaceZCm, double timeS) {
    const Sky sky = skyAt(weather, timeS);
    FallingSnowAir air = airAt(sky, wind, timeS);
    air.levels = kFlakeLevels;
    const double nearVolumeM3 = std::pow(double(kFlakeNearBoxCm) * 1e-2, 3.0);
    // Tens of flakes: four of each ten in the nearest box, which holds the snowfall's density.
    LookSettings tens = look;
    tens.fallingSnowFlakes = look.fallingSnowFlakes * 0.25;
    tens.fallingSnowMaxFlakes = look.fallingSnowMaxFlakes / kFlakeSlots;
    air.flakes = kFlakeSlots *
                 fallingFlakeCount(tens, sky.snowfallCmH, sky.snowfallDensityKgM3, nearVolumeM3);
    float side = kFlakeNearBoxCm;
    for (FlakeBox& box : air.boxes) {
        box.sizeCm = glm::vec3(side);
        box.minCm = eye.eyeCm + eye.forward * (side * 0.5f) - glm::vec3(side * 0.5f);
        box.minCm.z = std::max(box.minCm.z, float(surfaceZCm));
        box.originCm = glm::vec3(0.0f, 0.0f, float(surfaceZCm)); // fixed in the world
        side *= 2.0f;
    }
    return air;
}

// The same operations, in the same order, as flakePosition in shaders/render/falling_snow.vert.
glm::vec3 flakePosition(const FallingSnowAir& air, int index) {
    const FlakeBox& box = air.boxes[std::size_t(flakeBoxOf(index, air.levels))];
    const std::uint32_t base = static_cast<std::uint32_t>(index) * 4u ^ kFlakeSeed;
    const glm::vec3 start(unitOf(flakeHash(base)), unitOf(flakeHash(base + 1u)),
                          unitOf(flakeHash(base + 2u)));
    const float speed =
        kFlakeFallMinCmS + (kFlakeFallMaxCmS - kFlakeFallMinCmS) * unitOf(flakeHash(base + 3u));
    const float t = static_cast<float>(air.timeS);
    // The wind's gusts (1 + a sin(w t - k x.d)) integrated over the flake's time in the air,
    // with the phase of where it started in its lattice: the drift is a function of t alone.
    const glm::vec2 startXy = glm::vec2(box.originCm) + glm::vec2(start) * glm::vec2(box.sizeCm);
    const float phase = air.gustWaveNumber * glm::dot(startXy, air.windDirection);
    float carried = t;
    if (air.gustOmega > 0.0f)
        carried += air.gustAmount *
                   (std::cos(phase) - std::cos(air.gustOmega * float(air.gustTimeS) - phase)) /
                   air.gustOmega;
    const glm::vec2 drift = air.windDirection * (air.windCmS * carried);
    // The lattice's copy that lies in the box: origin + start * size + motion, wrapped.
    const glm::vec3 shift = box.originCm - box.minCm;
    const float x = fractOf(start.x + (drift.x + shift.x) / box.sizeCm.x);
    const float y = fractOf(start.y + (drift.y + shift.y) / box.sizeCm.y);
    const float z = fractOf(start.z + (shift.z - speed * t) / box.sizeCm.z);
    return box.minCm + glm::vec3(x, y, z) * box.sizeCm;
}

} // namespace snowcap
