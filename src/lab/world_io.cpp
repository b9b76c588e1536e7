#include "lab/world_io.hpp"

#include "io/image.hpp"
#include "snow/world_file.hpp"

#include <fmt/format.h>

namespace snowcap {

std::optional<std::string> saveWorld(SnowField& field, const std::filesystem::path& path) {
    auto snapshot = snapshotWorld(field);
    if (auto* error = std::get_if<std::string>(&snapshot))
        return fmt::format("{}: {}", path.string(), *error);
    return writeFileAtomically(path, encodeWorldFile(std::get<WorldFile>(snapshot)));
}

std::optional<std::string> loadWorld(SnowField& field, const std::filesystem::path& path) {
    auto file = readWorldFile(path); // names the file in its errors
    if (auto* error = std::get_if<std::string>(&file))
        return *error;
    if (auto error = applyWorld(field, std::get<WorldFile>(file)))
        return fmt::format("{}: {}", path.string(), *error);
    return std::nullopt;
}

} // namespace snowcap
