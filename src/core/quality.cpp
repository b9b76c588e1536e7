#include "core/quality.hpp"

#include <algorithm>

namespace snowcap {

QualityRung qualityRung(Quality quality) {
    // Resolution halves per rung down from the seed's 2048 default. The blur radius is left to
    // sim.X.material.rt_blur_distance (a size in the world, so a scenario's prints keep their
    // width on every rung; 0 = the seed's table, ~20 texels, which widens prints on low rungs).
    // The cheap rungs take the separable blur (a Gaussian of the spiral's spread at half
    // resolution, one tap in the material, docs/improvements.md §12); the grid
    // keeps about two texels per cell on low/medium, one on high; ultra tessellates.
    switch (quality) {
    case Quality::Custom:
    case Quality::Off:
        return {};
    case Quality::Low:
        return {512, BlurMode::Separable, 8, 6, 128, SurfaceGeometry::VertexGrid, 0.5f};
    case Quality::Medium:
        return {1024, BlurMode::Separable, 12, 8, 256, SurfaceGeometry::VertexGrid};
    case Quality::High:
        return {2048, BlurMode::PerPixel, 16, 8, 512, SurfaceGeometry::VertexGrid};
    case Quality::Ultra:
        return {4096, BlurMode::PerPixel, 16, 8, 512, SurfaceGeometry::Tessellation};
    }
    return {};
}

Settings effectiveSettings(const Settings& settings) {
    if (settings.snow.quality == Quality::Custom || settings.snow.quality == Quality::Off)
        return settings; // off keeps the keys; snowDisabled() stops everything that would use them
    const QualityRung rung = qualityRung(settings.snow.quality);
    Settings out = settings;
    out.snow.resolution = rung.resolution;
    for (SimSettings& sim : out.sims) {
        sim.resolution = 0;
        sim.blur = rung.blur;
        sim.material.distanceSteps = rung.distanceSteps;
        sim.material.radialSteps = rung.radialSteps;
        sim.displacement = rung.displacement;
    }
    return out;
}

int surfaceGridCells(Quality quality, int resolution) {
    if (quality == Quality::Custom)
        return std::min(resolution, 512);
    return qualityRung(quality).gridCells;
}

} // namespace snowcap
