#include "lab/run_plots.hpp"

#include "io/legend.hpp"
#include "io/plot.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace snowcap {

namespace fs = std::filesystem;

std::optional<std::string> writeCaptureDepthImage(const SnowField& field, const Settings& settings,
                                                  const fs::path& path) {
    const ContactCapture& capture = field.captureOf(0);
    const ImageFloat depth = readCaptureDepthCm(capture); // cm above the camera, far = nothing
    // The camera looks up from capture_z below the top: a deformer d cm above it is
    // (top - camera - d) cm below the snow top.
    const double topAboveCameraCm = settings.snow.surfaceZCm - capture.key().cameraZCm;
    const float deepest = static_cast<float>(std::max(settings.snow.depthCm, 1.0));
    const glm::u8vec4 none{60, 60, 60, 255};
    const int factor = std::max(1, (depth.width + 1023) / 1024); // at most 1024 pixels wide
    const int width = std::max(1, depth.width / factor),
              height = std::max(1, depth.height / factor);
    ImageRgba8 picture(width, height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            // The deepest point in the block: a thin print still shows when shrunk.
            float nearest = INFINITY;
            for (int j = 0; j < factor; ++j)
                for (int i = 0; i < factor; ++i)
                    nearest = std::min(nearest, depth.at(x * factor + i, y * factor + j));
            const double below = topAboveCameraCm - nearest;
            picture.set(x, height - 1 - y,
                        below > 0.0 ? colourMap(ColourMap::Inferno, float(below / deepest)) : none);
        }
    const int minimum = 512;
    if (picture.width < minimum) { // small test captures: whole pixels, readable text
        const int k = minimum / picture.width + (minimum % picture.width ? 1 : 0);
        ImageRgba8 big(picture.width * k, picture.height * k);
        for (int y = 0; y < big.height; ++y)
            for (int x = 0; x < big.width; ++x)
                big.set(x, y, picture.at(x / k, y / k));
        picture = std::move(big);
    }
    const int scale = picture.width >= 384 ? 2 : 1;
    drawLabel(picture, 6, 6, "capture depth from below (sim A's region)", {255, 255, 255, 255},
              scale);
    drawLengthBar(picture, picture.width / capture.key().region.widthCm, scale);
    ColourKey key;
    key.lo = 0.0f;
    key.hi = deepest;
    key.caption = fmt::format("cm below the snow top (ground at {:g})", settings.snow.depthCm);
    key.otherLabel = "none";
    key.otherColour = none;
    return writePng(path, withColourKey(picture, key, scale));
}

std::variant<bool, std::string> writeProbePlot(const RunRecorder& recorder, const SnowField& field,
                                               const Settings& settings, const fs::path& path) {
    if (recorder.probes().empty())
        return false;
    std::vector<SimModel> models;
    for (int s = 0; s < field.simCount(); ++s)
        models.push_back(field.sim(s).settings().model);
    if (auto error = writePng(
            path, probePlotImage(recorder.probes(), models, recorder.frames(), settings.run.fps)))
        return *error;
    return true;
}

ImageRgba8 probePlotImage(std::span<const RunRecorder::Probe> probes,
                          std::span<const SimModel> models, long long frames, double fps) {
    const double dt = 1.0 / fps;
    // One plot per unit: a mask sim's probe reads its persistent value (0..1), a snowpack's the
    // snow depth in cm, and the two never share a y axis.
    std::vector<PlotSeries> decaySeries, snowpackSeries;
    int index = 0;
    for (const auto& probe : probes)
        for (int s = 0; s < int(models.size()) && s < int(probe.values.size()); ++s) {
            PlotSeries line;
            line.label = fmt::format("{} {}", probe.name, char('A' + s));
            line.colour = plotColour(index++);
            line.dashed = s % 2 == 1;
            for (std::size_t i = 0; i < probe.values[s].size(); ++i) {
                line.x.push_back((i + 1) * dt);
                line.y.push_back(std::isfinite(probe.values[s][i]) ? probe.values[s][i] : NAN);
            }
            (models[s] == SimModel::Snowpack ? snowpackSeries : decaySeries)
                .push_back(std::move(line));
        }
    const bool both = !decaySeries.empty() && !snowpackSeries.empty();
    PlotOptions options;
    options.title = "probe values over the run";
    options.xLabel = "simulated time, s";
    options.xMin = 0.0;
    options.xMax = std::max(dt, double(frames) * dt);
    PlotOptions decayOptions = options, snowpackOptions = options;
    decayOptions.yLabel = "persistent value (0..1)";
    decayOptions.yMin = 0.0;
    decayOptions.yMax = 1.0;
    snowpackOptions.yLabel = "snow depth, cm";
    if (!both)
        return snowpackSeries.empty() ? renderPlot(decaySeries, decayOptions)
                                      : renderPlot(snowpackSeries, snowpackOptions);
    // Mask sims above, snowpack sims below, on one time axis.
    decayOptions.height = snowpackOptions.height = options.height * 3 / 4;
    decayOptions.title = "probe values over the run: mask sims";
    snowpackOptions.title = "probe values over the run: snowpack sims";
    const ImageRgba8 top = renderPlot(decaySeries, decayOptions);
    const ImageRgba8 bottom = renderPlot(snowpackSeries, snowpackOptions);
    ImageRgba8 out(std::max(top.width, bottom.width), top.height + bottom.height,
                   {255, 255, 255, 255});
    out.blit(top, 0, 0);
    out.blit(bottom, 0, top.height);
    return out;
}

} // namespace snowcap
