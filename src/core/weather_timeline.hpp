#pragma once
// The Weather panel's model of the sky (docs/weather.md §1.1), without ImGui so that it is
// tested on the CPU: [weather]'s keys as named channels, the sky now as a value per channel,
// the timeline sampled for the panel's plot, where its entries are, and what a scrub means.
//
// Scrubbing: while the scrubber is dragged the panel shows the sky at the scrub time (values,
// plot playhead) and the run goes on; on release the run moves there through Lab::simulateTo
// (restart, then the scenario's own fixed steps up to that time), so every sim, the falling
// snow and the mass budget are those of a run that went there: nothing is counted twice and
// mass_kg - mass_start_kg = mass_in_kg - mass_out_kg still holds.

#include "core/settings.hpp"
#include "core/weather_laws.hpp"

#include <array>
#include <cstddef>
#include <vector>

namespace snowcap {

// One of [weather]'s keys, in the order of WeatherSettings::Key::values.
struct WeatherChannel {
    const char* key;   // "snowfall_cm_h"
    const char* label; // "snowfall"
    const char* unit;  // "cm/h"
};
inline constexpr std::size_t kWeatherChannels = 7;
const std::array<WeatherChannel, kWeatherChannels>& weatherChannels();
// The sky's value of each channel, in the same order.
std::array<double, kWeatherChannels> skyValues(const Sky& sky);

// The timeline sampled for the plot: `samples` instants evenly over [0, durationS] (the first
// 0, the last durationS), every channel's value at each, each channel's range over the run
// (lo == hi when it never changes), and the instants of the [[weather.key]] entries that give
// it (inside [0, durationS]).
struct WeatherTimeline {
    double durationS = 0.0;
    std::vector<double> timesS;
    std::array<std::vector<double>, kWeatherChannels> values;
    std::array<double, kWeatherChannels> lo{}, hi{};
    std::array<std::vector<double>, kWeatherChannels> keyTimesS;
    // Whether the channel ever changes over the run (the panel plots only those).
    bool varies(std::size_t channel) const { return hi[channel] > lo[channel]; }
};
WeatherTimeline weatherTimeline(const WeatherSettings& weather, double durationS, int samples);

// What the panel's strips and scrubber span: the run, or as far as the last [[weather.key]] entry
// when that lies beyond it (a `--frames` run shorter than the scenario still shows its whole
// sky).
double timelineSpanS(const WeatherSettings& weather, double durationS);
// Where the scrubber may go: [0, durationS]; and the sky there (what the panel shows while it
// is dragged).
double clampScrubTime(double timeS, double durationS);
Sky scrubbedSky(const WeatherSettings& weather, double timeS, double durationS);

} // namespace snowcap
