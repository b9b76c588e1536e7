#pragma once
// Line plots drawn on the CPU into an ImageRgba8: the fade curves of the docs and, later, the
// viewer's graphs. Deliberately small: one y axis (linear or log), 1-2-5 ticks, a legend.
// No GL and no fonts beyond the bitmap text of core/image.hpp.

#include "io/image.hpp"

#include <glm/vec4.hpp>
#include <limits>
#include <string>
#include <vector>

namespace snowcap {

struct PlotSeries {
    std::string label;        // legend text; a series without a label stays out of the legend
    std::vector<double> x, y; // paired by index; the longer one's extra entries are ignored
    glm::u8vec4 colour{31, 119, 180, 255};
    bool dashed = false;
    // Measured data: each point a dot, not joined, with a vertical error bar from y - below to
    // y + above where these are given (paired by index; missing or NaN entries: no bar).
    bool points = false;
    std::vector<double> below, above;
};

struct PlotOptions {
    int width = 900;
    int height = 520;
    std::string title, xLabel, yLabel;
    // Axis limits; NaN takes that limit from the data (with a small margin). On a log axis a
    // limit <= 0 counts as NaN.
    double xMin = std::numeric_limits<double>::quiet_NaN();
    double xMax = std::numeric_limits<double>::quiet_NaN();
    double yMin = std::numeric_limits<double>::quiet_NaN();
    double yMax = std::numeric_limits<double>::quiet_NaN();
    bool logY = false; // decades; y values <= 0 break the line like NaN
};

// A qualitative palette (matplotlib's tab10) for series without a colour of their own;
// wraps around after ten.
glm::u8vec4 plotColour(int index);

// White background, light grid, framed axes with numeric tick labels, title, axis labels and
// a legend in the top-right corner (moved to another corner when it would hide data). Lines are
// 2 px wide, smoothed; points outside the limits are clipped and NaNs break the line.
ImageRgba8 renderPlot(const std::vector<PlotSeries>& series, const PlotOptions& options);

// Tick positions, exposed for tests. linearTicks: multiples of a 1-2-5 step in [lo, hi], at
// most about maxCount of them. decadeTicks: the powers of ten in [lo, hi] (lo > 0).
std::vector<double> linearTicks(double lo, double hi, int maxCount);
std::vector<double> decadeTicks(double lo, double hi);

} // namespace snowcap
