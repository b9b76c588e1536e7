// fade_curves: the fade-out plots of docs/pipeline.md, from the CPU reference alone.
//
//   fade_curves [output directory, default docs/images]
//
// One texel is pressed (mask 0.2) for a second and released; TexelSimulation then runs the
// accumulate pass through time with decay 0.999 per 60 Hz frame (delta_time timing) under each
// design, store rounding and frame rate. Writes fade_original.png, fade_half_safe.png and
// fade_error.png, and prints the table the docs quote.

#include "io/image.hpp"
#include "io/plot.hpp"
#include "snow/cpu_reference.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace snowcap;

namespace {

constexpr double kDecay = 0.999;
constexpr double kPressS = 1.0;
constexpr float kPressMask = 0.2f;
constexpr double kRunS = 300.0;      // after the release; the table's horizon
constexpr double kErrorFloor = 0.05; // relative error is judged while analytic > this
constexpr double kFrameRates[] = {30.0, 60.0, 144.0, 240.0};

// The value after each step from the release on: index 0 is the release (t = 0).
struct Fade {
    double fps = 60.0;
    std::vector<float> values;

    double timeAt(std::size_t i) const { return double(i) / fps; }
};

Fade pressRelease(bool halfSafe, HalfRounding store, double fps) {
    TexelSimulation simulation;
    simulation.sim.decay = kDecay;
    simulation.sim.decayTiming = DecayTiming::DeltaTime;
    simulation.sim.halfSafe = halfSafe;
    simulation.storeRounding = store;
    simulation.fps = fps;
    const int pressSteps = int(std::lround(kPressS * fps));
    const int steps = pressSteps + int(std::lround(kRunS * fps));
    const std::vector<float> all = simulation.run(
        steps, [&](int step, double) { return step < pressSteps ? kPressMask : 0.0f; });
    return {fps, std::vector<float>(all.begin() + (pressSteps - 1), all.end())};
}

double analytic(double seconds) {
    return analyticRemaining(kDecay, seconds);
}

// At most ~60 points a second: enough for the quantum staircase (about 8 steps a second),
// and the stride keeps the exact values (no averaging) so stalls stay flat.
PlotSeries curve(const Fade& fade, std::string label, glm::u8vec4 colour) {
    PlotSeries series{std::move(label), {}, {}, colour};
    const std::size_t stride = std::max<std::size_t>(1, std::size_t(fade.fps / 60.0));
    for (std::size_t i = 0; i < fade.values.size() && fade.timeAt(i) <= kRunS; ++i) {
        // Keep every step near a change to 0 so the line ends where the fade really ends.
        const bool edge =
            i + 1 < fade.values.size() && (fade.values[i + 1] == 0.0f) != (fade.values[i] == 0.0f);
        if (i % stride != 0 && !edge)
            continue;
        series.x.push_back(fade.timeAt(i));
        series.y.push_back(fade.values[i]);
    }
    return series;
}

PlotSeries analyticCurve(std::string label) {
    PlotSeries series{std::move(label), {}, {}, {40, 40, 40, 255}, true};
    for (double t = 0.0; t <= kRunS; t += 0.25) {
        series.x.push_back(t);
        series.y.push_back(analytic(t));
    }
    return series;
}

PlotSeries horizontal(double y, glm::u8vec4 colour, std::string label = "") {
    return PlotSeries{std::move(label), {0.0, kRunS}, {y, y}, colour, true};
}

// Three significant digits, "1.49e-5" rather than printf's "1.49e-05".
std::string shortNumber(double value) {
    char text[32];
    if (value >= 1e-3) {
        std::snprintf(text, sizeof text, "%.3g", value);
    } else {
        const int exponent = int(std::floor(std::log10(value)));
        std::snprintf(text, sizeof text, "%.2fe%d", value / std::pow(10.0, exponent), exponent);
    }
    return text;
}

struct Summary {
    double worstError = 0.0; // |value / analytic - 1| while analytic > kErrorFloor
    double zeroS = -1.0;     // first time the stored value is exactly 0; -1: never
    float finalValue = 0.0f;
};

Summary summarise(const Fade& fade) {
    Summary summary;
    for (std::size_t i = 0; i < fade.values.size(); ++i) {
        const double expected = analytic(fade.timeAt(i));
        if (expected > kErrorFloor)
            summary.worstError =
                std::max(summary.worstError, std::abs(fade.values[i] / expected - 1.0));
        if (summary.zeroS < 0.0 && fade.values[i] == 0.0f)
            summary.zeroS = fade.timeAt(i);
    }
    summary.finalValue = fade.values.back();
    return summary;
}

bool save(const std::filesystem::path& path, const ImageRgba8& image) {
    if (const auto error = writePng(path, image)) {
        std::fprintf(stderr, "fade_curves: %s\n", error->c_str());
        return false;
    }
    std::printf("wrote %s\n", path.c_str());
    return true;
}

} // namespace

int main(int argc, char** argv) {
    const std::filesystem::path outDir = argc > 1 ? argv[1] : "docs/images";
    std::error_code error;
    std::filesystem::create_directories(outDir, error);
    if (error) {
        std::fprintf(stderr, "fade_curves: cannot create %s: %s\n", outDir.c_str(),
                     error.message().c_str());
        return 1;
    }

    std::printf("decay %.3f per 60 Hz frame, delta_time timing; press 0.2 for %.0f s, release\n",
                kDecay, kPressS);
    std::printf("%-10s %-13s %4s  %-22s %-12s %s\n", "design", "store", "fps",
                "worst error (a > 0.05)", "exactly 0", "value at 300 s");
    // original: nearest-even at each rate, then truncate at 60 fps; halfSafe: nearest-even.
    std::vector<Fade> original, halfSafe;
    bool roundingAgrees = true;
    for (bool safe : {false, true}) {
        for (HalfRounding store : {HalfRounding::NearestEven, HalfRounding::Truncate}) {
            for (std::size_t rate = 0; rate < std::size(kFrameRates); ++rate) {
                const double fps = kFrameRates[rate];
                Fade fade = pressRelease(safe, store, fps);
                const Summary s = summarise(fade);
                char zero[32] = "never";
                if (s.zeroS >= 0.0)
                    std::snprintf(zero, sizeof zero, "%.2f s", s.zeroS);
                std::printf("%-10s %-13s %4d  %20.2f %%  %-12s %.6g\n",
                            safe ? "half_safe" : "original", toString(store), int(fps),
                            100.0 * s.worstError, zero, s.finalValue);
                const bool nearest = store == HalfRounding::NearestEven;
                if (safe && !nearest)
                    roundingAgrees = roundingAgrees && fade.values == halfSafe[rate].values;
                else if (safe)
                    halfSafe.push_back(std::move(fade));
                else if (nearest || fps == 60.0)
                    original.push_back(std::move(fade));
            }
        }
    }
    std::printf("half_safe: truncating and nearest-even stores give %s values\n",
                roundingAgrees ? "bit-identical" : "DIFFERENT");

    PlotOptions options;
    options.width = 1100; // wide and tall enough that the legend clears the curves
    options.height = 660;
    options.xLabel = "seconds after release";
    options.yLabel = "stored value";
    options.xMin = 0.0;
    options.xMax = kRunS; // the same axes for both designs, so the figures compare directly
    options.yMin = 1e-7;  // room below the stalls for the legend
    options.yMax = 1.5;
    options.logY = true;

    // (1) The original design: stalls under round-to-nearest, early loss under truncation.
    // The analytic curve goes last so its dashes stay visible over the curves it matches.
    std::vector<PlotSeries> series;
    for (std::size_t i = 0; i < original.size(); ++i) {
        const bool nearest = i + 1 < original.size();
        const Summary s = summarise(original[i]);
        char label[64];
        if (s.zeroS >= 0.0)
            std::snprintf(label, sizeof label, "%s %d fps: 0 at %.0f s",
                          nearest ? "nearest" : "truncate", int(original[i].fps), s.zeroS);
        else
            std::snprintf(label, sizeof label, "%s %d fps: stuck %s",
                          nearest ? "nearest" : "truncate", int(original[i].fps),
                          shortNumber(s.finalValue).c_str());
        series.push_back(curve(original[i], label, plotColour(int(i))));
    }
    series.push_back(analyticCurve("0.999^(60 t)"));
    options.title = "Original decay in R16F: stalls or drops";
    bool ok = save(outDir / "fade_original.png", renderPlot(series, options));

    // (2) The half-safe design: every frame rate on the analytic curve, then exactly 0.
    series = {horizontal(kZeroFloor, {150, 150, 150, 255}, "zero floor 2^-12")};
    for (std::size_t i = 0; i < halfSafe.size(); ++i) {
        char label[64];
        std::snprintf(label, sizeof label, "%d fps: 0 at %.0f s", int(halfSafe[i].fps),
                      summarise(halfSafe[i]).zeroS);
        series.push_back(curve(halfSafe[i], label, plotColour(int(i))));
    }
    series.push_back(analyticCurve("0.999^(60 t)"));
    options.title = roundingAgrees ? "Half-safe decay (either store rounding)"
                                   : "Half-safe decay (store roundings DIFFER)";
    ok = save(outDir / "fade_half_safe.png", renderPlot(series, options)) && ok;

    // (3) Relative error of the half-safe design while the analytic value is above 0.05: one
    // panel per frame rate, since the four traces would hide one another.
    const double errorUntilS = std::log(kErrorFloor) / (60.0 * std::log(kDecay));
    options.width = 640;
    options.height = 360;
    options.yLabel = "error (%)";
    options.logY = false;
    options.xMax = std::ceil(errorUntilS);
    options.yMin = -3.0;
    options.yMax = 3.0;
    const int gap = 8;
    ImageRgba8 grid(2 * options.width + gap, 2 * options.height + gap, {255, 255, 255, 255});
    for (std::size_t i = 0; i < halfSafe.size(); ++i) {
        const Fade& fade = halfSafe[i];
        series = {horizontal(2.0, {214, 39, 40, 255}, "2 % bound"),
                  horizontal(-2.0, {214, 39, 40, 255})};
        PlotSeries error{"", {}, {}, plotColour(int(i))};
        for (std::size_t j = 0; fade.timeAt(j) <= errorUntilS; ++j) {
            error.x.push_back(fade.timeAt(j));
            error.y.push_back(100.0 * (fade.values[j] / analytic(fade.timeAt(j)) - 1.0));
        }
        series.push_back(std::move(error));
        char title[64];
        std::snprintf(title, sizeof title, "%d fps: worst %.2f %%", int(fade.fps),
                      100.0 * summarise(fade).worstError);
        options.title = title;
        grid.blit(renderPlot(series, options), int(i % 2) * (options.width + gap),
                  int(i / 2) * (options.height + gap));
    }
    ok = save(outDir / "fade_error.png", grid) && ok;
    return ok ? 0 : 1;
}
