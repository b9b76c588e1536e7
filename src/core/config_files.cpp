#include "core/config_files.hpp"

#include "core/config_layers.hpp"

#include <string_view>
#include <system_error>

namespace snowcap::config_files {

namespace fs = std::filesystem;

namespace {

// Foliage's bundled plants are names, not paths (scene/foliage.cpp).
bool isBundledName(std::string_view list, std::string_view value) {
    return list == "foliage" && (value == "grass_tuft" || value == "bush");
}

std::optional<ConfigError> resolveOne(toml::node& node, const std::string& key,
                                      const std::set<std::string>& flagOrigins,
                                      const fs::path& root, std::string_view list,
                                      const std::string& who = {}) {
    toml::value<std::string>* text = node.as_string();
    const toml::source_region& where = node.source();
    if (!text || text->get().empty() || !where.path || flagOrigins.contains(*where.path) ||
        config_layers::isDefaultsFile(where) || isBundledName(list, text->get()))
        return std::nullopt;
    const fs::path named(text->get());
    if (named.is_absolute())
        return std::nullopt;
    const fs::path namingFile(*where.path);
    std::error_code ec;
    const fs::path beside = fs::absolute(namingFile, ec).parent_path() / named;
    if (fs::exists(beside, ec)) {
        text->get() = beside.lexically_normal().string();
        return std::nullopt;
    }
    const fs::path inRoot = root / named;
    if (fs::exists(inRoot, ec))
        return std::nullopt;
    return ConfigError{*where.path + ":" + std::to_string(where.begin.line) + ":" +
                       std::to_string(where.begin.column) + ": key '" + key + "': " + who +
                       text->get() + ": cannot open file (not beside " +
                       namingFile.filename().string() + ": " + beside.lexically_normal().string() +
                       ", nor in the repository: " + inRoot.lexically_normal().string() + ")"};
}

// Each entry of the list `list` ([[deformer]], ...): its `field`.
void resolveList(toml::table& merged, std::string_view list, std::string_view field,
                 const std::set<std::string>& flagOrigins, const fs::path& root,
                 std::optional<ConfigError>& missing) {
    toml::array* entries = merged[list].as_array();
    if (!entries)
        return;
    for (std::size_t i = 0; i < entries->size(); ++i) {
        toml::table* entry = entries->get(i)->as_table();
        toml::node* value = entry ? entry->get(field) : nullptr;
        if (!value)
            continue;
        const std::string key =
            std::string(list) + "[" + std::to_string(i) + "]." + std::string(field);
        // "deformer 'boot': ", as the importer's own lines name the entry.
        const toml::node* name = entry->get("name");
        const std::string who = name && name->is_string()
                                    ? std::string(list) + " '" + **name->as_string() + "': "
                                    : std::string();
        auto error = resolveOne(*value, key, flagOrigins, root, list, who);
        if (error && !missing)
            missing = std::move(error);
    }
}

} // namespace

std::optional<ConfigError> resolveFileKeys(toml::table& merged,
                                           const std::set<std::string>& flagOrigins,
                                           const fs::path& root) {
    constexpr std::pair<std::string_view, std::string_view> kLists[] = {{"deformer", "mesh"},
                                                                        {"crowd", "mesh"},
                                                                        {"body", "mesh"},
                                                                        {"vehicle", "chassis_mesh"},
                                                                        {"foliage", "mesh"}};
    std::optional<ConfigError> missing;
    for (const auto& [list, field] : kLists)
        resolveList(merged, list, field, flagOrigins, root, missing);
    if (toml::table* ground = merged["ground"].as_table())
        if (toml::node* texture = ground->get("texture"))
            if (auto error = resolveOne(*texture, "ground.texture", flagOrigins, root, "ground");
                error && !missing)
                missing = std::move(error);
    if (toml::table* terrain = merged["terrain"].as_table())
        for (const char* key : {"file", "mesh_file"})
            if (toml::node* file = terrain->get(key))
                if (auto error = resolveOne(*file, "terrain." + std::string(key), flagOrigins, root,
                                            "terrain");
                    error && !missing)
                    missing = std::move(error);
    return missing;
}

} // namespace snowcap::config_files
