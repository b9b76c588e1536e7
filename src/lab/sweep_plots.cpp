// `snowcap sweep`'s plots/: each metric against each varied key. A metric taken at every --at
// time is one line per time; a probe's fade times are one line per probe, with the sim clock's
// prediction dashed beside them. "Not reached" is a gap in the line, never a guessed point.
#include "io/plot.hpp"
#include "lab/sweep_output.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <map>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

std::optional<double> numeric(const std::string& text) {
    double value = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

double orNan(const std::optional<double>& v) {
    return v ? *v : NAN;
}

// A file name from a metric or key: letters, digits, '.', '_' and '-' kept, the rest '_'.
std::string fileSafe(std::string text) {
    for (char& c : text)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
            c = '_';
    return text;
}

struct Metric {
    std::string name, yLabel;
    // The series' labels and, per combination, each series' value.
    std::vector<std::string> series;
    std::function<std::vector<double>(std::size_t combination)> values;
    std::vector<bool> dashed; // per series
};

// What the sweep plots, one metric a figure per axis: each probe and the texels disturbed and
// the PSNR at each sampled time, the relief at the end, the fade times with their prediction.
// The metrics' values read `results` and `psnr`, which outlive them.
std::vector<Metric> sweepMetrics(const SweepPlan& plan, const std::vector<SweepResult>& results,
                                 const std::vector<std::vector<double>>& psnr) {
    const std::vector<double>& at = plan.request.atS;
    const std::vector<std::string>& probes = results.front().probeNames;

    std::vector<Metric> metrics;
    const auto perTime = [&](std::string name, std::string yLabel,
                             std::function<double(std::size_t, std::size_t)> value) {
        Metric m{std::move(name), std::move(yLabel), {}, {}, {}};
        for (double t : at) {
            m.series.push_back(fmt::format("t = {} s", t));
            m.dashed.push_back(false);
        }
        m.values = [value, n = at.size()](std::size_t c) {
            std::vector<double> out;
            for (std::size_t t = 0; t < n; ++t)
                out.push_back(value(c, t));
            return out;
        };
        metrics.push_back(std::move(m));
    };
    for (std::size_t p = 0; p < probes.size(); ++p)
        perTime("probe_" + probes[p], "probe " + probes[p] + " (persistent value)",
                [&, p](std::size_t c, std::size_t t) {
                    const auto& v = results[c].samples[t].probes[p];
                    return v ? double(*v) : NAN;
                });
    perTime("texels_disturbed", "texels disturbed (persistent != 0)",
            [&](std::size_t c, std::size_t t) {
                return double(results[c].samples[t].texelsDisturbed);
            });
    perTime("psnr_db", "PSNR against combination 0 (dB)", [&](std::size_t c, std::size_t t) {
        return std::isfinite(psnr[c][t]) ? psnr[c][t] : NAN;
    });
    // The relief, measured once at the end of the run.
    const auto atEnd = [&](std::string name, std::string yLabel,
                           std::function<double(std::size_t)> value) {
        metrics.push_back({std::move(name),
                           std::move(yLabel),
                           {"end of the run"},
                           [value](std::size_t c) { return std::vector<double>{value(c)}; },
                           {false}});
    };
    atEnd("deepest_cm", "deepest print (cm)",
          [&](std::size_t c) { return results[c].relief.deepestCm; });
    atEnd("crest_cm", "rim crest (cm)", [&](std::size_t c) { return results[c].relief.crestCm; });
    // The fade times: one line per probe, the clock's prediction for a full print dashed.
    const std::pair<const char*, std::optional<double> MeasuredFade::*> fades[] = {
        {"to50_s", &MeasuredFade::to50S},
        {"to10_s", &MeasuredFade::to10S},
        {"to0_s", &MeasuredFade::toZeroS}};
    const std::optional<double> PredictedFade::*predicted[] = {
        &PredictedFade::to50S, &PredictedFade::to10S, &PredictedFade::toZeroS};
    for (int f = 0; f < 3; ++f) {
        Metric m{fades[f].first,
                 fmt::format("time to {} (s, measured)", f == 0   ? "50 %"
                                                         : f == 1 ? "10 %"
                                                                  : "exactly 0"),
                 {},
                 {},
                 {}};
        for (const std::string& p : probes) {
            m.series.push_back(p);
            m.dashed.push_back(false);
        }
        m.series.push_back("predicted (sim clock)");
        m.dashed.push_back(true);
        const auto member = fades[f].second;
        const auto predictedMember = predicted[f];
        m.values = [&, member, predictedMember](std::size_t c) {
            std::vector<double> out;
            for (const MeasuredFade& fade : results[c].fades)
                out.push_back(orNan(fade.*member));
            out.push_back(orNan(results[c].predicted.*predictedMember));
            return out;
        };
        metrics.push_back(std::move(m));
    }
    return metrics;
}

// Every metric against axis `a`, one line per combination of the other axes' values.
std::optional<std::string> writeAxisPlots(const fs::path& dir, const SweepPlan& plan,
                                          const std::vector<SweepResult>& results,
                                          const std::vector<Metric>& metrics, std::size_t a) {
    const SweepAxis& axis = plan.request.axes[a];
    // A numeric key is plotted at its values; any other at its position in --vary.
    bool isNumeric = true;
    for (const std::string& v : axis.values)
        isNumeric = isNumeric && numeric(v).has_value();
    const auto xOf = [&](const std::string& value) {
        if (isNumeric)
            return *numeric(value);
        return double(std::find(axis.values.begin(), axis.values.end(), value) -
                      axis.values.begin());
    };
    std::string xLabel = axis.key;
    if (!isNumeric) {
        xLabel += " (";
        for (std::size_t i = 0; i < axis.values.size(); ++i)
            xLabel += fmt::format("{}{} = {}", i ? ", " : "", i, axis.values[i]);
        xLabel += ")";
    }
    // The other keys' values split the combinations into groups: one line each.
    std::map<std::string, std::vector<std::size_t>> groups;
    for (std::size_t c = 0; c < results.size(); ++c) {
        std::string others;
        for (std::size_t o = 0; o < plan.request.axes.size(); ++o)
            if (o != a)
                others += fmt::format("{}{} {}", others.empty() ? "" : ", ",
                                      plan.request.axes[o].key, plan.combinations[c].values[o]);
        groups[others].push_back(c);
    }
    for (const Metric& metric : metrics) {
        std::vector<PlotSeries> series;
        int colour = 0;
        for (const auto& [others, members] : groups)
            for (std::size_t s = 0; s < metric.series.size(); ++s) {
                PlotSeries line;
                line.label =
                    others.empty() ? metric.series[s] : metric.series[s] + " (" + others + ")";
                line.dashed = metric.dashed[s];
                line.colour = plotColour(colour++);
                for (std::size_t c : members) {
                    line.x.push_back(xOf(plan.combinations[c].values[a]));
                    line.y.push_back(metric.values(c)[s]);
                }
                series.push_back(std::move(line));
            }
        // Times spanning decades (a decay ladder's half-lives) read on a log axis.
        double lo = INFINITY, hi = 0.0;
        for (const PlotSeries& line : series)
            for (double y : line.y)
                if (std::isfinite(y) && y > 0.0)
                    lo = std::min(lo, y), hi = std::max(hi, y);
        PlotOptions options;
        options.title =
            fmt::format("{}: {} against {}", plan.request.scenario, metric.yLabel, axis.key);
        options.xLabel = xLabel;
        options.yLabel = metric.yLabel;
        options.logY = metric.name.ends_with("_s") && hi > 20.0 * lo;
        const fs::path file =
            dir / fmt::format("{}_vs_{}.png", fileSafe(metric.name), fileSafe(axis.key));
        if (auto error = writePng(file, renderPlot(series, options)))
            return error;
    }

    return std::nullopt;
}

} // namespace

std::optional<std::string> writeSweepPlots(const fs::path& dir, const SweepPlan& plan,
                                           const std::vector<SweepResult>& results,
                                           const std::vector<std::vector<double>>& psnr) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        return fmt::format("{}: cannot create directory ({})", dir.string(), ec.message());
    const std::vector<Metric> metrics = sweepMetrics(plan, results, psnr);
    for (std::size_t a = 0; a < plan.request.axes.size(); ++a)
        if (auto error = writeAxisPlots(dir, plan, results, metrics, a))
            return error;
    return std::nullopt;
}

} // namespace snowcap
