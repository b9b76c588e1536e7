#include "lab/print_metrics.hpp"

#include "core/sim_clock.hpp"
#include "render/frame.hpp"
#include "render/view_params.hpp"

#include <algorithm>
#include <cmath>

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
    Relief relief;
    for (std::size_t i = 0; i < texels.size(); i += 4) {
        if (!std::isfinite(texels[i]))
            continue;
        relief.deepestCm = std::max(relief.deepestCm, -double(texels[i]));
        relief.crestCm = std::max(relief.crestCm, double(texels[i]));
    }
    return relief;
}

} // namespace snowcap
