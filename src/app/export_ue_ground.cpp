#include "app/export_ue_ground.hpp"

#include "core/config.hpp"
#include "core/ground.hpp"
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
