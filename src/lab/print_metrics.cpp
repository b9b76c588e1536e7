#include "lab/print_metrics.hpp"

#include "core/sim_clock.hpp"
#include "render/frame.hpp"
#include "render/view_params.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace snowcap {

MeasuredFade measureFade(const std::vector<float>& values, double dtS) {
    MeasuredFade fade;
    const auto value = [&](std::size_t k) {
        return std::isfinite(values[k]) ? double(values[k]) : 0.0;
    };
    double peak = 0.0;
    std::size_t last = 0;
    for (std::size_t k = 0; k < values.size(); ++k)
        if (value(k) > 0.0 && value(k) >= peak) {
            peak = value(k);
            last = k; // the LAST step at the peak: a held contact ends there
        }
    if (peak <= 0.0)
        return fade;
    fade.peak = peak;
    fade.startS = (last + 1) * dtS;
    for (std::size_t k = last + 1; k < values.size(); ++k) {
        const double v = value(k);
        const double since = (k - last) * dtS;
        if (!fade.to50S && v <= 0.5 * peak)
            fade.to50S = since;
        if (!fade.to10S && v <= 0.1 * peak)
            fade.to10S = since;
        if (v == 0.0) {
            fade.toZeroS = since;
            break;
        }
    }
    return fade;
}

PredictedFade predictFade(const SimSettings& sim, double fps, double horizonS) {
    const std::vector<double> curve =
        fadeCurve(AccumulateLaw::of(sim, CaptureSettings{}), fps, horizonS, 0.0);
    PredictedFade fade;
    for (std::size_t i = 0; i < curve.size(); ++i) {
        const double t = i / fps;
        if (!fade.to50S && curve[i] <= 0.5)
            fade.to50S = t;
        if (!fade.to10S && curve[i] <= 0.1)
            fade.to10S = t;
        if (!fade.toZeroS && curve[i] == 0.0)
            fade.toZeroS = t;
    }
    return fade;
}

namespace {

// Seconds as a label reads them: three significant figures, minutes past two minutes.
std::string duration(double seconds) {
    if (seconds >= 120.0)
        return fmt::format("{:.3g} min", seconds / 60.0);
    return fmt::format("{:.3g} s", seconds);
}

} // namespace

std::string simHeadline(const SnowField& field, int s, double fps) {
    if (!field.enabled())
        return {};
    const SnowSim& sim = field.sim(s);
    if (const SnowpackSim* snowpack = sim.snowpack()) {
        if (!snowpack->allocated())
            return {};
        const SnowpackBudget budget = snowpack->budget();
        return fmt::format("mean depth {:.1f} cm, mass {:.0f} kg", budget.meanDepthCm,
                           budget.massKg);
    }
    const PredictedFade fade = predictFade(sim.settings(), fps);
    if (!fade.to50S)
        return "no fade within 1 h";
    // A linear refill is flat at zero soon after its half-life: the end is the figure.
    if (fade.toZeroS && (!fade.to10S || *fade.toZeroS <= 1.5 * *fade.to10S))
        return fmt::format("half-life {}, gone after {}", duration(*fade.to50S),
                           duration(*fade.toZeroS));
    if (!fade.to10S)
        return fmt::format("half-life {}", duration(*fade.to50S));
    return fmt::format("half-life {}, 10 % after {}", duration(*fade.to50S), duration(*fade.to10S));
}

Relief measureRelief(SnowField& field, SceneRenderer& renderer, int sim, const Settings& settings) {
    const Region& region = field.sim(sim).region();
    const int side = std::min(region.resolution, kMaxReliefSide);
    gpu::Texture2D colour(side, side, gpu::TextureFormat::RGBA32F, "relief.colour");
    gpu::Texture2D depth(side, side, gpu::TextureFormat::D32F, "relief.depth");
    gpu::Framebuffer framebuffer(&colour, &depth, "relief");
    FrameView view;
    view.sim = sim;
    view.request.framebuffer = framebuffer.id();
    view.request.camera = topCamera(region, settings.snow.surfaceZCm, 1.0);
    view.request.viewportPx = {0, 0, side, side};
    view.request.output = SurfaceOutput::Height;
    // No deformers: they would cover the prints they make, and the Height stage is the snow's.
    runFrame(field, renderer, {{}, 0.0, {{view}}});
    const std::vector<float> texels = colour.readFloats();
    // On a terrain the Height stage is the point's height above snow.surface_z_cm, the terrain's
    // included: the relief is what is left above the terrain under each pixel's centre.
    const std::shared_ptr<const HeightField>& terrain = field.terrain();
    const bool flat = !terrain || terrain->flat();
    const glm::dvec2 low = region.centreCm - glm::dvec2(0.5 * region.widthCm);
    const double pixelCm = region.widthCm / side;
    Relief relief;
    for (std::size_t i = 0; i < texels.size(); i += 4) {
        if (!std::isfinite(texels[i]))
            continue;
        const std::size_t pixel = i / 4;
        const double height =
            flat ? double(texels[i])
                 : double(texels[i]) -
                       terrain->heightCm(
                           low.x + (double(pixel % std::size_t(side)) + 0.5) * pixelCm,
                           low.y + (double(pixel / std::size_t(side)) + 0.5) * pixelCm);
        relief.deepestCm = std::max(relief.deepestCm, -height);
        relief.crestCm = std::max(relief.crestCm, height);
    }
    return relief;
}

} // namespace snowcap
