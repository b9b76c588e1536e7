#pragma once
// Renders a sim of a field into an offscreen float image (the tests' view of the final frame).
#include "render/frame.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"

#include <cmath>
#include <vector>

namespace snowcap::test {

// RGBA floats, bottom row first, of sim `s` seen by `settings.view`'s camera (perspective by
// default) or from straight above (top = true).
inline std::vector<float> renderSim(SceneRenderer& renderer, SnowField& field, int s,
                                    const Settings& settings, int width, int height,
                                    SurfaceOutput output = SurfaceOutput::Lit, bool top = false) {
    gpu::Texture2D colour(width, height, gpu::TextureFormat::RGBA32F, "test.colour");
    gpu::Texture2D depth(width, height, gpu::TextureFormat::D32F, "test.depth");
    gpu::Framebuffer framebuffer(&colour, &depth, "test.fbo");
    const double aspect = double(width) / height;
    FrameView view;
    view.sim = s;
    view.request.framebuffer = framebuffer.id();
    view.request.camera =
        top ? topCamera(field.sim(s).region(), settings.snow.surfaceZCm, aspect)
            : cameraFor(settings.view, field.sim(s).region(), settings.snow.surfaceZCm, aspect);
    view.request.viewportPx = {0, 0, width, height};
    view.request.output = output;
    runFrame(field, renderer, {{}, 0.0, {{view}}}); // a frame without a step: blur, then the view
    return colour.readFloats();
}

// PSNR in dB of the RGB channels (clamped to [0, 1], peak 1); infinity when equal.
inline double psnrRgb(const std::vector<float>& a, const std::vector<float>& b) {
    double sum = 0.0;
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (i % 4 == 3)
            continue;
        const double d = std::clamp(double(a[i]), 0.0, 1.0) - std::clamp(double(b[i]), 0.0, 1.0);
        sum += d * d;
        ++n;
    }
    const double mse = sum / double(n);
    return mse == 0.0 ? INFINITY : 10.0 * std::log10(1.0 / mse);
}

} // namespace snowcap::test
