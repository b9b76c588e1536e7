#include "app/export_ue_ground.hpp"

#include "app/export_ue_card.hpp"
#include "core/config.hpp"
#include "core/ground.hpp"
#include "core/param_range.hpp"
#include "core/untrusted_file.hpp"
#include "io/image.hpp"
#include "snow/ground_texture.hpp"

#include <cmath>
#include <fmt/format.h>

namespace snowcap {

using json = nlohmann::ordered_json;

namespace {

json entry(json value, const char* unit, const char* key, const std::string& note = "") {
    return {{"value", std::move(value)}, {"unit", unit}, {"snowcap", key}, {"note", note}};
}

// A float as the decimal it was written as (0.4f, not 0.4000000059604645).
double decimal(float x) {
    return std::round(double(x) * 1e6) / 1e6;
}

} // namespace

json ueGroundSection(const Settings& settings, const std::string& copiedName) {
    const GroundSettings& ground = settings.ground;
    const GroundLayer layer = groundLayer(ground, settings.look);
    const bool texture = ground.kind == GroundKind::Texture;
    json section;
    section["Kind"] = entry(std::string(toString(ground.kind)), "", "ground.kind");
    if (texture) {
        section["Ground_Texture"] =
            entry(copiedName, "file", "ground.texture",
                  fmt::format("copied beside this card from {}; import it as a Texture2D (sRGB, "
                              "wrap), M_Snow's ground albedo where the ground shows",
                              ground.texture));
        section["Ground_Texture_Tile"] =
            entry(ground.textureTileCm, "cm", "ground.texture_tile_cm",
                  "one repeat covers this square of ground, from the world origin, the file's "
                  "top row towards +Y: UV = WorldPosition.xy / tile");
    } else {
        section["Ground_Albedo"] = entry(
            json::array(
                {decimal(layer.colour.x), decimal(layer.colour.y), decimal(layer.colour.z)}),
            "linear rgb", ground.kind == GroundKind::Colour ? "look.ground_colour" : "ground.kind",
            "varied by the landscape's detail noise");
    }
    section["Ground_OR"] =
        entry(json::array({layer.orValues[0], layer.orValues[1]}), "[occlusion, roughness]",
              ground.kind == GroundKind::Colour || texture ? "look.ground_or" : "ground.kind");
    section["Ground_Wet_Darkening"] =
        entry(decimal(layer.wetDarkening), "share of the albedo at 5 kg/m2", "ground.kind",
              "a snowpack's water in the column darkens the ground by this much (0: never)");
    return section;
}

std::string ueGroundMarkdown(const json& ground) {
    std::string md = "\n## Ground\n\n| Unreal | value | unit | snowcap key | note |\n"
                     "| --- | --- | --- | --- | --- |\n";
    for (const auto& [name, e] : ground.items()) {
        const json& value = e.at("value");
        md += fmt::format("| {} | `{}` | {} | `{}` | {} |\n", name,
                          value.is_string() ? value.get<std::string>() : value.dump(),
                          e.at("unit").get<std::string>(), e.at("snowcap").get<std::string>(),
                          e.at("note").get<std::string>());
    }
    return md;
}

std::string ueGroundEditorPython(const json& ground, std::string_view instance) {
    const json& orValues = ground.at("Ground_OR").at("value");
    std::string py =
        fmt::format("\n# The ground under the snow (the card's Ground section, kind {}).\n"
                    "ground_values = {{\n"
                    "    'Ground_Occlusion': {},\n"
                    "    'Ground_Roughness': {},\n"
                    "    'Ground_Wet_Darkening': {},\n",
                    ground.at("Kind").at("value").get<std::string>(),
                    show(orValues.at(0).get<double>()), show(orValues.at(1).get<double>()),
                    show(ground.at("Ground_Wet_Darkening").at("value").get<double>()));
    if (ground.contains("Ground_Texture")) {
        py += fmt::format(
            "    'Ground_Texture_Tile': {},\n"
            "}}\n"
            "import os\n"
            "try:  # the PNG the export copied beside this script\n"
            "    here = os.path.dirname(os.path.abspath(__file__))\n"
            "except NameError:  # pasted into the Output Log: from the working directory\n"
            "    here = os.getcwd()\n"
            "task = unreal.AssetImportTask()\n"
            "task.set_editor_property('filename', os.path.join(here, {}))\n"
            "task.set_editor_property('destination_path', '/Game/Snow')\n"
            "task.set_editor_property('automated', True)\n"
            "task.set_editor_property('save', True)\n"
            "unreal.AssetToolsHelpers.get_asset_tools().import_asset_tasks([task])\n"
            "imported = list(task.get_editor_property('imported_object_paths'))\n"
            "if not imported:\n"
            "    unreal.log_warning(f'{{task.filename}}: not imported as a texture')\n"
            "elif not "
            "unreal.MaterialEditingLibrary.set_material_instance_texture_parameter_value(\n"
            "        {}, 'Ground_Texture',\n"
            "        unreal.EditorAssetLibrary.load_asset(imported[0])):\n"
            "    unreal.log_warning('ground: no texture parameter Ground_Texture')\n",
            show(ground.at("Ground_Texture_Tile").at("value").get<double>()),
            pythonString(ground.at("Ground_Texture").at("value").get<std::string>()), instance);
    } else {
        const json& albedo = ground.at("Ground_Albedo").at("value");
        py += fmt::format(
            "}}\n"
            "if not unreal.MaterialEditingLibrary.set_material_instance_vector_parameter_value(\n"
            "        {}, 'Ground_Albedo', unreal.LinearColor({}, {}, {}, 1.0)):\n"
            "    unreal.log_warning('ground: no vector parameter Ground_Albedo')\n",
            instance, show(albedo.at(0).get<double>()), show(albedo.at(1).get<double>()),
            show(albedo.at(2).get<double>()));
    }
    return py + fmt::format("for name, value in ground_values.items():\n"
                            "    if not unreal.MaterialEditingLibrary.set_material_instance_scalar_"
                            "parameter_value(\n"
                            "            {}, name, value):\n"
                            "        unreal.log_warning(f'ground: no scalar parameter {{name}}')\n",
                            instance);
}

std::optional<std::string> copyGroundTexture(const Settings& settings,
                                             const std::filesystem::path& root,
                                             const std::filesystem::path& to) {
    if (settings.ground.kind != GroundKind::Texture)
        return std::nullopt;
    // As the field reads it: a file it would refuse is refused here, in its words.
    if (auto read = GroundTexture::read(settings.ground, root);
        auto* error = std::get_if<std::string>(&read))
        return *error;
    const std::filesystem::path from = groundTexturePath(settings.ground, root);
    auto bytes = readUntrustedBytes(from, kMaxGroundTextureBytes, "ground.texture");
    if (auto* error = std::get_if<std::string>(&bytes))
        return "key 'ground.texture': " + *error;
    return writeFileAtomically(to, std::get<std::vector<std::uint8_t>>(bytes));
}

} // namespace snowcap
