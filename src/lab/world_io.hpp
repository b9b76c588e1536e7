#pragma once
// World files on disk for the front ends (render --world-out / --world-in, view --world-in):
// the format is snow/world_file.hpp's. Errors are one line naming the file and the reason; a
// failed load changes nothing, and a failed save leaves what was there.
//
// Reading is split so that a front end can check a file before it makes a GL context (a bad
// file then costs milliseconds): readWorldInput, later applyWorldInput. Saving writes a temp file
// beside the target, fsyncs it and renames it only over a regular file or nothing
// (io/image.hpp's writeFileAtomically); checkWorldOutput finds a missing directory or a special
// file before the run starts.

#include "snow/snow_field.hpp"
#include "snow/world_file.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <variant>

namespace snowcap {

std::optional<std::string> saveWorld(SnowField& field, const std::filesystem::path& path);
std::optional<std::string> loadWorld(SnowField& field, const std::filesystem::path& path);

// The file, checked in full, under settings.import.max_world_mib; nothing is loaded yet.
std::variant<WorldFile, std::string> readWorldInput(const Settings& settings,
                                                    const std::filesystem::path& path);
// A file readWorldInput gave into the field (applyWorld's checks against the run).
std::optional<std::string> applyWorldInput(SnowField& field, const WorldFile& file,
                                           const std::filesystem::path& path);

// Whether a world file can be written at `path` at the end of a run: its directory exists and
// is one, and the name is a regular file or nothing.
std::optional<std::string> checkWorldOutput(const std::filesystem::path& path);

} // namespace snowcap
