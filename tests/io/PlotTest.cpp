#include "io/plot.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

namespace snowcap {
namespace {

constexpr glm::u8vec4 kSeriesColour{200, 30, 30, 255}; // in no palette, grid or text colour
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Pixel {
    int x, y;
};

std::vector<Pixel> pixelsOf(const ImageRgba8& image, glm::u8vec4 colour) {
    std::vector<Pixel> found;
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            if (image.at(x, y) == colour) {
                found.push_back({x, y});
            }
        }
    }
    return found;
}

PlotSeries line(std::vector<double> x, std::vector<double> y, std::string label = "") {
    return PlotSeries{std::move(label), std::move(x), std::move(y), kSeriesColour};
}

double mantissa(double step) {
    return step / std::pow(10.0, std::floor(std::log10(step)));
}

TEST(PlotTicks, LinearTicksUseOneTwoFiveSteps) {
    EXPECT_EQ(linearTicks(0.0, 1.0, 5), (std::vector<double>{0.0, 0.2, 0.4, 0.6, 0.8, 1.0}));
    struct Range {
        double lo, hi;
        int maxCount;
    };
    for (const Range r : {Range{0, 97, 10}, Range{-3.3, 7.1, 6}, Range{0.001, 0.0042, 4},
                          Range{-1e6, 2.5e6, 8}, Range{590, 600, 5}}) {
        const auto ticks = linearTicks(r.lo, r.hi, r.maxCount);
        ASSERT_GE(ticks.size(), 2u) << r.lo << ".." << r.hi;
        EXPECT_LE(ticks.size(), static_cast<std::size_t>(r.maxCount + 1));
        const double step = ticks[1] - ticks[0];
        const double m = mantissa(step);
        EXPECT_TRUE(std::abs(m - 1) < 1e-6 || std::abs(m - 2) < 1e-6 || std::abs(m - 5) < 1e-6 ||
                    std::abs(m - 10) < 1e-6)
            << "step " << step;
        EXPECT_GE(ticks.front(), r.lo - 1e-9);
        EXPECT_LE(ticks.back(), r.hi + 1e-9);
    }
    EXPECT_TRUE(linearTicks(1.0, 1.0, 5).empty());
    EXPECT_TRUE(linearTicks(0.0, kNaN, 5).empty());
}

TEST(PlotTicks, LogAxisTicksAreDecades) {
    EXPECT_EQ(decadeTicks(0.003, 250.0), (std::vector<double>{0.01, 0.1, 1.0, 10.0, 100.0}));
    EXPECT_EQ(decadeTicks(1.0, 1000.0).size(), 4u);
    EXPECT_TRUE(decadeTicks(0.0, 10.0).empty());
}

TEST(PlotColour, PaletteIsDistinctAndWraps) {
    for (int i = 0; i < 10; ++i) {
        for (int j = i + 1; j < 10; ++j) {
            EXPECT_NE(plotColour(i), plotColour(j));
        }
    }
    EXPECT_EQ(plotColour(10), plotColour(0));
    EXPECT_EQ(plotColour(-1), plotColour(9));
}

TEST(PlotRender, DiagonalLineFollowsTheDiagonalOnly) {
    PlotOptions options;
    options.title = "diagonal";
    options.xLabel = "x";
    options.yLabel = "y";
    options.xMin = options.yMin = 0.0;
    options.xMax = options.yMax = 1.0;
    const ImageRgba8 image = renderPlot({line({0.0, 1.0}, {0.0, 1.0})}, options);
    ASSERT_EQ(image.width, options.width);
    ASSERT_EQ(image.height, options.height);

    const auto pixels = pixelsOf(image, kSeriesColour);
    ASSERT_GT(pixels.size(), 500u);
    int x0 = image.width, x1 = 0, y0 = image.height, y1 = 0;
    for (const Pixel p : pixels) {
        x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
        y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    }
    // The line spans most of the image (the plot area) ...
    EXPECT_GT(x1 - x0, image.width / 2);
    EXPECT_GT(y1 - y0, image.height / 2);
    // ... and every line pixel sits near the diagonal from bottom-left to top-right.
    for (const Pixel p : pixels) {
        const double u = double(p.x - x0) / (x1 - x0);
        const double v = double(y1 - p.y) / (y1 - y0);
        ASSERT_NEAR(u, v, 0.02) << "pixel (" << p.x << ", " << p.y << ")";
    }
    // The opposite corners stay clear of it.
    for (const Pixel p : pixels) {
        const bool topLeft = p.x < x0 + (x1 - x0) / 4 && p.y < y0 + (y1 - y0) / 4;
        const bool bottomRight = p.x > x1 - (x1 - x0) / 4 && p.y > y1 - (y1 - y0) / 4;
        ASSERT_FALSE(topLeft || bottomRight) << "pixel (" << p.x << ", " << p.y << ")";
    }
    // The background is white where nothing is drawn.
    EXPECT_EQ(image.at(image.width - 2, image.height - 2), (glm::u8vec4{255, 255, 255, 255}));
}

TEST(PlotRender, NanBreaksTheLine) {
    std::vector<double> x, y;
    for (int i = 0; i <= 20; ++i) {
        x.push_back(i);
        y.push_back(i == 10 ? kNaN : 1.0);
    }
    PlotOptions options;
    options.yMin = 0.0;
    options.yMax = 2.0;
    const ImageRgba8 image = renderPlot({line(x, y)}, options);
    const auto pixels = pixelsOf(image, kSeriesColour);
    ASSERT_FALSE(pixels.empty());
    // Walk the line's row: two runs of series colour with a gap where the NaN was.
    const int row = pixels.front().y;
    int runs = 0;
    bool inRun = false;
    for (int px = 0; px < image.width; ++px) {
        const bool coloured = image.at(px, row) == kSeriesColour;
        runs += coloured && !inRun;
        inRun = coloured;
    }
    EXPECT_EQ(runs, 2);
}

TEST(PlotRender, PointsOutsideTheLimitsAreClipped) {
    PlotOptions options;
    options.xMin = 0.0;
    options.xMax = 1.0;
    options.yMin = 0.0;
    options.yMax = 0.5; // the line leaves through the top of the frame
    const ImageRgba8 clipped =
        renderPlot({line({0.0, 1.0, 2.0}, {0.0, 1.0, 1e300}), line({0.5}, {-7.0})}, options);
    const auto pixels = pixelsOf(clipped, kSeriesColour);
    ASSERT_FALSE(pixels.empty());
    int top = clipped.height, right = 0;
    for (const Pixel p : pixels) {
        top = std::min(top, p.y);
        right = std::max(right, p.x);
    }
    EXPECT_GT(top, 10);                    // nothing drawn into the top margin
    EXPECT_LT(right, clipped.width * 0.7); // y reaches 0.5 at x = 0.5: the line stops there
}

TEST(PlotRender, LegendShowsLabelledSeriesInTheTopRight) {
    PlotOptions options;
    // Data along the bottom, so the top-right corner is free for the legend.
    const auto series = line({0.0, 1.0}, {0.0, 0.0}, "fade");
    const auto withLegend = pixelsOf(renderPlot({series}, options), kSeriesColour);
    auto unlabelled = series;
    unlabelled.label.clear();
    const auto without = pixelsOf(renderPlot({unlabelled}, options), kSeriesColour);
    EXPECT_GT(withLegend.size(), without.size());
    bool sampleTopRight = false;
    for (const Pixel p : withLegend) {
        sampleTopRight |= p.x > options.width / 2 && p.y < options.height / 3;
    }
    EXPECT_TRUE(sampleTopRight);
}

TEST(PlotRender, DashedLinesHaveGaps) {
    PlotOptions options;
    options.yMin = 0.0;
    options.yMax = 2.0;
    auto series = line({0.0, 1.0}, {1.0, 1.0});
    const auto solid = pixelsOf(renderPlot({series}, options), kSeriesColour);
    series.dashed = true;
    const auto dashed = pixelsOf(renderPlot({series}, options), kSeriesColour);
    EXPECT_LT(dashed.size(), solid.size() * 3 / 4);
    EXPECT_GT(dashed.size(), solid.size() / 3);
}

TEST(PlotRender, LogAxisAndDegenerateInputsStillRender) {
    PlotOptions options;
    options.logY = true;
    const ImageRgba8 log =
        renderPlot({line({0, 1, 2, 3, 4}, {1.0, 0.1, 0.0, -1.0, 1e-4})}, options);
    EXPECT_FALSE(pixelsOf(log, kSeriesColour).empty());

    options.logY = false;
    options.width = 10; // clamped to a usable minimum
    const ImageRgba8 empty = renderPlot({}, options);
    EXPECT_GE(empty.width, 200);
    const ImageRgba8 flat = renderPlot({line({3, 3}, {5, 5})}, PlotOptions{});
    EXPECT_FALSE(pixelsOf(flat, kSeriesColour).empty());
}

} // namespace
} // namespace snowcap
