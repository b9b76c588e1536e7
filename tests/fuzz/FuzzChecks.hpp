#pragma once
// What the fuzz targets (tools/fuzz, SNOWCAP_FUZZ=ON) and the regression replay in ctest
// (FuzzRegressionTest.cpp) do with one input: feed it through the product's own entry point and
// check the promises that hold for ANY input. Empty when they held, else the broken promise.
//   config: loadSettingsFromText either gives Settings or one non-empty line naming the origin.
//   mesh:   importModelFromMemory either gives a consistent mesh (finite positions, indices and
//           joint indices in range, weights summing to 1) or one line naming the input.
// A crash, a sanitizer report or a hang is a failure too; those need no code here.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace snowcap::fuzz {

std::string checkConfigInput(std::span<const std::uint8_t> bytes);
std::string checkMeshInput(std::span<const std::uint8_t> bytes);

// The Assimp reader for these bytes, from their magic ("glb", "fbx", "gltf" or "obj"), as a
// user's file name would pick it.
std::string meshFormatHint(std::span<const std::uint8_t> bytes);

} // namespace snowcap::fuzz
