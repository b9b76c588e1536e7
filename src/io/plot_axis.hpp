#pragma once
// The axes of io/plot.hpp's plots: limits from the data, 1-2-5 or decade ticks and their
// labels. Internal to src/io/plot*.cpp.

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace snowcap::plot_axis {

// One axis in "axis space": the value itself, or log10 of it on a log axis.
struct Axis {
    bool log = false;
    double lo = 0.0;
    double hi = 1.0;
    std::vector<double> major; // axis space, labelled and gridded
    std::vector<double> minor; // axis space, light grid only
    std::vector<std::string> labels;

    double toAxis(double value) const {
        if (!log) {
            return value;
        }
        return value > 0.0 ? std::log10(value) : std::numeric_limits<double>::quiet_NaN();
    }
    double normalised(double value) const { return (toAxis(value) - lo) / (hi - lo); }
};

// The axis over `data` (or the explicit limits, NaN = from the data with a small margin).
Axis makeAxis(double explicitLo, double explicitHi, const std::vector<double>& data, bool log);
// Fills major/minor/labels: at most about maxCount labelled ticks.
void addLinearTicks(Axis& axis, int maxCount);
void addLogTicks(Axis& axis, int maxCount, double pixelsPerDecade);

} // namespace snowcap::plot_axis
