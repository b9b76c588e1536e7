#pragma once
// stats.json's world part of one sim (docs/world.md): the tile store and its paging
// (sim.X.persistence = "world") and, with several observers, where each window ended.

#include "core/settings.hpp"
#include "snow/snow_field.hpp"

#include <nlohmann/json.hpp>
#include <span>

namespace snowcap {

// Sets `sim["world"]` and `sim["windows"]` (stats["sims"][X]) where sim s has them; an observer
// is named from the scenario's deformers.
void addWorldStats(nlohmann::json& sim, const SnowField& field, int s,
                   std::span<const DeformerSettings> deformers);

} // namespace snowcap
