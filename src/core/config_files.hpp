#pragma once
// The keys that name files (a deformer's, body's or plant's mesh, a vehicle's chassis, the
// ground's texture): a relative path is found beside the file that names it, then in the
// repository (the bundled assets). Internal to config.cpp, on the merged layers before they are
// read, so every reader sees the file that will be opened.

#include "core/config.hpp"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <toml++/toml.h>

namespace snowcap::config_files {

// Rewrites each relative file key that a configuration file gave (not config/default.toml, not a
// --set, whose names are in `flagOrigins`) to the absolute path beside that file when one is
// there; leaves it for `root` when the file is in the repository instead; and, when it is in
// neither, leaves it and returns (for the first such key) the one line "FILE:LINE:COL: key
// 'deformer[0].mesh': NAME: cannot open file (not beside FILE: DIR/NAME, nor in the repository:
// ROOT/NAME)".
std::optional<ConfigError> resolveFileKeys(toml::table& merged,
                                           const std::set<std::string>& flagOrigins,
                                           const std::filesystem::path& root);

} // namespace snowcap::config_files
