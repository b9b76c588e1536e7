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

namespace snowcap {

// The card's "Ground" section for `settings` (kind, albedo, [occlusion, roughness], the share
// water darkens; for a texture its file as written beside the card, `copiedName`, and its tile).
nlohmann::ordered_json ueGroundSection(const Settings& settings, const std::string& copiedName);
// The section as Markdown (a table under "## Ground").
std::string ueGroundMarkdown(const nlohmann::ordered_json& ground);
// kind = "texture": checks ground.texture (under `root` unless absolute) is a PNG the field
// would take and copies its bytes to `to`; nothing for the other kinds. The one line saying why
// not on failure ("key 'ground.texture': PATH: reason").
std::optional<std::string> copyGroundTexture(const Settings& settings,
                                             const std::filesystem::path& root,
                                             const std::filesystem::path& to);

} // namespace snowcap
