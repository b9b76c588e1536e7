#pragma once
// stats.json's snowpack part of one sim (docs/snowpack.md): the mass budget, and the state's
// PFM (depth_cm, density, water).

#include "snow/snow_field.hpp"
#include "snow/snowpack_sim.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

// One figure of a snowpack sim's budget: the one list that stats.json and the viewer's
// Snowpack panel both show, so the two cannot drift apart.
struct SnowpackFigure {
    const char* key; // stats.json sims.X.snowpack.<key>
    double value;
    const char* unit;  // "" for a ratio
    const char* label; // the Snowpack panel's words
};
// In reading order; empty when the sim has no state yet. Reads the state back (the whole
// texture: the panel refreshes it every few frames, not every frame).
std::vector<SnowpackFigure> snowpackFigures(const SnowpackSim& snowpack);

// Texels whose depth differs from the initial column's by more than 0.01 cm (pressed,
// ploughed onto, slumped or settled that far): a sweep's texels_disturbed for a snowpack sim.
long long snowpackTexelsDisturbed(const SnowpackSim& snowpack);

// Sets `sim["snowpack"]` (stats["sims"][X]) where sim s is a snowpack: mass_kg, mass_start_kg,
// mass_in_kg and mass_out_kg (0 until weather moves snow in or out), mass_carried_in_kg and
// mass_carried_out_kg (what a following window's moves brought in and left behind; 0 for a
// fixed region), mass_error (relative, (mass - start - in + out - carried in + carried out) /
// start), mean_depth_cm, min_depth_cm, max_depth_cm,
// max_density_kg_m3 (the highest now), compacted_fraction. With a world store (persistence =
// "world") also mass_in_store_kg, mass_from_undisturbed_kg (of carried in: what came in as the
// undisturbed column), mass_to_undisturbed_kg (of carried out: what the store did not keep, as
// the undisturbed column, or evicted for its cap), mass_store_in_kg and mass_store_out_kg
// (what [weather] let fall on and drained from the stored columns) and mass_world_error ((mass
// + in store - start - in + out - store in + store out - from undisturbed + to undisturbed) /
// start).
void addSnowpackStats(nlohmann::json& sim, const SnowField& field, int s);

// snowpack_X.png: the depth (0 .. twice the initial) and the density (initial .. max) side by
// side, each with its colour bar, ticks and unit under it (inferno: dark low, bright high).
std::optional<std::string> writeSnowpackImage(const std::filesystem::path& path,
                                              const SnowpackSim& snowpack);

std::optional<std::string> writeSnowpackPfm(const std::filesystem::path& path,
                                            const SnowpackSim& snowpack);

// What drifted (WeatherSim::readDriftRecord) in kg/m2, arrived minus sent since the start:
// drift_X.pfm (one channel) and drift_X.png (diverging: deposit red, erosion blue, white 0,
// full colour at the 99th percentile of |value|, labelled, with its key). Only for a sim under a
// sky.
ImageFloat driftRecordKgM2(const SnowpackSim& snowpack);
std::optional<std::string> writeDriftImage(const std::filesystem::path& path,
                                           const SnowpackSim& snowpack, const std::string& label);

} // namespace snowcap
