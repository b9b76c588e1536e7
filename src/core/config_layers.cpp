#include "core/config_layers.hpp"

#include "core/untrusted_file.hpp"

#include <array>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <sstream>
#include <system_error>
#include <utility>

namespace snowcap::config_layers {

// toml++ quotes offending text in its descriptions; a control character there (a newline in a
// bad key, say) must not break the one-line rule.
std::string oneLine(std::string_view text) {
    std::string line;
    for (const char c : text)
        line += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
    return line;
}

std::variant<toml::table, ConfigError> parseText(std::string_view text, const std::string& origin,
                                                 bool withPosition) {
    try {
        return toml::parse(text, std::string(origin));
    } catch (const toml::parse_error& error) {
        const auto& at = error.source().begin;
        const std::string where =
            withPosition ? origin + ":" + std::to_string(at.line) + ":" + std::to_string(at.column)
                         : origin;
        return ConfigError{clipForMessage(where, 200) + ": " +
                           clipForMessage(oneLine(error.description()), 200)};
    }
}

std::variant<toml::table, ConfigError> parseFile(const std::filesystem::path& file,
                                                 std::uint64_t maxBytes) {
    // Not a regular file (a directory, FIFO, /dev/zero), or past the cap: one line, at once.
    std::string text;
    if (auto error = readUntrustedText(file, text, maxBytes, "import.max_config_mib"))
        return ConfigError{oneLine(*error)};
    return parseText(text, file.string(), true);
}

namespace {

std::string trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

// Bare keys only ("sim.a.decay"): that is all the schema uses, and it keeps the check simple.
bool isDottedKey(std::string_view key) {
    bool partStarted = false; // every part between the dots must be non-empty
    for (const char c : key) {
        if (c == '.' && !std::exchange(partStarted, false))
            return false;
        const bool bare = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_' || c == '-';
        partStarted = partStarted || bare;
        if (!bare && c != '.')
            return false;
    }
    return partStarted;
}

// True when `value` is exactly one TOML value (not, say, "1\nrun.frames = 2" smuggling a key).
bool isOneTomlValue(const std::string& value) {
    try {
        return toml::parse("value = " + value).size() == 1;
    } catch (const toml::parse_error&) {
        return false;
    }
}

// A TOML string literal for any text; toml++'s formatter does the quoting and escaping.
std::string tomlString(const std::string& text) {
    std::ostringstream literal;
    literal << toml::value<std::string>(text);
    return literal.str();
}

} // namespace

// `--set KEY=VALUE` becomes the one-line document "KEY = VALUE" whose source name is the flag,
// so every table it creates on the way (sim, sim.a) carries the flag as its origin too.
std::variant<toml::table, ConfigError> parseOverride(const std::string& assignment,
                                                     const std::string& flag) {
    const auto equals = assignment.find('=');
    const std::string key = trim(std::string_view(assignment).substr(0, equals));
    if (equals == std::string::npos || !isDottedKey(key))
        return ConfigError{flag + ": malformed override, expected dotted.key=value"};
    const std::string value = trim(std::string_view(assignment).substr(equals + 1));
    return parseText(key + " = " + (isOneTomlValue(value) ? value : tomlString(value)), flag,
                     false);
}

bool isDefaultsFile(const toml::source_region& where) {
    if (!where.path)
        return false;
    const std::string_view path = *where.path;
    constexpr std::string_view kDefaults = "config/default.toml";
    return path.size() >= kDefaults.size() &&
           path.substr(path.size() - kDefaults.size()) == kDefaults;
}

// Tables merge key by key; anything else, arrays included, replaces what was there, so a
// scenario's [[deformer]] list replaces the default list instead of adding to it.
void mergeInto(toml::table& base, toml::table& layer) {
    for (auto&& [key, value] : layer) {
        toml::node* existing = base.get(key.str());
        if (existing && existing->is_table() && value.is_table()) {
            mergeInto(*existing->as_table(), *value.as_table());
            continue;
        }
        base.erase(key.str()); // so the key's own position (for "unknown key") is this layer's
        base.insert(key, std::move(value));
    }
}

} // namespace snowcap::config_layers
