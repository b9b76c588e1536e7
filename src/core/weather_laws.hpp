#pragma once
// The weather's laws on a snowpack (docs/weather.md): the sky at an instant of the timeline,
// the clock that turns it into fixed ticks of uniform amounts, and the per-texel laws of
// snowfall, melt, drainage and wind drift. Plain functions on floats, used by the CPU reference
// (src/snow/weather_reference.cpp), the tests and, mirrored operation for operation, the
// shaders under shaders/weather/. Every constant's source is cited by title in docs/sources.md.
//
// Mass moves in whole quanta of kWeatherQuantum kg/m2 (2^-16): adding or taking a whole number
// of them from a column holding less than 256 kg/m2 is exact in a float, so what the budget
// counts in and out is exactly what the state gained and lost.

#include "core/settings.hpp"
#include "core/snowpack_laws.hpp"

#include <array>
#include <cstdint>
#include <glm/ext/vector_double3.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <vector>

namespace snowcap {

// ---- the sky --------------------------------------------------------------------------------
struct Sky {
    double snowfallCmH = 0.0;
    double snowfallDensityKgM3 = 100.0;
    double windMS = 0.0;
    double windTowardDeg = 0.0;
    double airTempC = -5.0;
    double sunWM2 = 0.0;
    double timeScale = 1.0;
};
// The sky at `timeS` seconds of the run: each key linear between the [[weather.key]] entries
// that give it, [weather]'s value standing at t = 0, held after the last; two entries at the
// same time make a jump (the later holds from then on).
Sky skyAt(const WeatherSettings& weather, double timeS);
// Whether the sky ever does anything to a snowpack: snow falls, wind blows or the air is above
// 0 C somewhere on the timeline. Without it no weather pass runs and the snowpack is bit for
// bit what it was before the weather existed.
bool weatherActive(const WeatherSettings& weather);
// Whether there is a sky at all: any key of [weather] (or a timeline entry) other than the
// table's defaults, which stand for no [weather]. A sky that is only cold is given and does not
// act: it freezes mud (core/ground.hpp) and moves no snow.
bool weatherGiven(const WeatherSettings& weather);

// ---- settling under the sky -------------------------------------------------------------------
// What one step's settling ticks cover and how warm the snow is (settleColumn,
// core/snowpack_laws.hpp). Under a given sky (weatherGiven) settling runs on the weather's clock:
// a tick covers settle_interval_s x settle_time_scale x the sky's time_scale simulated seconds
// (settle_time_scale an experiment's multiplier, 1 by default), and the snow is at the sky's air
// temperature, at most 0 C (snow is never warmer than melting). Without a sky: the snowpack's own
// temperature_c, and settle_interval_s x settle_time_scale, as before the sky existed. The sky is
// the one at `timeS`, the step's end.
struct SettleClimate {
    float dtS = 0.0f;
    float temperatureC = -5.0f;
};
SettleClimate settleClimate(const SnowpackSettings& snowpack, const WeatherSettings& weather,
                            double timeS, int settleTicks);

// ---- the clock --------------------------------------------------------------------------------
// The weather acts on fixed instants of the run, kWeatherTickS apart, whatever the frame rate
// (as settling does, core/snowpack_laws.hpp): every frame rate applies the same ticks.
constexpr double kWeatherTickS = 1.0 / 30.0;
constexpr float kWeatherQuantum = 1.0f / 65536.0f; // kg/m2
constexpr float kWeatherQuanta = 65536.0f;
// The most one tick lets fall on a texel: 16 kg/m2 (16 cm of 100 kg/m3 snow), so the sums stay
// within 32-bit counters.
constexpr std::uint32_t kMaxSnowfallQuantaPerTick = 1u << 20;

// One tick: what falls, melts and drains, uniform over the region, worked out once on the CPU
// (in doubles, quantised with the remainder carried to the next tick) and read by the passes.
struct WeatherTick {
    double timeS = 0.0;               // the tick's instant, seconds of the run
    float weatherDtS = 0.0f;          // simulated seconds it covers (tick x time_scale)
    std::uint32_t snowfallQuanta = 0; // per texel no contact covers
    float snowfallDensity = 100.0f;
    std::uint32_t meltQuanta = 0; // degree-day melt per texel (0 at or below 0 C)
    float sunMeltPerCos = 0.0f;   // kg/m2 of sun melt on a texel facing the sun squarely
    glm::vec3 sunDirection{0.0f, 0.0f, 1.0f}; // unit, towards the sun
    float drainFraction = 0.0f;               // 1 - exp(-drain_per_h x dt): the water that leaves
    float windMS = 0.0f;                      // at 10 m, before gusts and terrain
    glm::vec2 windDirection{1.0f, 0.0f};      // unit, where it blows towards
    float gustPhase = 0.0f;                   // 2 pi gust_hz t
    float gustAmount = 0.0f;                  // [wind] gust_amount
    float gustWaveNumber = 0.0f;              // 2 pi / gust_wavelength_cm (1/cm)
    // The substance's own threshold friction velocity (m/s) and Bagnold's flux above it; 0:
    // snow's threshold of its density and Pomeroy and Gray's flux (drift_threshold_m_s).
    float driftThresholdMS = 0.0f;
};

// ---- the sun's place ------------------------------------------------------------------------
// The unit vector towards the sun (x east, y north, z up) at `solarHour` of solar time (12:
// noon) on `dayOfYear` (1 = 1 January) at `latitudeDeg` (positive north): the declination from
// Spencer's Fourier series ("Fourier series representation of the position of the sun"), the
// hour angle 15 degrees an hour from noon, and the standard rotation of the equatorial frame
// into the local horizon one. Below the horizon z < 0.
glm::dvec3 solarDirection(double latitudeDeg, double dayOfYear, double solarHour);
// The sun a sky melts by: solarDirection of [weather]'s sun_hour, latitude_deg and day_of_year
// when sun_hour is not negative, else `lookSun` (look.sun_direction), normalised.
glm::vec3 weatherSunDirection(const WeatherSettings& weather, glm::vec3 lookSun);

class WeatherClock {
public:
    WeatherClock() = default;
    WeatherClock(const WeatherSettings& weather, const SnowpackSettings& snowpack,
                 const WindSettings& wind, glm::vec3 sunDirection);
    // The ticks that fall in the step of dt that ends the run's time at timeS() + dt.
    std::vector<WeatherTick> advance(double dtS);
    double timeS() const { return timeS_; }
    const WeatherSettings& weather() const { return weather_; }
    // Live edits keep the time and the remainders.
    void configure(const WeatherSettings& weather, const SnowpackSettings& snowpack,
                   const WindSettings& wind, glm::vec3 sunDirection);

private:
    WeatherTick tickAt(double timeS);
    WeatherSettings weather_;
    SnowpackSettings snowpack_;
    WindSettings wind_;
    glm::vec3 sunDirection_{0.0f, 0.0f, 1.0f};
    double timeS_ = 0.0;
    double snowfallCarry_ = 0.0; // quanta not yet released
    double meltCarry_ = 0.0;
};

// ---- snowfall, melt, drainage (per texel) -------------------------------------------------
// Fresh snow of `quanta` x kWeatherQuantum kg/m2 at `density` lands on the column: its mass adds
// exactly and its depth by mass / density, so the column's density is the two mixed by mass.
SnowColumn snowfallOnto(const SnowColumn& column, std::uint32_t quanta, float density);
// The sun's part of the melt on a texel whose surface normal is `normal` (unit), in quanta,
// rounded to the nearest: sunMeltPerCos x max(0, normal . sun).
std::uint32_t sunMeltQuanta(glm::vec3 normal, const WeatherTick& tick);
// The surface normal from the depths of the four neighbours (central differences; a missing
// neighbour at the region's border counts as the texel itself).
glm::vec3 surfaceNormal(float left, float right, float down, float up, float texelCm);
// `quanta` of the column's snow melt into its water (mass -> water, exactly); the depth falls
// in proportion to the mass (the snow's density stays, the column's bulk density with its water
// rises). All of it melts if it holds less: then depth 0, and the ground shows.
SnowColumn meltColumn(const SnowColumn& column, std::uint32_t quanta);
// The water a print in the ground `printCm` deep holds (kg/m2): its volume of water, 1 cm over
// a square metre being 10 litres, 10 kg; in whole quanta (rounded down), so the water left
// after a drain stays a whole number of them.
float printHoldsKgM2(float printCm);
// The water that leaves the column this tick, in kg/m2: of what the ground's print does not
// hold (`heldKgM2`, printHoldsKgM2 of the column's print; 0 on flat ground), whole quanta, at
// least one while there is one to drain (so it reaches what the print holds), all of it below
// one.
float drainedWater(float waterKgM2, float drainFraction, float heldKgM2);

// One tick's snowfall (where `exposed`: no contact covers the column), melt (degree-day, and
// the sun's on a surface of `normal`) and drainage on one column, in the order of
// shaders/weather/snowfall_melt.comp; what fell and what drained away, in quanta.
struct WeatheredColumn {
    SnowColumn column;
    std::uint32_t inQuanta = 0;
    std::uint32_t outQuanta = 0;
};
WeatheredColumn weatherColumn(const SnowColumn& column, const WeatherTick& tick, bool exposed,
                              glm::vec3 normal);

// ---- wind drift ---------------------------------------------------------------------------
// Friction velocity (m/s) of the wind at 10 m over snow of roughness length 0.1 mm (the log
// profile, von Karman's 0.4).
float frictionVelocity(float windAt10mMS);
// The threshold friction velocity (m/s) of snow of `density` (kg/m3), after Kind, as in
// "A snow-transport model for complex terrain": 0.10 exp(0.003 rho) below 300, 0.005 exp(0.013
// rho) from 300.
float thresholdFrictionVelocity(float density);
// Saltation flux (kg/m/s) at friction velocity `uStar` over snow of threshold `uStarT`:
// "Saltation of snow" (Pomeroy and Gray): 0.68 rho_air u*t (u*^2 - u*t^2) / (g u*); 0 at or
// below the threshold.
float saltationFlux(float uStar, float uStarT);
// Sand's saltation flux (kg/m/s) above its threshold `uStarT`: the Bagnold formula,
// q = C (rho_air / g) sqrt(d / D) u*^3 ("Bagnold formula"), with d = D (Bagnold's 0.25 mm
// grains) and C = 1 (of order unity there: a lab choice); 0 at or below the threshold.
float bagnoldFlux(float uStar, float uStarT);
// The flux a texel's column feels: Bagnold's above the substance's own threshold where the tick
// has one, else Pomeroy and Gray's above snow's threshold of `density`.
float substanceFlux(float uStar, float density, const WeatherTick& tick);
// The terrain's weighting of the wind (MicroMet): 1 + 0.5 slope + 0.5 curvature, each scaled to
// [-0.5, 0.5]: windward slopes and crests speed it up, lee slopes and hollows slow it down.
// `slopeAlong` is the surface's rise per unit run downwind; `curvature` the MicroMet curvature
// (positive on a crest) over kDriftCurvatureTexels.
float terrainWindFactor(float slopeAlong, float curvature);
constexpr int kDriftCurvatureTexels = 4;
// The terrain's part of the weighting over [terrain], per texel, in the units terrainWindFactor
// takes (MicroMet's Omega_s and Omega_c of the ground, each scaled to [-0.5, 0.5] by the largest
// over the sim's region, then written as the slope and curvature that reach them): the ground's
// slope angle beta along its steepest rise, as a vector (gx, gy) of length beta / beta_max, so
// that the wind's direction d gives beta cos(aspect - wind) / beta_max = (gx, gy) . d; and its
// curvature over the length scale eta, over 4 x the region's largest |curvature|. The snow's own
// slope and curvature (of its tops over the ground) are added to them, so a flat ground's terms,
// all 0, leave the weighting as it was.
struct WindTerrain {
    float slopeX = 0.0f;
    float slopeY = 0.0f;
    float curvature = 0.0f;
};
// The snow's slope along the wind plus the ground's (terms.slopeX, slopeY) . direction; the
// same operations as shaders/weather/drift_flux.frag over [terrain].
float slopeAlongWind(float snowSlopeAlong, const WindTerrain& terms, glm::vec2 direction);
// MicroMet's curvature at a texel of top height z from the tops kDriftCurvatureTexels away
// (west, east, south, north and the four diagonals), over eta = that distance in cm:
// 1/4 [(z - (w+e)/2) / 2eta + (z - (s+n)/2) / 2eta + (z - (sw+ne)/2) / 2sqrt2 eta
//      + (z - (nw+se)/2) / 2sqrt2 eta].
float microMetCurvature(float z, const std::array<float, 8>& around, float etaCm);
// Snow holding liquid water above this share of its mass does not drift (wet snow needs far
// more wind: "Estimates of threshold wind speeds for snow transport using meteorological data").
constexpr float kDriftDryWaterShare = 0.005f;
// One tick moves at most this share of a column's mass (keeps the upwind scheme stable at any
// time_scale).
constexpr float kDriftMaxShare = 0.25f;

// What a texel sends downwind in one tick: whole quanta through its downwind x face and its
// downwind y face (0 where it is wet, under a contact or below the threshold).
struct DriftOut {
    std::uint32_t x = 0;
    std::uint32_t y = 0;
};
// `windMS` is the gusted wind at the texel; the slope and curvature its terrain's.
DriftOut driftOut(const SnowColumn& column, bool underContact, float windMS, float slopeAlong,
                  float curvature, const WeatherTick& tick, float texelCm);
// The wind at a texel's world position `xyCm`, gusted as [wind] sways plants: wind x max(0, 1 +
// gust_amount sin(2 pi gust_hz t - 2 pi / wavelength (x . direction))).
float gustedWind(glm::vec2 xyCm, const WeatherTick& tick);
// The column after drift: `outQuanta` leave at its density, `inQuanta` arrive loose, at the
// initial density, mixing with it by mass.
SnowColumn driftColumn(const SnowColumn& column, std::uint32_t outQuanta, std::uint32_t inQuanta,
                       const SnowpackConstants& c);

// ---- a column away from every window ---------------------------------------------------------
// Drift on a column replayed alone (a following snowpack's undisturbed column and its world
// store's columns, docs/snowpack.md section 6.3): it is taken, as the drift apply pass takes the
// world beyond a region's upwind border, to receive from upwind what it sends downwind. On a flat
// field of equal columns under an even wind that is exact (every texel's upwind neighbour sends
// what it sends), so its mass stays; what it sends leaves at its density and what arrives lands
// loose, at the initial density (driftColumn), so the drift still turns the column's top over.
// The wind is the tick's, ungusted (the column has no place), on a flat surface (slope and
// curvature 0), exposed and in the open; c.texelCm is the region's texel.
SnowColumn driftInPlace(const SnowColumn& column, const WeatherTick& tick,
                        const SnowpackConstants& c);
// One weather tick on a column away from every window: weatherColumn (exposed, flat), then, when
// the wind blows, driftInPlace. What fell and what drained away, in quanta (drift adds none).
WeatheredColumn weatherAwayColumn(const SnowColumn& column, const WeatherTick& tick,
                                  const SnowpackConstants& c);

} // namespace snowcap
