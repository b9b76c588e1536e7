#pragma once
// stats.json's snowpack part of one sim (docs/snowpack.md): the mass budget, and the state's
// PFM (depth_cm, density, water).

#include "snow/snow_field.hpp"
#include "snow/snowpack_sim.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace snowcap {

// Sets `sim["snowpack"]` (stats["sims"][X]) where sim s is a snowpack: mass_kg, mass_start_kg,
// mass_in_kg and mass_out_kg (0 until weather moves snow in or out), mass_error (relative,
// (mass - start - in + out) / start), mean_depth_cm, min_depth_cm, max_depth_cm,
// max_density_kg_m3 (the highest now), compacted_fraction.
void addSnowpackStats(nlohmann::json& sim, const SnowField& field, int s);

// snowpack_X.png: the depth (0 .. twice the initial) and the density (initial .. max) side by
// side, labelled with their ranges (inferno: dark low, bright high).
std::optional<std::string> writeSnowpackImage(const std::filesystem::path& path,
                                              const SnowpackSim& snowpack);

std::optional<std::string> writeSnowpackPfm(const std::filesystem::path& path,
                                            const SnowpackSim& snowpack);

} // namespace snowcap
