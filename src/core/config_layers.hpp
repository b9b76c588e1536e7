#pragma once
// The layers of a configuration before validation: TOML files and `--set` overrides parsed into
// tables that remember where each value came from, and the deep merge. Internal to config.cpp.

#include "core/config.hpp"

#include <filesystem>
#include <string>
#include <toml++/toml.h>
#include <variant>

namespace snowcap::config_layers {

// A whole file of at most `maxBytes` (import.max_config_mib); a missing, unreadable, special
// (directory, FIFO, device), oversized or malformed file is one line naming it.
std::variant<toml::table, ConfigError> parseFile(const std::filesystem::path& file,
                                                 std::uint64_t maxBytes);

// A document in memory; errors are "ORIGIN:LINE:COL: reason" (withPosition) or "ORIGIN: reason".
std::variant<toml::table, ConfigError> parseText(std::string_view text, const std::string& origin,
                                                 bool withPosition);

// Control characters (newlines above all) become spaces: every message stays one line.
std::string oneLine(std::string_view text);

// `--set KEY=VALUE` as the one-line document "KEY = VALUE" whose source name is `flag`.
std::variant<toml::table, ConfigError> parseOverride(const std::string& assignment,
                                                     const std::string& flag);

// Whether a value was read from config/default.toml: the table's defaults, written out (a test
// keeps the file equal to the table), not a key a scenario or a --set gave.
bool isDefaultsFile(const toml::source_region& where);

// Tables merge key by key; anything else, arrays included, replaces what was there.
void mergeInto(toml::table& base, toml::table& layer);

} // namespace snowcap::config_layers
