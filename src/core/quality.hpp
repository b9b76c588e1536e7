#pragma once
// snow.quality (the "fold to zero" of Snow that remembers): one knob that sets the buffer
// resolution, the blur and the surface's geometry density together. "custom" leaves the individual
// keys alone; the rungs off..ultra override them for both sims. Pure functions, no GL: SnowField
// applies them when it configures, and tests pin what each rung asks for.

#include "core/config.hpp" // toString(Quality)
#include "core/settings.hpp"

#include <optional>
#include <string>
#include <vector>

namespace snowcap {

// What one rung asks for. resolution 0 and gridCells 0 mean "nothing": no texture, no pass.
struct QualityRung {
    int resolution = 0; // texels per side of every sim's buffer (and capture)
    BlurMode blur = BlurMode::PerPixel;
    int distanceSteps = 0; // spiral rings
    int radialSteps = 0;   // spiral taps per ring
    int gridCells = 0;     // vertex-grid cells per side of the displaced surface
    SurfaceGeometry displacement = SurfaceGeometry::VertexGrid;
    // Pixels per side at which the lit snow is shaded, as a fraction of the view's (1 = every
    // pixel; below 1 the surface is upsampled with depth awareness, render/surface_upsample.hpp).
    float shadingScale = 1.0f;
};

// The rung the viewer starts on when the renderer is a CPU rasteriser (llvmpipe) and the
// scenario asks for no rung of its own; the bench's frame_ab "default" case runs it too.
inline constexpr Quality kLlvmpipeStartQuality = Quality::Low;

// The rung's values; Quality::Custom has none (returns the off rung's zeros: callers check
// isCustom first).
QualityRung qualityRung(Quality quality);

// The settings the field actually runs: `settings` itself for custom, else with every sim's
// resolution, blur mode, spiral steps and displacement taken from the rung; sim.X.resolution is
// cleared so both sims follow snow.resolution. Everything else is kept, the blur radius
// (rt_blur_distance) included.
Settings effectiveSettings(const Settings& settings);

// A key the settings give another value than the table's default and that `rung` replaces:
// "sim.a.blur", given "prepass", rung "separable" (per sim; snow.resolution once). What a
// default rung overrides of what a scenario chose.
struct RungChange {
    std::string key;
    std::string given;
    std::string rungValue;
};
std::vector<RungChange> rungChanges(const Settings& settings, Quality rung);

// The keys a rung sets alike for every sim ("blur", "resolution", "material.distance_steps",
// ...) in which the settings' sims differ: running `settings` on a rung would make the sims
// equal in them and void the comparison they exist for. Empty when there is none.
std::vector<std::string> comparisonsVoidedBy(const Settings& settings);

// "snow.quality = low sets blur alike for every sim: the sims no longer differ in it" when the
// settings run a rung that voids their comparison; nothing otherwise.
std::optional<std::string> voidedComparisonNote(const Settings& settings);

// Why a CPU rasteriser's start rung must not run `settings` (the line says so and how its
// sims differ), or nothing when it may: a rung that voids the comparison is no saving.
std::optional<std::string> startRungRefusal(const Settings& settings);

// "snow.quality = low replaces sim.a.blur separable (the scenario's prepass), ..." for what
// rungChanges lists, or nothing when the rung replaces no key the settings chose.
std::optional<std::string> rungReplacesNote(const Settings& settings, Quality rung);

// True when the snow pipeline must not exist at all (quality off).
inline bool snowDisabled(const Settings& settings) {
    return settings.snow.quality == Quality::Off;
}

// Cells per side of the displaced vertex grid: the rung's density, or (custom) one vertex per
// texel up to 512 x 512 cells, enough for the seed's ~20-texel blur to be resolved.
int surfaceGridCells(Quality quality, int resolution);

} // namespace snowcap
