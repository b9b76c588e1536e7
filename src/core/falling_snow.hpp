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

#include <array>
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

// A perspective view's air is kFlakeLevels nested boxes ahead of its camera, each twice as wide
// as the one before (the first kFlakeNearBoxCm a side): 4 m, 8, 16 and 32 m. Of every ten
// flakes four fall in the nearest box, three in the next, two and one in the last two
// (kFlakeBoxOfSlot): the flakes thin out with distance, most of the budget stays where a flake
// is large enough to see, and the far boxes fill the view past the region, the sky included.
// Every box wraps its flakes in a lattice fixed in the world (its period the box's side), so a
// flake stays where it is while the camera moves and only which copy of it is drawn follows.
constexpr int kFlakeLevels = 4;
constexpr float kFlakeNearBoxCm = 400.0f;
constexpr int kFlakeSlots = 10;
constexpr std::array<int, kFlakeSlots> kFlakeBoxOfSlot = {0, 0, 0, 0, 1, 1, 1, 2, 2, 3};
// The box flake `index` falls in, of `levels` (1: the region's only box).
constexpr int flakeBoxOf(int index, int levels) {
    return levels <= 1 ? 0 : kFlakeBoxOfSlot[std::size_t(index % kFlakeSlots)];
}

// One box the flakes fall through: they wrap inside it, at the places a lattice of period
// sizeCm anchored at originCm gives them.
struct FlakeBox {
    glm::vec3 minCm{0.0f};
    glm::vec3 sizeCm{1.0f};
    glm::vec3 originCm{0.0f};
};

// The air of one view at one instant: what the falling-snow pass draws. Flake i falls in box
// flakeBoxOf(i, levels).
struct FallingSnowAir {
    int flakes = 0; // drawn; 0: none (no snowfall, or look.falling_snow off)
    int levels = 1; // boxes in use: 1 over the region (orthographic), kFlakeLevels around a camera
    std::array<FlakeBox, kFlakeLevels> boxes{};
    double timeS = 0.0; // the run's time: flakes fall in the run's seconds, not the sky's
    glm::vec2 windDirection{1.0f, 0.0f}; // unit, where it blows towards
    float windCmS = 0.0f;                // mean drift speed
    float gustAmount = 0.0f;             // [wind] gust_amount
    float gustOmega = 0.0f;              // 2 pi gust_hz (1/s)
    double gustTimeS = 0.0;      // timeS wrapped by whole gust periods (core/phase_wrap.hpp)
    float gustWaveNumber = 0.0f; // 2 pi / gust_wavelength_cm (1/cm)
};

// Where a perspective camera stands and looks (unit forward).
struct FlakeEye {
    glm::vec3 eyeCm{0.0f};
    glm::vec3 forward{0.0f, 1.0f, 0.0f};
};

// The snowfall's water equivalent, mm of water an hour: depth x density / water's.
double snowfallWaterMmH(double snowfallCmH, double densityKgM3);
// How many flakes a box of `volumeM3` holds at that snowfall: look.falling_snow_flakes per m3
// per mm/h, rounded, at most look.falling_snow_max_flakes; 0 when it does not snow or the look
// key is off.
int fallingFlakeCount(const LookSettings& look, double snowfallCmH, double densityKgM3,
                      double volumeM3);
// The air over `region` at `timeS` of the run, under the sky of that instant (skyAt): one box
// the region's footprint wide and half as high, standing on the snow's top (an orthographic view
// from above sees just that).
FallingSnowAir fallingSnowAir(const WeatherSettings& weather, const WindSettings& wind,
                              const LookSettings& look, const Region& region, double surfaceZCm,
                              double timeS);
// The air a perspective camera at `eye` sees at `timeS`: kFlakeLevels boxes ahead of it, box l
// kFlakeNearBoxCm * 2^l a side with the eye at the middle of its back face, none below the
// snow's top, each in its world-fixed lattice. The nearest box holds what its volume holds at
// the snowfall (fallingFlakeCount), the others their share of the ten (3, 2 and 1 for its 4);
// in all at most look.falling_snow_max_flakes, in whole tens.
FallingSnowAir fallingSnowAirAround(const WeatherSettings& weather, const WindSettings& wind,
                                    const LookSettings& look, const FlakeEye& eye,
                                    double surfaceZCm, double timeS);
// Where flake `index` of `air` is (cm): the CPU twin of falling_snow.vert's flakePosition, for
// tests and for reading the picture.
glm::vec3 flakePosition(const FallingSnowAir& air, int index);
// The integer hash both use (a 32-bit avalanche: lowbias32).
std::uint32_t flakeHash(std::uint32_t x);
constexpr std::uint32_t kFlakeSeed = 0x9e3779b9u;

} // namespace snowcap
