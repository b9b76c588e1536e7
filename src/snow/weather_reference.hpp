#pragma once
// The CPU oracle of the weather passes (shaders/weather/*.comp): the same float and integer
// operations in the same order on plain arrays, from the laws in core/weather_laws.hpp. One
// tick, on the state the snowpack's passes of the step left and their contact flags:
//     snowfall + melt + drain (per texel)  ->  drift flux  ->  drift apply
// The GL tests compare the driver's state with it; the law tests (budget, frame rate, melt
// time, drift) run on it alone, through WeatheredSnowpack.

#include "core/weather_laws.hpp"
#include "snow/snowpack_reference.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace snowcap {

// What the weather moved across the budget's boundary, in quanta of kWeatherQuantum kg/m2 per
// texel: snowfall and drift blown in at the upwind border (in), drained water and drift blown
// out at the downwind border (out).
struct WeatherTotals {
    std::uint64_t inQuanta = 0;
    std::uint64_t outQuanta = 0;
    // The drift's share of them: blown in at the upwind border, out at the downwind border.
    std::uint64_t driftInQuanta = 0;
    std::uint64_t driftOutQuanta = 0;
    double inKg(double texelCm) const;
    double outKg(double texelCm) const;
};

class WeatherReference {
public:
    // `originCm`: the world position of the region's corner (texel 0's outer corner).
    WeatherReference(const SnowpackConstants& constants, int size, glm::vec2 originCm);

    void tick(SnowpackGrid& grid, std::span<const std::uint8_t> inside, const WeatherTick& tick);
    // The passes one by one (what tick() runs), for the GL tests.
    void snowfallAndMelt(const SnowpackGrid& grid, std::span<const std::uint8_t> inside,
                         const WeatherTick& tick);
    void driftFlux(std::span<const std::uint8_t> inside, const WeatherTick& tick);
    void driftApply(SnowpackGrid& grid, const WeatherTick& tick);
    // The terrain under the region (snowpackGroundCm; empty: flat): the sun's normal is that of
    // the snow's tops on it.
    void setGround(std::span<const float> groundCm) {
        ground_.assign(groundCm.begin(), groundCm.end());
    }

    // The ground's part of the wind's weighting (windTerrainTerms; empty: flat, none).
    void setWindTerrain(std::span<const WindTerrain> terms) {
        windTerrain_.assign(terms.begin(), terms.end());
    }

    const WeatherTotals& totals() const { return totals_; }
    std::span<const DriftOut> flux() const { return flux_; }
    // What drifted, per texel since the start: quanta arrived minus sent (driftRecord[] of
    // shaders/weather/weather_block.glsl). It sums to driftInQuanta - driftOutQuanta.
    std::span<const std::int32_t> driftRecord() const { return driftRecord_; }
    const std::vector<SnowColumn>& scratch() const { return scratch_; }

private:
    SnowpackConstants constants_;
    int size_;
    glm::vec2 originCm_;
    std::vector<SnowColumn> scratch_;      // after snowfall, melt and drainage
    std::vector<float> ground_;            // the terrain's heights (cm); empty: flat
    std::vector<WindTerrain> windTerrain_; // the ground's wind weighting; empty: flat
    std::vector<DriftOut> flux_;
    std::vector<std::int32_t> driftRecord_;
    WeatherTotals totals_;
};

// A snowpack under a sky, on the CPU: the snowpack's step, then the weather's ticks that fall in
// it (what the frame runs: snowpack.X, then weather.X).
class WeatheredSnowpack {
public:
    WeatheredSnowpack(int size, const SnowpackSettings& snowpack, const WeatherSettings& weather,
                      const WindSettings& wind, glm::vec3 sunDirection, double captureZCm,
                      double captureFarCm, double texelCm, glm::vec2 originCm = {0.0f, 0.0f},
                      float groundPrintMaxCm = 0.0f);
    void step(std::span<const float> windowDepth, double dtS);
    // The terrain under the region (snowpackGroundCm): the snowpack's slump and initial cover
    // and the sun's normal follow it; the budget starts again from the new cover.
    void setGround(std::vector<float> groundCm);
    // The ground's part of the wind's weighting (windTerrainTerms): the drift follows it.
    void setWindTerrain(std::span<const WindTerrain> terms) { weather_.setWindTerrain(terms); }

    SnowpackReference& snowpack() { return snowpack_; }
    const SnowpackReference& snowpack() const { return snowpack_; }
    const WeatherReference& weather() const { return weather_; }
    double texelCm() const { return texelCm_; }
    // The budget: mass now (snow and water held), at the start, in and out, all in kg.
    double massKg() const;
    double massStartKg() const { return massStartKg_; }
    double massInKg() const { return weather_.totals().inKg(texelCm_); }
    double massOutKg() const { return weather_.totals().outKg(texelCm_); }

private:
    SnowpackReference snowpack_;
    WeatherReference weather_;
    WeatherClock clock_;
    double texelCm_;
    double massStartKg_;
};

} // namespace snowcap
