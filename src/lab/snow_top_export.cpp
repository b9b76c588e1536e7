#include "lab/snow_top_export.hpp"

#include "render/frame.hpp"
#include "render/view_params.hpp"
#include "terrain/snow_top_file.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace snowcap {

namespace fs = std::filesystem;

HeightField measureSnowTop(SnowField& field, SceneRenderer& renderer, int sim,
                           const Settings& settings) {
    const Region& region = field.sim(sim).region();
    const int side = std::min(region.resolution, kMaxSnowTopSide);
    const std::shared_ptr<const HeightField>& terrain = field.terrain();
    const bool flat = !terrain || terrain->flat();
    const HeightSpan span = flat ? HeightSpan{} : terrain->spanCm();

    // The Height stage from straight above over the region, no deformers (they would hide the
    // prints they make): one pixel's centre each (side x side) across it, south row first. The
    // camera stands a metre and a half above the highest ground there could be, and sees down to
    // well below the lowest.
    std::vector<float> relief;
    if (field.enabled()) {
        gpu::Texture2D colour(side, side, gpu::TextureFormat::RGBA32F, "snow_top.colour");
        gpu::Texture2D depth(side, side, gpu::TextureFormat::D32F, "snow_top.depth");
        gpu::Framebuffer framebuffer(&colour, &depth, "snow_top");
        const double topCm = settings.snow.surfaceZCm + span.highCm + 150.0;
        const double reachCm = span.highCm - span.lowCm + settings.snow.depthCm + 1000.0;
        const glm::vec3 eye(region.centreCm.x, region.centreCm.y, topCm);
        const float half = float(region.widthCm * 0.5);
        Camera camera;
        camera.eyeCm = eye;
        camera.view = glm::lookAt(eye, eye - glm::vec3(0, 0, 1), glm::vec3(0, 1, 0));
        camera.projection = glm::ortho(-half, half, -half, half, 1.0f, float(reachCm + 150.0));
        FrameView view;
        view.sim = sim;
        view.request.framebuffer = framebuffer.id();
        view.request.camera = camera;
        view.request.viewportPx = {0, 0, side, side};
        view.request.output = SurfaceOutput::Height;
        runFrame(field, renderer, {{}, 0.0, {{view}}});
        const std::vector<float> texels = colour.readFloats();
        relief.resize(std::size_t(side) * side);
        for (std::size_t i = 0; i < relief.size(); ++i)
            relief[i] = std::isfinite(texels[4 * i]) ? texels[4 * i] : 0.0f;
    }
    // The relief (cm) at world (x, y): the pixel whose square holds it; 0 beyond the region.
    const glm::dvec2 regionLow = region.centreCm - glm::dvec2(0.5 * region.widthCm);
    const auto reliefCm = [&](double x, double y) -> double {
        if (relief.empty())
            return 0.0;
        const double u = (x - regionLow.x) / region.widthCm * side;
        const double v = (y - regionLow.y) / region.widthCm * side;
        if (!(u >= 0.0 && u < side && v >= 0.0 && v < side))
            return 0.0;
        const double stage = relief[std::size_t(v) * side + std::size_t(u)];
        if (flat)
            return stage;
        // On a terrain the Height stage is the point's height above snow.surface_z_cm, the
        // terrain's included: the relief is what is left above the terrain under the pixel.
        const double pixelCm = region.widthCm / side;
        return stage - terrain->heightCm(regionLow.x + (std::floor(u) + 0.5) * pixelCm,
                                         regionLow.y + (std::floor(v) + 0.5) * pixelCm);
    };

    const HeightField grid =
        flat ? HeightField(side, side, std::vector<float>(std::size_t(side) * side, 0.0f),
                           region.centreCm, glm::dvec2(region.widthCm))
             : *terrain;
    const glm::dvec2 low = grid.centreCm() - 0.5 * grid.sizeCm();
    const glm::dvec2 cell = grid.cellCm();
    std::vector<float> heights(grid.heightsM().size());
    for (int row = 0; row < grid.rows(); ++row)
        for (int column = 0; column < grid.columns(); ++column) {
            // Row 0 is north: the cell centre's y counts down from the north edge.
            const double x = low.x + (column + 0.5) * cell.x;
            const double y = low.y + (grid.rows() - row - 0.5) * cell.y;
            const double snowCm = settings.snow.depthCm + reliefCm(x, y);
            heights[std::size_t(row) * grid.columns() + column] =
                float(double(grid.sampleM(column, row)) + snowCm / 100.0);
        }
    return HeightField(grid.columns(), grid.rows(), std::move(heights), grid.centreCm(),
                       grid.sizeCm());
}

std::optional<std::string> writeSnowTops(const fs::path& dir, const Settings& settings,
                                         SnowField& field, SceneRenderer& renderer,
                                         std::vector<fs::path>* written) {
    for (int s = 0; s < field.simCount(); ++s) {
        const HeightField top = measureSnowTop(field, renderer, s, settings);
        const fs::path stem = dir / ("snow_top_" + std::string(simName(s)));
        if (auto error =
                writeSnowTopFiles(stem, top, snowTopMapping(top, settings.terrain), written))
            return error;
    }
    return std::nullopt;
}

} // namespace snowcap
