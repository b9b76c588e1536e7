#pragma once
// The ground in an Unreal card (`snowcap export-ue`, docs/unreal.md §6): [ground]'s layer under
// the snow as the material's ground inputs, and for kind = "texture" the PNG copied beside the
// card, read as the field reads it (snow/ground_texture.hpp: an untrusted file, a PNG within
// 8192 pixels a side whose pixel data fills it), so the card never names a file Unreal could
// not import. No GL.

#include "core/settings.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace snowcap {

// The card's "Ground" section for `settings` (kind, albedo, [occlusion, roughness], the share
// water darkens; for a texture its file as written beside the card, `copiedName`, and its tile).
nlohmann::ordered_json ueGroundSection(const Settings& settings, const std::string& copiedName);
// The section as Markdown (a table under "## Ground").
std::string ueGroundMarkdown(const nlohmann::ordered_json& ground);
// The editor script's part for the section: sets the ground's parameters on the material
// instance the script has loaded into the Python variable `instance` (Ground_Albedo as a
// vector, or for a texture the PNG beside the script imported and set as Ground_Texture with
// its Ground_Texture_Tile; Ground_Occlusion, Ground_Roughness and Ground_Wet_Darkening as
// scalars), warning for each parameter the instance lacks. The caller saves the instance.
std::string ueGroundEditorPython(const nlohmann::ordered_json& ground, std::string_view instance);
// kind = "texture": checks ground.texture (under `root` unless absolute) is a PNG the field
// would take and copies its bytes to `to`; nothing for the other kinds. The one line saying why
// not on failure ("key 'ground.texture': PATH: reason").
std::optional<std::string> copyGroundTexture(const Settings& settings,
                                             const std::filesystem::path& root,
                                             const std::filesystem::path& to);

} // namespace snowcap
