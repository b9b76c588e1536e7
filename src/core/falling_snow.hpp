#pragma once
// Falling snow as the picture shows it (docs/weather.md §4.1): the air over a sim's region
// while [weather] snows, as a few numbers a vertex shader turns into flakes. Each flake's place
// is a pure function of the run's time, a seed and its index (shaders/render/falling_snow.vert),
// so the flakes hold no state, the same time draws the same flakes, and nothing of the sim
// reads them: the picture, not the sim.
//
// How many flakes the air holds follows the snowfall: "Measurements on new-fallen snow" finds
// the number of crystals reaching the ground proportional to the snowfall rate in mm of water
// an hour, so the flakes drawn are look.falling_snow_flakes per m3 of air per mm/h of water
// (each drawn flake stands for many crystals), at most look.falling_snow_max_flakes. They fall
// at 0.6 .. 1.4 m/s ("Field investigation of 3-D snow settling dynamics under weak atmospheric
// turbulence": snow settles at 0.5 to over 3 m/s, aggregates at the slow end) and drift with
// [weather]'s wind, gusted as [wind]'s gust front gusts it.

#include "core/settings.hpp"
#include "core/snow_math.hpp"

#include <cstdint>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace snowcap {

// Slowest and fastest fall speed of a flake (cm/s); each flake's own lies between, by its seed.
constexpr float kFlakeFallMinCmS = 60.0f;
constexpr float kFlakeFallMaxCmS = 140.0f;
// A flake's radius (cm): an aggregate a centimetre across (a lab choice), never drawn smaller
// than kFlakeMinRadiusPx; one drawn larger than it is covers less of each pixel (fainter), down
// to a third, so far flakes thin out rather than vanish.
constexpr float kFlakeRadiusCm = 0.5f;
constexpr float kFlakeMinRadiusPx = 1.5f;

// The air of one view at one instant: what the falling-snow pass draws.
struct FallingSnowAir {
    int flakes = 0;           // drawn; 0: none (no snowfall, or look.falling_snow off)
    glm::vec3 boxMinCm{0.0f}; // the box the flakes fall through (they wrap inside it)
    glm::vec3 boxSizeCm{1.0f};
    double timeS = 0.0; // the run's time: flakes fall in the run's seconds, not the sky's
    glm::vec2 windDirection{1.0f, 0.0f}; // unit, where it blows towards
    float windCmS = 0.0f;                // mean drift speed
    float gustAmount = 0.0f;             // [wind] gust_amount
    float gustOmega = 0.0f;              // 2 pi gust_hz (1/s)
    float gustWaveNumber = 0.0f;         // 2 pi / gust_wavelength_cm (1/cm)
};

// The snowfall's water equivalent, mm of water an hour: depth x density / water's.
double snowfallWaterMmH(double snowfallCmH, double densityKgM3);
// How many flakes a box of `volumeM3` holds at that snowfall: look.falling_snow_flakes per m3
// per mm/h, rounded, at most look.falling_snow_max_flakes; 0 when it does not snow or the look
// key is off.
int fallingFlakeCount(const LookSettings& look, double snowfallCmH, double densityKgM3,
                      double volumeM3);
// The air over `region` at `timeS` of the run, under the sky of that instant (skyAt): a box the
// region's footprint wide and half as high, standing on the snow's top.
FallingSnowAir fallingSnowAir(const WeatherSettings& weather, const WindSettings& wind,
                              const LookSettings& look, const Region& region, double surfaceZCm,
                              double timeS);
// Where flake `index` of `air` is (cm): the CPU twin of falling_snow.vert's flakePosition, for
// tests and for reading the picture.
glm::vec3 flakePosition(const FallingSnowAir& air, int index);
// The integer hash both use (a 32-bit avalanche: lowbias32).
std::uint32_t flakeHash(std::uint32_t x);
constexpr std::uint32_t kFlakeSeed = 0x9e3779b9u;

} // namespace snowcap
