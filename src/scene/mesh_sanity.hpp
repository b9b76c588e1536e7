#pragma once
// Results of an import that load but are probably not what was meant: a mesh outside human
// scale (a unit mistake), a clip whose feet sink below the ground the rest pose stands on, a
// walking skeleton with no foot joint. Each warning names the deformer key that fixes it;
// `inspect-mesh` prints them (docs/meshes.md).

#include "scene/model_import.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace snowcap {

// Sizes outside this are flagged (largest extent, after units, scale and fit): a pebble or a
// building, not a person, a boot or a ball.
inline constexpr double kSaneMinExtentCm = 1.0;     // 1 cm
inline constexpr double kSaneMaxExtentCm = 10000.0; // 100 m
// A clip's lowest point may dip this far under the rest pose's before it is flagged.
inline constexpr double kBelowGroundToleranceCm = 1.0;

// Joints whose names say they are at the bottom of a leg (foot, ankle, toe, paw, hoof).
bool isFootJoint(std::string_view name);

// The lowest point of the skinned mesh over one cycle of `clip` (60 samples), in cm.
struct ClipHeights {
    float lowest = 0.0f;  // the lowest the mesh gets
    float highest = 0.0f; // the highest its lowest point gets
};
ClipHeights clipLowestPoint(const ImportedModel& model, const AnimationClip& clip);

// The warnings for `model` as imported with `options`, each one line ending in the key that
// fixes it, with the value that does: a scale hint gives the size each likely unit mistake's
// factor makes of this mesh (times the scale it has), none when fit_height_cm chose the size;
// a clip's sink is measured from the ground placement stands the rest pose on, so an offset_cm
// that raises the deformer enough silences it, and the hint names the offset it still needs.
std::vector<std::string> sanityWarnings(const ImportedModel& model,
                                        const ImportOptions& options = {});

} // namespace snowcap
