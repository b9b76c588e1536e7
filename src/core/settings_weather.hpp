#pragma once
// The sky over every snowpack sim, [weather]; a section of Settings (core/settings.hpp), one
// member a key of the parameter table.

#include <array>
#include <optional>
#include <vector>

namespace snowcap {

// The sky over every snowpack sim of a scenario ([weather], docs/weather.md): snowfall, wind,
// air temperature and sun, constant or on a timeline of [[weather.key]] entries.
struct WeatherSettings {
    WeatherSettings();            // the parameter table's defaults (params.cpp)
    double snowfallCmH{};         // snowfall_cm_h: fresh snow depth per (simulated) hour
    double snowfallDensityKgM3{}; // snowfall_density_kg_m3: the density it falls at
    double windMS{};              // wind_m_s: wind speed at 10 m
    double windTowardDeg{};       // wind_toward_deg: where it blows towards, 0 = +X, 90 = +Y
    double airTempC{};            // air_temp_c: air temperature
    double sunWM2{};              // sun: beam irradiance from look.sun_direction, W/m2 (0: off)
    double timeScale{};           // time_scale: simulated seconds per second of the run
    // Over [terrain], MicroMet's curvature length scale for the wind's weighting (m): about
    // half the wavelength of the terrain's features, the distance from a ridge to its valley
    double windCurvatureM{};
    // The sun's place from a time of day: sun_hour (solar time, 0..24; negative: the sun
    // stands at look.sun_direction), latitude_deg and day_of_year (1 = 1 January)
    double sunHour{};
    double latitudeDeg{};
    double dayOfYear{};
    // [[weather.key]]: at_s (seconds of the run) and any of the keys above; each key is linear
    // between the entries that give it, [weather]'s value standing at t = 0, held after the
    // last. Entries in order of at_s (equal times make a jump).
    struct Key {
        double atS = 0.0;
        std::array<std::optional<double>, 7> values{}; // in the order of the members above
        bool operator==(const Key&) const = default;
    };
    std::vector<Key> keys;
    bool operator==(const WeatherSettings&) const = default;
};

} // namespace snowcap
