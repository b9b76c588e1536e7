// bench_plot: the scaling curves of docs/performance.md, from a `snowcap bench --json` file.
//
//   bench_plot BENCH.json [output directory, default docs/images]
//
// Writes bench_texels.png (time against buffer texels), bench_triangles.png (capture time
// against deformer triangles), bench_grid.png (the lit surface against its vertex grid) and
// bench_pixels.png (screen passes against screen pixels), with
// the project's own plotter (core/plot.hpp), and prints the series it drew.

#include "io/image.hpp"
#include "io/plot.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

using namespace snowcap;

namespace {

// One scaling section as plot series; x divided by `xScale` (texels -> Mtexels etc.).
std::vector<PlotSeries> seriesOf(const nlohmann::json& section, double xScale) {
    std::vector<PlotSeries> out;
    const nlohmann::json& x = section["x"];
    int index = 0;
    for (const auto& s : section["series"]) {
        PlotSeries series;
        series.label = s["name"].get<std::string>();
        series.colour = plotColour(index++);
        const nlohmann::json& y = s["median_ms"];
        for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
            series.x.push_back(x[i].get<double>() / xScale);
            series.y.push_back(y[i].is_null() ? std::numeric_limits<double>::quiet_NaN()
                                              : y[i].get<double>());
        }
        std::printf("  %-28s", series.label.c_str());
        for (std::size_t i = 0; i < series.x.size(); ++i)
            std::printf(" (%.3g, %.3g ms)", series.x[i], series.y[i]);
        std::printf("\n");
        out.push_back(std::move(series));
    }
    return out;
}

bool plot(const nlohmann::json& doc, const char* key, double xScale, const std::string& xLabel,
          const std::string& title, const std::filesystem::path& path, bool logY) {
    if (!doc.contains("scaling") || !doc["scaling"].contains(key) ||
        doc["scaling"][key]["x"].size() < 2) {
        std::printf("%s: fewer than two points, not drawn\n", key);
        return true;
    }
    std::printf("%s:\n", key);
    PlotOptions options;
    options.title = title;
    options.xLabel = xLabel;
    options.yLabel = "median ms";
    options.xMin = 0.0;
    options.yMin = logY ? std::numeric_limits<double>::quiet_NaN() : 0.0;
    options.logY = logY; // passes a thousand times apart share one plot
    const ImageRgba8 image = renderPlot(seriesOf(doc["scaling"][key], xScale), options);
    if (const auto error = writePng(path, image)) {
        std::fprintf(stderr, "bench_plot: %s\n", error->c_str());
        return false;
    }
    std::printf("wrote %s\n", path.string().c_str());
    return true;
}

// A string field of one scaling section, "?" when the file has no such section or field.
std::string sectionField(const nlohmann::json& doc, const char* section, const char* key) {
    if (!doc.contains("scaling") || !doc["scaling"].contains(section) ||
        !doc["scaling"][section].contains(key) || !doc["scaling"][section][key].is_string())
        return "?";
    return doc["scaling"][section][key].get<std::string>();
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: bench_plot BENCH.json [output directory]\n");
        return 2;
    }
    std::ifstream file(argv[1]);
    const nlohmann::json doc = nlohmann::json::parse(file, nullptr, false);
    if (!file || doc.is_discarded()) {
        std::fprintf(stderr, "bench_plot: %s: cannot read or not JSON\n", argv[1]);
        return 2;
    }
    const std::filesystem::path out = argc == 3 ? argv[2] : "docs/images";
    std::filesystem::create_directories(out);
    // "llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe": titles must fit the plot's width.
    std::string renderer = doc["gl"].value("renderer", std::string("?"));
    renderer = renderer.substr(0, std::min(renderer.find(" ("), renderer.find('/')));
    const std::string machine =
        renderer + ", " + std::to_string(doc["machine"].value("cores", 0)) + " cores";
    bool ok = plot(doc, "buffer_texels", 1e6, "buffer Mtexels (512^2 = 0.26, 2048^2 = 4.2)",
                   "Sim passes vs buffer size (" + machine + ")", out / "bench_texels.png", true);
    ok &= plot(doc, "deformer_triangles", 1e3, "deformer triangles (thousands)",
               "Capture vs deformer triangles at " +
                   sectionField(doc, "deformer_triangles", "buffer_size") + "^2 (" + machine + ")",
               out / "bench_triangles.png", false);
    ok &= plot(doc, "surface_grid", 1e3, "surface grid vertices (thousands)",
               "Surface vs vertex grid at " + sectionField(doc, "surface_grid", "screen") + " (" +
                   machine + ")",
               out / "bench_grid.png", false);
    ok &= plot(doc, "screen_pixels", 1e6, "screen Mpixels (1280x720 = 0.92)",
               "Screen passes vs pixels (" + machine + ")", out / "bench_pixels.png", true);
    return ok ? 0 : 1;
}
