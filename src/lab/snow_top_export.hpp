#pragma once
// terrain.export_snow_top (docs/terrain_files.md): each sim's final snow top, measured as the
// surface draws it, on the terrain's own samples, written by terrain/snow_top_file.hpp as
// snow_top_X.png / .exr / .toml beside a run's stats.json.

#include "core/settings.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"
#include "terrain/height_field.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

// The most pixels a side of the view the snow top is measured from (a sim's buffer resolution
// up to this).
inline constexpr int kMaxSnowTopSide = 2048;

// Sim `sim`'s snow top in metres, in the terrain's frame: at each sample, the terrain's height
// plus the undisturbed snow (snow.depth_cm) plus what the surface's Height stage shows there
// (a print's depth below the undisturbed top, negative; a rim or fresh snow above it), seen
// from straight above at the sim's buffer resolution (at most kMaxSnowTopSide); beyond the
// sim's region the snow is undisturbed. Read as a terrain, its ground is this snow top. The
// samples are the terrain's own (the same extent, centre and count); on flat terrain, the
// sim's region at the measuring view's resolution.
HeightField measureSnowTop(SnowField& field, SceneRenderer& renderer, int sim,
                           const Settings& settings);

// Every sim's snow top into `dir` as snow_top_X.png, .exr and .toml, in the import's mapping
// (terrain/snow_top_file.hpp's snowTopMapping); each whole file appended to `written`.
std::optional<std::string> writeSnowTops(const std::filesystem::path& dir, const Settings& settings,
                                         SnowField& field, SceneRenderer& renderer,
                                         std::vector<std::filesystem::path>* written);

} // namespace snowcap
