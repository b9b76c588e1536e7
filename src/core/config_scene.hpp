#pragma once
// The scene half of the settings schema: [[deformer]], [[probe]] and [[foliage]] entries. Internal
// to src/core/config*.cpp; kept apart from the snow and sim keys so each reads as one table.

#include "core/config_read.hpp"

#include <vector>

namespace snowcap::config_read {

Read<std::vector<DeformerSettings>> deformerListReader();
// [[crowd]]: each entry's own keys (params::crowdParams) and every deformer key, with the
// deformer's rules between keys; no player.
Read<std::vector<CrowdSettings>> crowdListReader();
// path = [[t, x, y, z], ...] and waypoints_cm = [[x, y, z], ...] (rows of the deformer table).
Read<std::vector<DeformerSettings::Key>> keyframes();
Read<std::vector<glm::vec3>> waypoints();
Read<std::vector<ProbeSettings>> probeListReader();
// [[foliage]]: each entry's keys, count or density (not both), scale = [min, max] in order.
Read<std::vector<FoliageSettings>> foliageListReader();
// [[body]]: each entry's keys, names unique, every entry's count together within
// import.max_bodies.
Read<std::vector<BodySettings>> bodyListReader();
// [[vehicle]]: each entry's keys, names unique, the rules between its keys (vehicleProblem).
Read<std::vector<VehicleSettings>> vehicleListReader();

} // namespace snowcap::config_read
