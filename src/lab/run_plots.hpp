#pragma once
// The pictures of a headless run that are read as data: capture_depth.png (what the capture saw
// from below, in cm under the snow top, with its key) and probes.png (every probe's value in
// every sim over the run, with axes). lab/run_outputs.hpp writes them beside the PFM and EXR.

#include "core/settings.hpp"
#include "lab/run_stats.hpp"
#include "snow/snow_field.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <variant>

namespace snowcap {

// Sim A's capture as depth below the undisturbed snow top (0 .. snow.depth_cm, deeper clamped),
// "nothing below the top" grey, with a length bar and its colour key.
std::optional<std::string> writeCaptureDepthImage(const SnowField& field, const Settings& settings,
                                                  const std::filesystem::path& path);

// The probe curves: one line per probe and sim against simulated time. Nothing is written (and
// false returned) when the scenario has no probes.
std::variant<bool, std::string> writeProbePlot(const RunRecorder& recorder, const SnowField& field,
                                               const Settings& settings,
                                               const std::filesystem::path& path);

// The picture writeProbePlot writes: each probe's values in each sim (`models[s]` says whether
// sim s reads a mask or a snowpack's depth) over `frames` steps at `fps`, both axes labelled
// with their units. Masks (0..1) and depths (cm) never share an axis: with both, the mask sims'
// plot is above the snowpack sims' on one time axis. No GL.
ImageRgba8 probePlotImage(std::span<const RunRecorder::Probe> probes,
                          std::span<const SimModel> models, long long frames, double fps);

} // namespace snowcap
