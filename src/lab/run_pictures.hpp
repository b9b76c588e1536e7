#pragma once
// The pictures a headless run composes: final.png (the scene as a person sees it, a pane per
// sim, or one material stage), buffers.png (every sim's persistent buffer, colour-mapped), and
// the colour read-back that `render` and the sweep's tiles share.

#include "core/settings.hpp"
#include "gpu/objects.hpp"
#include "io/image.hpp"
#include "io/legend.hpp"
#include "render/frame.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace snowcap {

// The colour key of a sim's panel in buffers.png: the mask 0..1, or a snowpack's depth 0 (the
// ground) .. twice its initial depth.
ColourKey bufferKey(const SimSettings& settings);
// One sim's buffer values (R, rows bottom first as read back) as buffers.png shows them:
// colour-mapped by `key`, at least 512 and at most 1024 pixels wide, `label` fitted along the
// top, a length bar for a region `regionWidthCm` wide, and the key below. No GL.
ImageRgba8 labelledBufferPanel(const ImageFloat& values, const std::string& label,
                               double regionWidthCm, const ColourKey& key);

// Every sim's persistent buffer, colour-mapped and labelled, in the pane grid of final.png
// (render/frame.hpp: A | B, A B / C D, ...).
std::optional<std::string> writeBufferImage(const SnowField& field,
                                            const std::filesystem::path& path);

// A debug output texel (RGBA float) of `output` as a display colour (final.png's stages):
// persistent and mask 0..1 and height -depth..0 cm colour-mapped, normal as rgb = n / 2 + 1/2,
// the scalar stages as linear grey, the lit colour gamma-encoded.
glm::u8vec4 stageColour(SurfaceOutput output, const float* texel, float snowDepthCm);

// The colour target a frame draws `output` into: RGBA8 for the lit view (the shader's own
// bytes), RGBA32F for a material stage (stageColour maps it on the CPU).
gpu::TextureFormat colourTargetFormat(SurfaceOutput output);
// That target read back as a top-row-first image, a stage through stageColour.
ImageRgba8 readColourTarget(const gpu::Texture2D& colour, SurfaceOutput output, float snowDepthCm);

// The scene as a person sees it: a pane per sim (A | B; A B / C D for 3 or 4 sims; 2 rows for
// more, render/frame.hpp's paneGrid), each the same camera over its own sim, labelled;
// a frame without a step (render/frame.hpp), so it blurs what is due first.
// Other outputs show one material stage instead (stageColour).
// One line per sim, as its pane in final.png reads: "A: decay 0.999 (delta_time): t = 15.0 s:
// half-life 11.6 s, 10 % after 38.4 s" (lab/print_metrics.hpp's simHeadline).
std::vector<std::string> simFigureLines(const SnowField& field, double fps);

ImageRgba8 renderFinalImage(SnowField& field, SceneRenderer& renderer,
                            std::span<const DeformerInstance> deformers, const Settings& settings,
                            SurfaceOutput output = SurfaceOutput::Lit);
std::optional<std::string> writeFinalImage(SnowField& field, SceneRenderer& renderer,
                                           std::span<const DeformerInstance> deformers,
                                           const Settings& settings,
                                           const std::filesystem::path& path,
                                           SurfaceOutput output = SurfaceOutput::Lit);

} // namespace snowcap
