#include "io/plot_axis.hpp"

#include "io/plot.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace snowcap {

namespace {

constexpr double kAutoMargin = 0.04; // of the span: extreme points must not sit on the frame

// A 1-2-5 step as mantissa * 10^exponent, kept apart so tick values can be computed as
// (k * mantissa) scaled by an exact power of ten: 3 * 0.2 would give 0.6000000000000001.
struct NiceStep {
    double mantissa;
    int exponent;

    double value() const { return scaled(mantissa); }
    double scaled(double x) const {
        return exponent >= 0 ? x * std::pow(10.0, exponent) : x / std::pow(10.0, -exponent);
    }
};

NiceStep niceStep(double rough) {
    int exponent = static_cast<int>(std::floor(std::log10(rough)));
    const double m = rough / std::pow(10.0, exponent);
    double mantissa = m <= 1.0 ? 1.0 : m <= 2.0 ? 2.0 : m <= 5.0 ? 5.0 : 10.0;
    if (mantissa == 10.0) {
        mantissa = 1.0;
        ++exponent;
    }
    return {mantissa, exponent};
}

// "%g" without its padding: 1.5e+06 -> 1.5e6, 1e-05 -> 1e-5.
std::string compactNumber(double value, int significant) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*g", significant, value);
    std::string out = text;
    if (const auto e = out.find('e'); e != std::string::npos) {
        std::string mantissa = out.substr(0, e);
        std::string exponent = out.substr(e + 1);
        const bool negative = exponent[0] == '-';
        exponent.erase(0, exponent.find_first_not_of("+-0"));
        out = mantissa + "e" + (negative ? "-" : "") + (exponent.empty() ? "0" : exponent);
    }
    return out;
}

std::string formatLinearTick(double value, double step) {
    if (value == 0.0) {
        return "0";
    }
    if (std::abs(value) >= 1e6 || step < 1e-4) {
        return compactNumber(value, 4);
    }
    const int decimals = std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 6);
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string formatLogTick(double value) {
    const double exponent = std::log10(value);
    if (exponent >= -3.0 && exponent < 6.0) {
        return compactNumber(value, 6);
    }
    const double rounded = std::round(exponent);
    if (std::abs(exponent - rounded) < 1e-9) {
        return "1e" + std::to_string(static_cast<int>(rounded));
    }
    return compactNumber(value, 2);
}

} // namespace

namespace plot_axis {

Axis makeAxis(double explicitLo, double explicitHi, const std::vector<double>& data, bool log) {
    Axis axis;
    axis.log = log;
    const auto usable = [log](double v) {
        return std::isfinite(v) && (!log || v > 0.0);
    };
    double dataLo = std::numeric_limits<double>::infinity();
    double dataHi = -dataLo;
    for (double v : data) {
        if (usable(v)) {
            dataLo = std::min(dataLo, axis.toAxis(v));
            dataHi = std::max(dataHi, axis.toAxis(v));
        }
    }
    if (dataLo > dataHi) {
        dataLo = 0.0;
        dataHi = 1.0;
    }
    const bool autoLo = !usable(explicitLo);
    const bool autoHi = !usable(explicitHi);
    double lo = autoLo ? dataLo : axis.toAxis(explicitLo);
    double hi = autoHi ? dataHi : axis.toAxis(explicitHi);
    if (lo > hi) {
        std::swap(lo, hi);
    }
    if (lo == hi) {
        const double widen = log ? 0.5 : std::max(std::abs(lo) * 0.1, 0.5);
        lo -= widen;
        hi += widen;
    }
    const double span = hi - lo;
    axis.lo = autoLo ? lo - kAutoMargin * span : lo;
    axis.hi = autoHi ? hi + kAutoMargin * span : hi;
    return axis;
}

void addLinearTicks(Axis& axis, int maxCount) {
    const std::vector<double> ticks = linearTicks(axis.lo, axis.hi, maxCount);
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : axis.hi - axis.lo;
    for (double t : ticks) {
        axis.major.push_back(t);
        axis.labels.push_back(formatLinearTick(t, step));
    }
}

void addLogTicks(Axis& axis, int maxCount, double pixelsPerDecade) {
    const double lo = std::pow(10.0, axis.lo);
    const double hi = std::pow(10.0, axis.hi);
    const std::vector<double> decades = decadeTicks(lo, hi);
    // The decades that hold minor ticks; only walked when there are few of them.
    const int firstDecade = static_cast<int>(std::floor(axis.lo));
    const int lastDecade = std::min(static_cast<int>(std::floor(axis.hi)), firstDecade + 9);
    std::vector<double> labelled;
    if (decades.size() >= 2) {
        // Too many decades for the axis length: label every n-th, grid the rest lightly.
        const auto every = static_cast<std::size_t>(
            std::ceil(static_cast<double>(decades.size()) / std::max(maxCount, 1)));
        for (std::size_t i = 0; i < decades.size(); ++i) {
            (i % every == 0 ? labelled : axis.minor).push_back(decades[i]);
        }
    } else {
        // Under a decade: 1-2-5 multiples, or failing that plain linear ticks.
        for (int k = firstDecade; k <= lastDecade; ++k) {
            const double decade = std::pow(10.0, k);
            for (double m : {1.0, 2.0, 5.0}) {
                if (m * decade >= lo * (1 - 1e-9) && m * decade <= hi * (1 + 1e-9)) {
                    labelled.push_back(m * decade);
                }
            }
        }
        if (labelled.size() < 2) {
            labelled = linearTicks(lo, hi, maxCount);
        }
    }
    // Minor lines at 2..9 only where a decade is tall enough to keep them apart.
    const std::vector<int> multiples = pixelsPerDecade >= 120.0
                                           ? std::vector{2, 3, 4, 5, 6, 7, 8, 9}
                                       : pixelsPerDecade >= 40.0 ? std::vector{2, 5}
                                                                 : std::vector<int>{};
    if (decades.size() <= 8) {
        for (int k = firstDecade; k <= lastDecade; ++k) {
            const double decade = std::pow(10.0, k);
            for (int m : multiples) {
                if (m * decade > lo && m * decade < hi) {
                    axis.minor.push_back(m * decade);
                }
            }
        }
    }
    for (double v : labelled) {
        axis.major.push_back(std::log10(v));
        axis.labels.push_back(formatLogTick(v));
    }
    for (double& v : axis.minor) {
        v = std::log10(v);
    }
}
} // namespace plot_axis

std::vector<double> linearTicks(double lo, double hi, int maxCount) {
    std::vector<double> ticks;
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo)) {
        return ticks;
    }
    const double rough = (hi - lo) / std::max(maxCount, 1);
    if (!std::isfinite(rough) || !(rough > 0.0)) {
        return ticks;
    }
    const NiceStep step = niceStep(rough);
    const double first = std::ceil(lo / step.value() - 1e-9);
    const double last = std::floor(hi / step.value() + 1e-9);
    for (double k = first; k <= last && ticks.size() < 1000; k += 1.0) {
        ticks.push_back(k == 0.0 ? 0.0 : step.scaled(k * step.mantissa)); // never "-0"
    }
    return ticks;
}

std::vector<double> decadeTicks(double lo, double hi) {
    std::vector<double> ticks;
    if (!(lo > 0.0) || !(hi >= lo) || !std::isfinite(hi)) {
        return ticks;
    }
    const int first = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
    const int last = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
    for (int k = first; k <= last && ticks.size() < 1000; ++k) {
        ticks.push_back(std::pow(10.0, k));
    }
    return ticks;
}

} // namespace snowcap
