#pragma once
// World files on disk for the front ends (render --world-out / --world-in, view --world-in):
// the format is snow/world_file.hpp's; writes are atomic (io/image.hpp's writeFileAtomically).
// Errors are one line naming the file and the reason; a failed load changes nothing.

#include "snow/snow_field.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace snowcap {

std::optional<std::string> saveWorld(SnowField& field, const std::filesystem::path& path);
std::optional<std::string> loadWorld(SnowField& field, const std::filesystem::path& path);

} // namespace snowcap
