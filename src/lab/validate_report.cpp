#include "lab/validate_report.hpp"

#include "io/plot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>

namespace snowcap {

namespace {

// How far `model` lies outside [low, high] (0 inside); infinite for a model with no value.
double outsideBy(double model, double low, double high) {
    if (!std::isfinite(model))
        return std::numeric_limits<double>::infinity();
    return model < low ? low - model : (model > high ? model - high : 0.0);
}

std::string number(double value) {
    if (!std::isfinite(value))
        return value > 0 ? "none" : "-";
    const double magnitude = std::abs(value);
    if (magnitude != 0.0 && (magnitude < 0.01 || magnitude >= 1.0e5))
        return fmt::format("{:.3g}", value);
    return fmt::format("{:.{}f}", value, magnitude < 1.0 ? 3 : (magnitude < 100.0 ? 2 : 1));
}

std::string measuredText(const JudgedRow& row) {
    return fmt::format("{} ({}..{})", number(row.measured.value), number(row.measured.low),
                       number(row.measured.high));
}

std::string verdictText(const CaseOutcome& o) {
    return o.pass() ? "pass" : fmt::format("FAIL ({} of {} outside)", o.outside, o.rows.size());
}

nlohmann::ordered_json finiteOrNull(double value) {
    return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json();
}

} // namespace

CaseOutcome judge(ValidationCase c, ExperimentResult result) {
    CaseOutcome o;
    double worstOutside = -1.0, worstError = -1.0;
    for (std::size_t i = 0; i < c.rows.size(); ++i) {
        JudgedRow row;
        row.measured = measuredInterval(c, i);
        row.bandLow = row.measured.low - c.tolerance;
        row.bandHigh = row.measured.high + c.tolerance;
        row.model = result.model[i];
        const double outside = outsideBy(row.model, row.bandLow, row.bandHigh);
        row.inBand = outside == 0.0;
        o.outside += row.inBand ? 0 : 1;
        const double error = std::abs(row.model - row.measured.value);
        if (outside > worstOutside || (outside == worstOutside && error > worstError)) {
            worstOutside = outside;
            worstError = error;
            o.worst = i;
        }
        o.rows.push_back(row);
    }
    o.validationCase = std::move(c);
    o.result = std::move(result);
    return o;
}

std::string validationTable(const std::vector<CaseOutcome>& outcomes) {
    std::vector<std::array<std::string, 6>> lines = {
        {"case", "measured", "model", "error", "band", "verdict"}};
    for (const CaseOutcome& o : outcomes) {
        const JudgedRow& row = o.rows[o.worst];
        const std::string& unit = o.validationCase.unit;
        lines.push_back({o.validationCase.name, measuredText(row) + " " + unit,
                         number(row.model) + " " + unit, number(row.model - row.measured.value),
                         fmt::format("{}..{}", number(row.bandLow), number(row.bandHigh)),
                         verdictText(o)});
    }
    std::array<std::size_t, 6> widths{};
    for (const auto& line : lines)
        for (std::size_t i = 0; i < line.size(); ++i)
            widths[i] = std::max(widths[i], line[i].size());
    std::string text;
    for (const auto& line : lines) {
        for (std::size_t i = 0; i + 1 < line.size(); ++i)
            text += fmt::format("{:<{}}  ", line[i], widths[i]);
        text += line.back() + "\n";
    }
    return text;
}

ImageRgba8 validationPlot(const CaseOutcome& o) {
    const ValidationCase& c = o.validationCase;
    std::vector<PlotSeries> series;
    int colour = 0;
    for (const ModelCurve& curve : o.result.curves) {
        PlotSeries line;
        line.label = curve.label;
        line.x = curve.x;
        line.y = curve.y;
        for (double& y : line.y)
            y = std::isfinite(y) ? y : std::numeric_limits<double>::quiet_NaN();
        line.dashed = curve.dashed;
        line.colour = plotColour(colour++);
        series.push_back(std::move(line));
    }
    // The measured points: one series, or one per group in the colour of its model curve.
    const bool grouped = !c.groupColumn.empty() && !o.result.curves.empty();
    std::vector<PlotSeries> measured(grouped ? o.result.curves.size() : 1);
    const auto slot = [&](std::size_t row) {
        for (std::size_t k = 0; grouped && k < o.result.curves.size(); ++k) {
            if (o.result.curves[k].group == c.rows[row].at(c.groupColumn))
                return k;
        }
        return std::size_t{0};
    };
    for (std::size_t i = 0; i < o.rows.size(); ++i) {
        const JudgedRow& row = o.rows[i];
        PlotSeries& points = measured[slot(i)];
        points.x.push_back(c.rows[i].at(c.xColumn));
        points.y.push_back(row.measured.value);
        points.below.push_back(row.measured.value - row.measured.low);
        points.above.push_back(row.measured.high - row.measured.value);
    }
    bool labelled = false;
    for (std::size_t k = 0; k < measured.size(); ++k) {
        if (measured[k].x.empty())
            continue;
        measured[k].points = true;
        measured[k].colour =
            grouped ? plotColour(static_cast<int>(k)) : glm::u8vec4{20, 20, 20, 255};
        if (!labelled)
            measured[k].label = grouped ? "measured (by colour)" : "measured";
        labelled = true;
        series.push_back(std::move(measured[k]));
    }
    PlotOptions options;
    options.title = c.title;
    options.xLabel = c.xLabel;
    options.yLabel = c.yLabel;
    options.width = 960;
    options.height = 560;
    return renderPlot(series, options);
}

std::optional<std::string> writeValidationOutputs(const std::vector<CaseOutcome>& outcomes,
                                                  const std::filesystem::path& outDir) {
    std::error_code error;
    std::filesystem::create_directories(outDir / "plots", error);
    if (error)
        return fmt::format("{}: {}", (outDir / "plots").string(), error.message());

    bool allPass = true;
    nlohmann::ordered_json cases = nlohmann::ordered_json::array();
    std::string report = "# snowcap validate\n\n```\n" + validationTable(outcomes) + "```\n";
    for (const CaseOutcome& o : outcomes) {
        const ValidationCase& c = o.validationCase;
        allPass = allPass && o.pass();
        if (auto failed = writePng(outDir / "plots" / (c.name + ".png"), validationPlot(o)))
            return failed;

        report += fmt::format("\n## {}: {}\n\n", c.name, c.title);
        report += fmt::format("{} — *{}*: {}\n\n", verdictText(o), c.source, c.citation);
        report +=
            fmt::format("- Band: {}\n- Model tolerance: ±{} {}: {}\n- The model: {}\n\n", c.bandWhy,
                        number(c.tolerance), c.unit, c.toleranceWhy, o.result.note);
        report += fmt::format("![{}](plots/{}.png)\n\n", c.name, c.name);
        report +=
            fmt::format("| {} | measured ({}) | band | model | error | |\n", c.xColumn, c.unit);
        report += "| --- | --- | --- | --- | --- | --- |\n";
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < o.rows.size(); ++i) {
            const JudgedRow& row = o.rows[i];
            report += fmt::format(
                "| {} | {} | {}..{} | {} | {} | {} |\n", number(c.rows[i].at(c.xColumn)),
                measuredText(row), number(row.bandLow), number(row.bandHigh), number(row.model),
                number(row.model - row.measured.value), row.inBand ? "in" : "**out**");
            rows.push_back({{"x", c.rows[i].at(c.xColumn)},
                            {"measured", row.measured.value},
                            {"measured_low", row.measured.low},
                            {"measured_high", row.measured.high},
                            {"band_low", row.bandLow},
                            {"band_high", row.bandHigh},
                            {"model", finiteOrNull(row.model)},
                            {"error", finiteOrNull(row.model - row.measured.value)},
                            {"in_band", row.inBand}});
        }
        cases.push_back({{"name", c.name},
                         {"title", c.title},
                         {"experiment", c.experiment},
                         {"source", c.source},
                         {"citation", c.citation},
                         {"unit", c.unit},
                         {"x", c.xColumn},
                         {"tolerance", c.tolerance},
                         {"pass", o.pass()},
                         {"outside", o.outside},
                         {"rows", rows}});
    }
    const nlohmann::ordered_json json = {{"pass", allPass}, {"cases", cases}};
    const std::string text = json.dump(2) + "\n";
    if (auto failed = writeFileAtomically(outDir / "validation.json", {text.begin(), text.end()}))
        return failed;
    if (auto failed = writeFileAtomically(outDir / "report.md", {report.begin(), report.end()}))
        return failed;
    return std::nullopt;
}

} // namespace snowcap
