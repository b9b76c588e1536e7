#include "lab/world_io.hpp"

#include "core/untrusted_file.hpp"
#include "io/image.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

namespace snowcap {

std::optional<std::string> saveWorld(SnowField& field, const std::filesystem::path& path) {
    auto snapshot = snapshotWorld(field);
    if (auto* error = std::get_if<std::string>(&snapshot))
        return fmt::format("{}: {}", path.string(), *error);
    return writeFileAtomically(path, encodeWorldFile(std::get<WorldFile>(snapshot)));
}

std::variant<WorldFile, std::string> readWorldInput(const Settings& settings,
                                                    const std::filesystem::path& path) {
    const double mib = settings.import.maxWorldMiB;
    return readWorldFile(path, std::uint64_t(mib * 1024.0 * 1024.0)); // names the file
}

std::optional<std::string> applyWorldInput(SnowField& field, const WorldFile& file,
                                           const std::filesystem::path& path) {
    if (auto error = applyWorld(field, file))
        return fmt::format("{}: {}", path.string(), *error);
    return std::nullopt;
}

std::optional<std::string> loadWorld(SnowField& field, const std::filesystem::path& path) {
    auto file = readWorldInput(field.settings(), path);
    if (auto* error = std::get_if<std::string>(&file))
        return *error;
    return applyWorldInput(field, std::get<WorldFile>(file), path);
}

std::optional<std::string> checkWorldOutput(const std::filesystem::path& path) {
    const std::filesystem::path dir =
        path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
    struct stat info {};
    if (::stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        return fmt::format("{}: cannot write the world file there: {} is not a directory",
                           path.string(), dir.string());
    return checkReplaceable(path);
}

} // namespace snowcap
