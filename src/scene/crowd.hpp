#pragma once
// Crowds ([[crowd]], docs/crowds.md): one description made into many deformers. Each member
// takes every deformer key of the crowd, its path moved by its place in the formation (in the
// frame of the path's heading at its start: forward along the motion, left across it), its
// clip phase and its speed (clip and path together, so feet do not slide) drawn from the
// crowd's seed. No GL.

#include "core/settings.hpp"

#include <glm/vec2.hpp>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// Where each member stands relative to the path's start, in the path's frame (x forward, y
// left), in cm. column: rows of `width`, the first row at the start and each next row
// spacing_cm behind; grid: a square of ceil(sqrt(count)) columns centred on the start;
// scatter: a seeded dart throw in a disc of area count x spacing_cm^2, no two closer than
// 0.7 x spacing_cm where it can manage that.
std::vector<glm::vec2> formationOffsets(const CrowdSettings& crowd);

// The crowd's members as deformers: "NAME.0", "NAME.1", ...
std::vector<DeformerSettings> crowdMembers(const CrowdSettings& crowd);

// Every deformer a scenario places: its [[deformer]] list, then each crowd's members. Fails
// with one line when a member's name is already taken.
std::variant<std::vector<DeformerSettings>, std::string>
scenarioDeformers(const Settings& settings);

} // namespace snowcap
