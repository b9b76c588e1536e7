#include "core/weather_timeline.hpp"

#include <algorithm>

namespace snowcap {

const std::array<WeatherChannel, kWeatherChannels>& weatherChannels() {
    static const std::array<WeatherChannel, kWeatherChannels> channels{{
        {"snowfall_cm_h", "snowfall", "cm/h"},
        {"snowfall_density_kg_m3", "fresh density", "kg/m3"},
        {"wind_m_s", "wind", "m/s"},
        {"wind_toward_deg", "wind toward", "deg"},
        {"air_temp_c", "air", "C"},
        {"sun", "sun", "W/m2"},
        {"time_scale", "time scale", "x"},
    }};
    return channels;
}

std::array<double, kWeatherChannels> skyValues(const Sky& sky) {
    return {sky.snowfallCmH, sky.snowfallDensityKgM3,
            sky.windMS,      sky.windTowardDeg,
            sky.airTempC,    sky.sunWM2,
            sky.timeScale};
}

WeatherTimeline weatherTimeline(const WeatherSettings& weather, double durationS, int samples) {
    WeatherTimeline timeline;
    timeline.durationS = std::max(durationS, 0.0);
    samples = std::max(samples, 2);
    timeline.timesS.reserve(samples);
    for (auto& v : timeline.values)
        v.reserve(samples);
    for (int i = 0; i < samples; ++i) {
        // The last sample exactly at the end (no rounding short of it).
        const double t =
            i == samples - 1 ? timeline.durationS : timeline.durationS * i / (samples - 1);
        timeline.timesS.push_back(t);
        const auto values = skyValues(skyAt(weather, t));
        for (std::size_t c = 0; c < kWeatherChannels; ++c)
            timeline.values[c].push_back(values[c]);
    }
    // Entries between the samples reach their values exactly (a jump, a peak): the range counts
    // the sky at each entry inside the run, and just before it.
    for (std::size_t c = 0; c < kWeatherChannels; ++c) {
        const auto [lo, hi] =
            std::minmax_element(timeline.values[c].begin(), timeline.values[c].end());
        timeline.lo[c] = *lo;
        timeline.hi[c] = *hi;
    }
    for (const WeatherSettings::Key& key : weather.keys) {
        if (key.atS < 0.0 || key.atS > timeline.durationS)
            continue;
        const auto at = skyValues(skyAt(weather, key.atS));
        for (std::size_t c = 0; c < kWeatherChannels; ++c) {
            if (!key.values[c])
                continue;
            timeline.keyTimesS[c].push_back(key.atS);
            timeline.lo[c] = std::min({timeline.lo[c], at[c], *key.values[c]});
            timeline.hi[c] = std::max({timeline.hi[c], at[c], *key.values[c]});
        }
    }
    return timeline;
}

double timelineSpanS(const WeatherSettings& weather, double durationS) {
    double span = std::max(durationS, 0.0);
    for (const WeatherSettings::Key& key : weather.keys)
        span = std::max(span, key.atS);
    return span;
}

double clampScrubTime(double timeS, double durationS) {
    return std::clamp(timeS, 0.0, std::max(durationS, 0.0));
}

Sky scrubbedSky(const WeatherSettings& weather, double timeS, double durationS) {
    return skyAt(weather, clampScrubTime(timeS, durationS));
}

} // namespace snowcap
