#pragma once
// JSON files someone else made (a sweep's plan.json, shard.json and batch files, a bench
// report), read the way every input is read (core/untrusted_file.hpp: a regular file within a
// size cap, no FIFO, device or directory), and their numbers taken without narrowing: a
// "shard": 4294967297 is refused, never read as shard 1.

#include "core/untrusted_file.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

namespace snowcap {

// The parsed document, or "PATH: reason" in one line.
inline std::variant<nlohmann::json, std::string>
readUntrustedJson(const std::filesystem::path& path, std::uint64_t maxBytes) {
    std::string text;
    if (auto error = readUntrustedText(path, text, maxBytes))
        return *error;
    nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
    if (parsed.is_discarded())
        return path.string() + ": not JSON";
    return parsed;
}

// `value` as a whole number in [lo, hi], or the reason naming `name` ("'shard' is 4294967297,
// not in 1..100000"). Any other JSON type, a fraction or a number past 64 bits is refused.
inline std::variant<long long, std::string>
jsonInteger(const nlohmann::json& value, const std::string& name, long long lo, long long hi) {
    long long n = 0;
    if (value.is_number_unsigned()) {
        const auto u = value.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<long long>::max()))
            return fmt::format("'{}' is {}, not in {}..{}", name, u, lo, hi);
        n = static_cast<long long>(u);
    } else if (value.is_number_integer()) {
        n = value.get<std::int64_t>();
    } else {
        return fmt::format("'{}' is {}, not a whole number", name,
                           clipForMessage(value.dump(), 40));
    }
    if (n < lo || n > hi)
        return fmt::format("'{}' is {}, not in {}..{}", name, n, lo, hi);
    return n;
}

// `value` as a finite number in [lo, hi], or the reason naming `name`.
inline std::variant<double, std::string> jsonReal(const nlohmann::json& value,
                                                  const std::string& name, double lo, double hi) {
    if (!value.is_number())
        return fmt::format("'{}' is {}, not a number", name, clipForMessage(value.dump(), 40));
    const double v = value.get<double>();
    if (!std::isfinite(v) || v < lo || v > hi)
        return fmt::format("'{}' is {}, not in {}..{}", name, v, lo, hi);
    return v;
}

} // namespace snowcap
