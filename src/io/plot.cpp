#include "io/plot.hpp"

#include "io/plot_axis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <utility>

namespace snowcap {

namespace {

using plot_axis::addLinearTicks;
using plot_axis::addLogTicks;
using plot_axis::Axis;
using plot_axis::makeAxis;

constexpr glm::u8vec4 kPaper{255, 255, 255, 255};
constexpr glm::u8vec4 kInk{40, 40, 40, 255};
constexpr glm::u8vec4 kFrame{110, 110, 110, 255};
constexpr glm::u8vec4 kGrid{224, 224, 224, 255};
constexpr glm::u8vec4 kMinorGrid{242, 242, 242, 255};

constexpr int kTickTextScale = 2;
constexpr int kAxisLabelScale = 2;
constexpr int kTitleScale = 3;
constexpr int kTickLength = 6;
constexpr double kLineHalfWidth = 1.0;     // 2 px lines
constexpr double kDotHalfWidth = 2.0;      // a lone point between NaNs must still be visible
constexpr double kErrorBarHalfWidth = 0.6; // measured points' error bars
constexpr double kErrorCapPx = 5.0;        // half the width of an error bar's cap
constexpr double kDashOn = 9.0;
constexpr double kDashPeriod = 15.0;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct PlotArea {
    int x = 0, y = 0, w = 1, h = 1; // in image pixels; the frame is drawn just outside
    int column(double normalisedX) const {
        return x + std::clamp(static_cast<int>(std::floor(normalisedX * w)), 0, w - 1);
    }
    int row(double normalisedY) const {
        return y + std::clamp(static_cast<int>(std::floor((1.0 - normalisedY) * h)), 0, h - 1);
    }
};

// ---- series rasterisation: a coverage mask per series, max-combined so the overlapping ends
// of consecutive segments are not blended twice.

struct Point {
    double x, y;
};

// Liang-Barsky against [lo, hi]^2 in normalised coordinates; keeps far-away points from
// turning into overflowing pixel coordinates. Returns false when nothing is left.
bool clipSegment(Point& a, Point& b, double& t0Out) {
    constexpr double kLo = -0.5, kHi = 1.5;
    double t0 = 0.0, t1 = 1.0;
    const double dx = b.x - a.x, dy = b.y - a.y;
    const std::array<double, 4> p{-dx, dx, -dy, dy};
    const std::array<double, 4> q{a.x - kLo, kHi - a.x, a.y - kLo, kHi - a.y};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0.0) {
            if (q[i] < 0.0) {
                return false;
            }
        } else {
            const double r = q[i] / p[i];
            if (p[i] < 0.0) {
                t0 = std::max(t0, r);
            } else {
                t1 = std::min(t1, r);
            }
        }
    }
    if (t0 > t1) {
        return false;
    }
    const Point start{a.x + t0 * dx, a.y + t0 * dy};
    b = {a.x + t1 * dx, a.y + t1 * dy};
    a = start;
    t0Out = t0;
    return true;
}

void rasteriseSegment(Point a, Point b, double halfWidth, double dashPhase, bool dashed,
                      const PlotArea& area, std::vector<float>& coverage) {
    const double reach = halfWidth + 1.0;
    const int x0 = std::max(0, static_cast<int>(std::floor(std::min(a.x, b.x) - reach)));
    const int x1 = std::min(area.w, static_cast<int>(std::ceil(std::max(a.x, b.x) + reach)));
    const int y0 = std::max(0, static_cast<int>(std::floor(std::min(a.y, b.y) - reach)));
    const int y1 = std::min(area.h, static_cast<int>(std::ceil(std::max(a.y, b.y) + reach)));
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double length2 = dx * dx + dy * dy;
    const double length = std::sqrt(length2);
    for (int py = y0; py < y1; ++py) {
        for (int px = x0; px < x1; ++px) {
            const double cx = px + 0.5 - a.x, cy = py + 0.5 - a.y;
            const double t =
                length2 > 0.0 ? std::clamp((cx * dx + cy * dy) / length2, 0.0, 1.0) : 0.0;
            const double distance = std::hypot(cx - t * dx, cy - t * dy);
            // One pixel of falloff around the 2 px core: straight edges without staircase.
            const double cover = std::clamp(halfWidth + 0.5 - distance, 0.0, 1.0);
            if (cover <= 0.0) {
                continue;
            }
            if (dashed && std::fmod(dashPhase + t * length, kDashPeriod) >= kDashOn) {
                continue;
            }
            float& cell = coverage[static_cast<std::size_t>(py) * area.w + px];
            cell = std::max(cell, static_cast<float>(cover));
        }
    }
}

std::vector<float> rasteriseSeries(const PlotSeries& series, const Axis& xAxis, const Axis& yAxis,
                                   const PlotArea& area) {
    std::vector<float> coverage(static_cast<std::size_t>(area.w) * area.h, 0.0f);
    const std::size_t count = std::min(series.x.size(), series.y.size());
    std::vector<Point> points(count); // normalised; NaN where the line must break
    for (std::size_t i = 0; i < count; ++i) {
        points[i] = {xAxis.normalised(series.x[i]), yAxis.normalised(series.y[i])};
    }
    const auto valid = [&](std::size_t i) {
        return i < count && std::isfinite(points[i].x) && std::isfinite(points[i].y);
    };
    const auto toPixels = [&](Point p) {
        return Point{p.x * area.w, (1.0 - p.y) * area.h};
    };

    if (series.points) {
        // Dots with error bars (a vertical stroke and a cap at each end); no line between them.
        const auto bar = [&](const std::vector<double>& side, std::size_t i) {
            return i < side.size() && std::isfinite(side[i]) ? side[i] : 0.0;
        };
        const auto stroke = [&](Point a, Point b, double halfWidth) {
            double ignored = 0.0;
            if (clipSegment(a, b, ignored))
                rasteriseSegment(toPixels(a), toPixels(b), halfWidth, 0.0, false, area, coverage);
        };
        for (std::size_t i = 0; i < count; ++i) {
            if (!valid(i))
                continue;
            const double low = series.y[i] - bar(series.below, i);
            const double high = series.y[i] + bar(series.above, i);
            if (low < series.y[i] || high > series.y[i]) {
                const Point bottom{points[i].x, yAxis.normalised(low)};
                const Point top{points[i].x, yAxis.normalised(high)};
                const double capHalf = kErrorCapPx / std::max(area.w, 1);
                stroke(bottom, top, kErrorBarHalfWidth);
                stroke({bottom.x - capHalf, bottom.y}, {bottom.x + capHalf, bottom.y},
                       kErrorBarHalfWidth);
                stroke({top.x - capHalf, top.y}, {top.x + capHalf, top.y}, kErrorBarHalfWidth);
            }
            stroke(points[i], points[i], kDotHalfWidth);
        }
        return coverage;
    }

    // Runs of drawable points between NaNs; a run that never moves is drawn as a dot.
    std::size_t start = 0;
    while (start < count) {
        if (!valid(start)) {
            ++start;
            continue;
        }
        std::size_t end = start;
        bool moves = false;
        while (valid(end + 1)) {
            ++end;
            moves |= points[end].x != points[start].x || points[end].y != points[start].y;
        }
        if (!moves) {
            Point a = points[start], b = points[start];
            double ignored = 0.0;
            if (clipSegment(a, b, ignored)) {
                rasteriseSegment(toPixels(a), toPixels(a), kDotHalfWidth, 0.0, false, area,
                                 coverage);
            }
        }
        double dashPhase = 0.0;
        for (std::size_t i = start + 1; moves && i <= end; ++i) {
            Point a = points[i - 1], b = points[i];
            const Point fullA = toPixels(a), fullB = toPixels(b);
            const double fullLength = std::hypot(fullB.x - fullA.x, fullB.y - fullA.y);
            double t0 = 0.0;
            if (clipSegment(a, b, t0)) {
                const double phase = std::isfinite(fullLength) ? dashPhase + t0 * fullLength : 0.0;
                rasteriseSegment(toPixels(a), toPixels(b), kLineHalfWidth, phase, series.dashed,
                                 area, coverage);
            }
            dashPhase =
                std::isfinite(fullLength) ? std::fmod(dashPhase + fullLength, kDashPeriod) : 0.0;
        }
        start = end + 1;
    }
    return coverage;
}

// ---- frame, text and legend ------------------------------------------------------------

void outline(ImageRgba8& image, int x, int y, int w, int h, glm::u8vec4 colour) {
    image.fillRect(x, y, w, 1, colour);
    image.fillRect(x, y + h - 1, w, 1, colour);
    image.fillRect(x, y, 1, h, colour);
    image.fillRect(x + w - 1, y, 1, h, colour);
}

// Reads bottom to top, as y-axis labels do; (x, y) is the top-left of the rotated text.
void drawTextUpwards(ImageRgba8& image, int x, int y, std::string_view text, glm::u8vec4 colour,
                     int scale) {
    ImageRgba8 upright(textWidth(text, scale), textHeight(text, scale), {0, 0, 0, 0});
    drawText(upright, 0, 0, text, colour, scale);
    for (int sy = 0; sy < upright.height; ++sy) {
        for (int sx = 0; sx < upright.width; ++sx) {
            const glm::u8vec4 pixel = upright.at(sx, sy);
            if (pixel.w != 0) {
                image.blend(x + sy, y + upright.width - 1 - sx, pixel);
            }
        }
    }
}

void drawLegend(ImageRgba8& image, const std::vector<PlotSeries>& series, const PlotArea& area,
                const std::vector<std::uint8_t>& occupied) {
    constexpr int kPad = 10, kSample = 30, kGap = 8, kRow = 24;
    std::vector<const PlotSeries*> entries;
    int labelWidth = 0;
    for (const PlotSeries& s : series) {
        if (!s.label.empty()) {
            entries.push_back(&s);
            labelWidth = std::max(labelWidth, textWidth(s.label, kTickTextScale));
        }
    }
    if (entries.empty()) {
        return;
    }
    const int w = kPad + kSample + kGap + labelWidth + kPad;
    // Rows are kRow apart; the last one needs only its cap height.
    const int h =
        2 * kPad + static_cast<int>(entries.size() - 1) * kRow + kTextCapHeight * kTickTextScale;
    const int inset = 10;
    const int left = area.x + inset, right = area.x + area.w - inset - w;
    const int top = area.y + inset, bottom = area.y + area.h - inset - h;
    const auto hiddenUnder = [&](int x0, int y0) {
        long hidden = 0;
        for (int y = std::max(y0, area.y); y < std::min(y0 + h, area.y + area.h); ++y) {
            for (int x = std::max(x0, area.x); x < std::min(x0 + w, area.x + area.w); ++x) {
                hidden += occupied[static_cast<std::size_t>(y - area.y) * area.w + (x - area.x)];
            }
        }
        return hidden;
    };
    // Top right unless that hides data and another corner hides less.
    int x = right, y = top;
    long leastHidden = hiddenUnder(x, y);
    for (const auto& [cx, cy] : {std::pair{left, top}, {right, bottom}, {left, bottom}}) {
        if (const long hidden = hiddenUnder(cx, cy); hidden < leastHidden) {
            x = cx, y = cy, leastHidden = hidden;
        }
    }
    image.blendRect(x, y, w, h, {255, 255, 255, 225});
    outline(image, x, y, w, h, kGrid);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const int rowTop = y + kPad + static_cast<int>(i) * kRow;
        const int lineY = rowTop + kTextCapHeight * kTickTextScale / 2 - 1;
        if (entries[i]->points) { // a dot with its bar, as the data show it
            image.fillRect(x + kPad + kSample / 2 - 2, lineY - 1, 5, 4, entries[i]->colour);
            image.fillRect(x + kPad + kSample / 2, lineY - 7, 1, 16, entries[i]->colour);
        }
        for (int dx = 0; dx < kSample && !entries[i]->points;
             dx += entries[i]->dashed ? 12 : kSample) {
            const int dash = entries[i]->dashed ? std::min(8, kSample - dx) : kSample;
            image.fillRect(x + kPad + dx, lineY, dash, 2, entries[i]->colour);
        }
        drawText(image, x + kPad + kSample + kGap, rowTop, entries[i]->label, kInk, kTickTextScale);
    }
}

} // namespace

glm::u8vec4 plotColour(int index) {
    static constexpr glm::u8vec4 kTab10[] = {
        {31, 119, 180, 255},  {255, 127, 14, 255}, {44, 160, 44, 255},   {214, 39, 40, 255},
        {148, 103, 189, 255}, {140, 86, 75, 255},  {227, 119, 194, 255}, {127, 127, 127, 255},
        {188, 189, 34, 255},  {23, 190, 207, 255},
    };
    constexpr int count = static_cast<int>(std::size(kTab10));
    return kTab10[((index % count) + count) % count];
}

ImageRgba8 renderPlot(const std::vector<PlotSeries>& series, const PlotOptions& options) {
    ImageRgba8 image(std::max(options.width, 240), std::max(options.height, 160), kPaper);

    std::vector<double> xs, ys;
    for (const PlotSeries& s : series) {
        const std::size_t count = std::min(s.x.size(), s.y.size());
        for (std::size_t i = 0; i < count; ++i) {
            // Only points that can be drawn decide the automatic limits.
            if (std::isfinite(s.x[i]) && std::isfinite(s.y[i]) && (!options.logY || s.y[i] > 0)) {
                xs.push_back(s.x[i]);
                ys.push_back(s.y[i]);
                // So do the ends of its error bars.
                if (i < s.below.size() && std::isfinite(s.below[i]))
                    ys.push_back(s.y[i] - s.below[i]);
                if (i < s.above.size() && std::isfinite(s.above[i]))
                    ys.push_back(s.y[i] + s.above[i]);
            }
        }
    }
    Axis xAxis = makeAxis(options.xMin, options.xMax, xs, false);
    Axis yAxis = makeAxis(options.yMin, options.yMax, ys, options.logY);

    // Vertical layout first: the y ticks depend on the plot height, the left margin on the
    // y tick labels, and the x ticks on the width that leaves.
    const int tickTextHeight = kTextCapHeight * kTickTextScale;
    PlotArea area;
    area.y = options.title.empty() ? 24 : 18 + textHeight(options.title, kTitleScale) + 14;
    const int bottomMargin = kTickLength + 8 + tickTextHeight + 16 +
                             (options.xLabel.empty() ? 0 : textHeight("X", kAxisLabelScale) + 10);
    area.h = std::max(image.height - area.y - bottomMargin, 40);
    if (yAxis.log) {
        addLogTicks(yAxis, std::max(area.h / 45, 2), area.h / (yAxis.hi - yAxis.lo));
    } else {
        addLinearTicks(yAxis, std::max(area.h / 50, 2));
    }
    int yLabelWidth = 0;
    for (const std::string& label : yAxis.labels) {
        yLabelWidth = std::max(yLabelWidth, textWidth(label, kTickTextScale));
    }
    area.x = 16 + (options.yLabel.empty() ? 0 : textHeight("X", kAxisLabelScale) + 14) +
             yLabelWidth + 8 + kTickLength;
    area.w = std::max(image.width - area.x - 30, 40);
    addLinearTicks(xAxis, std::max(area.w / 90, 2));

    // Grid under everything, then the data, then the frame and text over the data's edges.
    const auto normalX = [&](double axisValue) {
        return (axisValue - xAxis.lo) / (xAxis.hi - xAxis.lo);
    };
    const auto normalY = [&](double axisValue) {
        return (axisValue - yAxis.lo) / (yAxis.hi - yAxis.lo);
    };
    for (double v : yAxis.minor) {
        image.fillRect(area.x, area.row(normalY(v)), area.w, 1, kMinorGrid);
    }
    for (double v : xAxis.major) {
        image.fillRect(area.column(normalX(v)), area.y, 1, area.h, kGrid);
    }
    for (double v : yAxis.major) {
        image.fillRect(area.x, area.row(normalY(v)), area.w, 1, kGrid);
    }

    std::vector<std::uint8_t> occupied(static_cast<std::size_t>(area.w) * area.h, 0);
    for (const PlotSeries& s : series) {
        const std::vector<float> coverage = rasteriseSeries(s, xAxis, yAxis, area);
        for (int y = 0; y < area.h; ++y) {
            for (int x = 0; x < area.w; ++x) {
                const std::size_t i = static_cast<std::size_t>(y) * area.w + x;
                if (coverage[i] > 0.0f) {
                    glm::u8vec4 colour = s.colour;
                    colour.w = static_cast<std::uint8_t>(std::lround(colour.w * coverage[i]));
                    image.blend(area.x + x, area.y + y, colour);
                    occupied[i] = 1;
                }
            }
        }
    }

    outline(image, area.x - 1, area.y - 1, area.w + 2, area.h + 2, kFrame);
    for (std::size_t i = 0; i < xAxis.major.size(); ++i) {
        const int column = area.column(normalX(xAxis.major[i]));
        image.fillRect(column, area.y + area.h + 1, 1, kTickLength, kFrame);
        const std::string& label = xAxis.labels[i];
        const int labelX = column - textWidth(label, kTickTextScale) / 2;
        drawText(image, labelX, area.y + area.h + 1 + kTickLength + 6, label, kInk, kTickTextScale);
    }
    for (std::size_t i = 0; i < yAxis.major.size(); ++i) {
        const int row = area.row(normalY(yAxis.major[i]));
        image.fillRect(area.x - 1 - kTickLength, row, kTickLength, 1, kFrame);
        const std::string& label = yAxis.labels[i];
        drawText(image, area.x - 1 - kTickLength - 6 - textWidth(label, kTickTextScale),
                 row - tickTextHeight / 2, label, kInk, kTickTextScale);
    }

    if (!options.xLabel.empty()) {
        const int labelY = area.y + area.h + 1 + kTickLength + 6 + tickTextHeight + 16;
        drawText(image, area.x + (area.w - textWidth(options.xLabel, kAxisLabelScale)) / 2, labelY,
                 options.xLabel, kInk, kAxisLabelScale);
    }
    if (!options.yLabel.empty()) {
        const int length = textWidth(options.yLabel, kAxisLabelScale);
        drawTextUpwards(image, 16, area.y + (area.h - length) / 2, options.yLabel, kInk,
                        kAxisLabelScale);
    }
    if (!options.title.empty()) {
        const int titleWidth = textWidth(options.title, kTitleScale);
        const int titleX = std::clamp(area.x + (area.w - titleWidth) / 2, 8,
                                      std::max(8, image.width - titleWidth - 8));
        drawText(image, titleX, 18, options.title, kInk, kTitleScale);
    }
    drawLegend(image, series, area, occupied);
    return image;
}

} // namespace snowcap
