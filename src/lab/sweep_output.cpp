#include "lab/sweep_output.hpp"

#include "core/config.hpp"
#include "core/untrusted_file.hpp"
#include "lab/run_guard.hpp"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace snowcap {

namespace fs = std::filesystem;

double tilePsnr(const ImageRgba8& a, const ImageRgba8& b) {
    if (a.pixels.size() != b.pixels.size() || a.pixels.empty())
        return NAN;
    double sum = 0.0;
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.pixels.size(); ++i) {
        if (i % 4 == 3)
            continue;
        const double d = double(a.pixels[i]) - double(b.pixels[i]);
        sum += d * d;
        ++n;
    }
    const double mse = sum / double(n);
    return mse == 0.0 ? INFINITY : 10.0 * std::log10(255.0 * 255.0 / mse);
}

std::optional<std::string> writeSweepPlots(const fs::path& dir, const SweepPlan& plan,
                                           const std::vector<SweepResult>& results,
                                           const std::vector<std::vector<double>>& psnr);

namespace {

// Shortest text that reads back as the same double (a float widened exactly first), so CSV
// cells compare equal with stats.json's numbers; empty for "not reached".
std::string number(std::optional<double> value) {
    if (!value)
        return {};
    if (std::isinf(*value))
        return *value > 0 ? "inf" : "-inf";
    return fmt::format("{}", *value);
}
std::string number(std::optional<float> value) {
    return value ? number(std::optional<double>(double(*value))) : std::string();
}

nlohmann::json jsonNumber(std::optional<double> value) {
    if (!value || std::isnan(*value))
        return nullptr;
    if (std::isinf(*value))
        return "inf"; // a tile's PSNR against itself; JSON has no infinity
    return *value;
}

// A CSV cell: quoted when it holds a comma or a quote (TOML arrays and strings do).
std::string cell(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string timeText(double t) {
    return fmt::format("{}", t);
}

ImageRgba8 contactSheet(const SweepPlan& plan, const std::vector<SweepResult>& results) {
    const int columns = static_cast<int>(plan.request.atS.size());
    const int rows = static_cast<int>(results.size());
    const ImageRgba8& first = results.front().samples.front().tile;
    const int w = first.width, h = first.height;
    ImageRgba8 sheet(columns * (w + kSheetGap) + kSheetGap, rows * (h + kSheetGap) + kSheetGap,
                     {24, 26, 32, 255});
    const int scale = w >= 480 ? 2 : 1;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c) {
            ImageRgba8 tile = results[r].samples[c].tile;
            const std::string label =
                fmt::format("{}\nt = {} s", plan.label(r), timeText(plan.request.atS[c]));
            drawLabel(tile, 4 * scale, 4 * scale, label, {255, 255, 255, 255}, scale);
            sheet.blit(tile, kSheetGap + c * (w + kSheetGap), kSheetGap + r * (h + kSheetGap));
        }
    return sheet;
}

// sweep.json's "run": each batch's wall time, and for a merge each shard's record.
nlohmann::json runJson(const SweepPlan& plan, const std::vector<SweepResult>& results,
                       const SweepRunInfo& info) {
    std::vector<double> batchWall(plan.batches.size(), 0.0);
    for (std::size_t b = 0; b < plan.batches.size(); ++b)
        batchWall[b] = results[plan.batches[b].combinations.front()].batchWallS;
    const auto batches = [&](const std::vector<int>& which) {
        nlohmann::json list = nlohmann::json::array();
        for (int b : which)
            list.push_back({{"batch", b}, {"wall_s", batchWall[b]}});
        return list;
    };
    nlohmann::json run = {{"wall_seconds", info.wallSeconds}};
    if (info.shards.empty()) {
        std::vector<int> all(plan.batches.size());
        for (std::size_t b = 0; b < all.size(); ++b)
            all[b] = static_cast<int>(b);
        run["jobs"] = info.jobs;
        run["gl_renderer"] = info.glRenderer;
        run["batches"] = batches(all);
        return run;
    }
    nlohmann::json shards = nlohmann::json::array();
    for (const SweepShardRecord& r : info.shards)
        shards.push_back({{"shard", r.shard.text()},
                          {"host", r.host},
                          {"jobs", r.jobs},
                          {"wall_seconds", r.wallSeconds},
                          {"gl_renderer", r.glRenderer},
                          {"batches", batches(r.batches)}});
    run["shards"] = shards;
    return run;
}

} // namespace

namespace {
std::optional<std::string> writeStagedOutputs(const fs::path& dir, const SweepPlan& plan,
                                              std::vector<SweepResult> results,
                                              const SweepRunInfo& info);
} // namespace

std::optional<std::string> checkSweepOutputs(const fs::path& dir) {
    for (const char* name : {"sheet.png", "sweep.csv", "sweep.json"})
        if (auto refused = checkReplaceable(dir / name))
            return *refused;
    std::error_code ec;
    const fs::file_status plots = fs::symlink_status(dir / "plots", ec);
    if (fs::exists(plots) && !fs::is_directory(plots))
        return fmt::format("{}: not a directory ({}), not replaced", (dir / "plots").string(),
                           fs::is_symlink(plots) ? "a symbolic link" : "a file");
    for (const fs::directory_entry& entry : fs::directory_iterator(dir / "plots", ec))
        if (auto refused = checkReplaceable(entry.path()))
            return *refused;
    return std::nullopt;
}

namespace {

// The outputs are written beside their places first, all of them, and only then renamed into
// place: a refusal, a full disk or an interrupt while they are written replaces none of the
// last run's, and the renames that follow cannot fail for want of space.
std::optional<std::string> publishStaged(const fs::path& staging, const fs::path& dir) {
    if (auto refused = checkSweepOutputs(dir)) // swapped for something else meanwhile
        return refused;
    std::error_code ec;
    fs::create_directories(dir / "plots", ec);
    if (ec)
        return fmt::format("{}: cannot create directory ({})", (dir / "plots").string(),
                           ec.message());
    std::vector<fs::path> staged;
    for (const char* name : {"sheet.png", "sweep.csv", "sweep.json"})
        staged.push_back(name);
    for (const fs::directory_entry& entry : fs::directory_iterator(staging / "plots", ec))
        staged.push_back(fs::path("plots") / entry.path().filename());
    for (const fs::path& name : staged) {
        fs::rename(staging / name, dir / name, ec);
        if (ec)
            return fmt::format("{}: cannot rename into place ({})", (dir / name).string(),
                               ec.message());
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> writeSweepOutputs(const fs::path& dir, const SweepPlan& plan,
                                             std::vector<SweepResult> results,
                                             const SweepRunInfo& info) {
    if (auto refused = checkSweepOutputs(dir))
        return refused;
    const fs::path staging = dir / fmt::format(".sweep-outputs-{}", static_cast<long>(getpid()));
    std::error_code ec;
    fs::remove_all(staging, ec);
    fs::create_directories(staging, ec);
    if (ec)
        return fmt::format("{}: cannot create ({})", staging.string(), ec.message());
    auto error = writeStagedOutputs(staging, plan, std::move(results), info);
    if (const int signal = RunGuard::interruptedBy(); !error && signal)
        error = fmt::format("sweep: interrupted ({}) while writing; none of {}'s outputs was "
                            "replaced",
                            signal == SIGINT ? "SIGINT" : "SIGTERM", dir.string());
    if (!error)
        error = publishStaged(staging, dir);
    fs::remove_all(staging, ec);
    return error;
}

namespace {

// Every result the shape the sheet, the CSV and the plots index (a result read from a file is
// checked as it is read; this is the writer's own guard): why not, or nothing.
std::optional<std::string> resultsMismatch(const SweepPlan& plan,
                                           const std::vector<SweepResult>& results) {
    const std::vector<double>& at = plan.request.atS;
    const ImageRgba8& firstTile =
        results.front().samples.empty() ? ImageRgba8() : results.front().samples.front().tile;
    for (const SweepResult& r : results) {
        bool fits = r.combination == static_cast<int>(&r - results.data()) &&
                    r.samples.size() == at.size() && r.fades.size() == r.probeNames.size() &&
                    r.probeNames == results.front().probeNames;
        for (const SweepSample& sample : r.samples)
            fits = fits && sample.probes.size() == r.probeNames.size() &&
                   sample.tile.width == firstTile.width && sample.tile.height == firstTile.height &&
                   !sample.tile.empty();
        if (!fits)
            return fmt::format("sweep: the results of combination {} do not match the plan "
                               "(times, probes or tiles)",
                               r.combination);
    }
    return std::nullopt;
}

// sweep.csv's first line: the axes, each probe at each time and its fade, the prediction, the
// texels disturbed, the relief, the PSNR, the batch.
std::string csvHeader(const SweepPlan& plan, const std::vector<std::string>& probes) {
    const std::vector<double>& at = plan.request.atS;
    std::string csv = "combination";
    for (const SweepAxis& axis : plan.request.axes)
        csv += "," + cell(axis.key);
    for (const std::string& p : probes)
        for (double t : at)
            csv += "," + cell(fmt::format("{}@{}s", p, timeText(t)));
    for (const std::string& p : probes)
        for (const char* m : {"peak", "fade_start_s", "to50_s", "to10_s", "to0_s"})
            csv += "," + cell(fmt::format("{}.{}", p, m));
    csv += ",predicted.to50_s,predicted.to10_s,predicted.to0_s";
    for (double t : at)
        csv += fmt::format(",texels_disturbed@{}s", timeText(t));
    csv += ",deepest_cm,crest_cm"; // at the end of the run
    for (double t : at)
        csv += fmt::format(",psnr_db@{}s", timeText(t));
    csv += ",batch\n"; // its wall time is in sweep.json's "run": timings differ run to run
    return csv;
}

// The batch (and its slot) that ran combination r.
std::pair<int, int> batchOf(const SweepPlan& plan, std::size_t r) {
    int batch = 0, slot = 0;
    for (std::size_t b = 0; b < plan.batches.size(); ++b)
        for (std::size_t i = 0; i < plan.batches[b].combinations.size(); ++i)
            if (plan.batches[b].combinations[i] == static_cast<int>(r))
                batch = static_cast<int>(b), slot = plan.batches[b].slots[i];
    return {batch, slot};
}

// Combination r's line of sweep.csv.
std::string csvRow(const SweepPlan& plan, const SweepResult& result, std::size_t r, int batch,
                   const std::vector<double>& psnrAt) {
    const std::vector<double>& at = plan.request.atS;
    const std::vector<std::string>& probes = result.probeNames;
    const SweepCombination& combination = plan.combinations[r];
    std::string csv;
    csv += std::to_string(r);
    for (const std::string& value : combination.values)
        csv += "," + cell(value);
    for (std::size_t p = 0; p < probes.size(); ++p)
        for (std::size_t t = 0; t < at.size(); ++t)
            csv += "," + number(result.samples[t].probes[p]);
    for (const MeasuredFade& f : result.fades)
        for (const auto& v : {f.peak, f.startS, f.to50S, f.to10S, f.toZeroS})
            csv += "," + number(v);
    for (const auto& v : {result.predicted.to50S, result.predicted.to10S, result.predicted.toZeroS})
        csv += "," + number(v);
    for (std::size_t t = 0; t < at.size(); ++t)
        csv += "," + std::to_string(result.samples[t].texelsDisturbed);
    csv += "," + number(std::optional<double>(result.relief.deepestCm));
    csv += "," + number(std::optional<double>(result.relief.crestCm));
    for (std::size_t t = 0; t < at.size(); ++t)
        csv += "," + number(std::optional<double>(psnrAt[t]));
    csv += fmt::format(",{}\n", batch);
    return csv;
}

// Combination r in sweep.json: the same as its CSV line, with its label, overrides and slot.
nlohmann::json combinationJson(const SweepPlan& plan, const SweepResult& result, std::size_t r,
                               int batch, int slot, const std::vector<double>& psnrAt) {
    const std::vector<double>& at = plan.request.atS;
    const std::vector<std::string>& probes = result.probeNames;
    const SweepCombination& combination = plan.combinations[r];
    nlohmann::json values = nlohmann::json::object();
    for (std::size_t a = 0; a < plan.request.axes.size(); ++a)
        values[plan.request.axes[a].key] = combination.values[a];
    nlohmann::json probeRows = nlohmann::json::array();
    for (std::size_t p = 0; p < probes.size(); ++p) {
        nlohmann::json valuesAt = nlohmann::json::array();
        for (const SweepSample& s : result.samples)
            valuesAt.push_back(s.probes[p] ? nlohmann::json(*s.probes[p])
                                           : nlohmann::json(nullptr));
        const MeasuredFade& f = result.fades[p];
        probeRows.push_back({{"name", probes[p]},
                             {"values_at", valuesAt},
                             {"fade",
                              {{"peak", jsonNumber(f.peak)},
                               {"start_s", jsonNumber(f.startS)},
                               {"to50_s", jsonNumber(f.to50S)},
                               {"to10_s", jsonNumber(f.to10S)},
                               {"to0_s", jsonNumber(f.toZeroS)}}}});
    }
    nlohmann::json samples = nlohmann::json::array();
    for (std::size_t t = 0; t < at.size(); ++t) {
        const SweepSample& s = result.samples[t];
        samples.push_back({{"at_s", s.atS},
                           {"step", s.step},
                           {"texels_disturbed", s.texelsDisturbed},
                           {"psnr_db", jsonNumber(psnrAt[t])}});
    }
    return {{"index", r},
            {"values", values},
            {"label", plan.label(static_cast<int>(r))},
            {"overrides", combination.overrides},
            {"batch", batch},
            {"slot", slot},
            {"probes", probeRows},
            {"predicted",
             {{"to50_s", jsonNumber(result.predicted.to50S)},
              {"to10_s", jsonNumber(result.predicted.to10S)},
              {"to0_s", jsonNumber(result.predicted.toZeroS)}}},
            {"at", samples},
            {"deepest_cm", result.relief.deepestCm},
            {"crest_cm", result.relief.crestCm}};
}

std::optional<std::string> writeStagedOutputs(const fs::path& dir, const SweepPlan& plan,
                                              std::vector<SweepResult> results,
                                              const SweepRunInfo& info) {
    std::sort(results.begin(), results.end(), [](const SweepResult& a, const SweepResult& b) {
        return a.combination < b.combination;
    });
    if (results.size() != plan.combinations.size() || results.empty())
        return fmt::format("sweep: {} results for {} combinations", results.size(),
                           plan.combinations.size());
    const std::vector<double>& at = plan.request.atS;
    if (auto mismatch = resultsMismatch(plan, results))
        return mismatch;
    // PSNR of every tile against the first combination's at the same time.
    std::vector<std::vector<double>> psnr(results.size());
    for (std::size_t r = 0; r < results.size(); ++r)
        for (std::size_t t = 0; t < at.size(); ++t)
            psnr[r].push_back(tilePsnr(results[0].samples[t].tile, results[r].samples[t].tile));

    if (auto error = writePng(dir / "sheet.png", contactSheet(plan, results)))
        return error;

    // sweep.csv and sweep.json's combinations: one row per combination.
    std::string csv = csvHeader(plan, results.front().probeNames);
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t r = 0; r < results.size(); ++r) {
        const auto [batch, slot] = batchOf(plan, r);
        csv += csvRow(plan, results[r], r, batch, psnr[r]);
        rows.push_back(combinationJson(plan, results[r], r, batch, slot, psnr[r]));
    }
    if (auto error = writeFileAtomically(dir / "sweep.csv",
                                         std::vector<std::uint8_t>(csv.begin(), csv.end())))
        return error;

    nlohmann::json axes = nlohmann::json::array();
    for (const SweepAxis& axis : plan.request.axes)
        axes.push_back({{"key", axis.key}, {"values", axis.values}});
    const Settings& first = plan.combinations.front().settings;
    nlohmann::json out = {{"scenario", plan.request.scenario},
                          {"overrides", plan.request.overrides},
                          {"vary", axes},
                          {"at_s", at},
                          {"measured_sim", std::string(1, char('a' + plan.measuredSim))},
                          {"packed", plan.packed},
                          {"field_capacity", sweepFieldCapacity()},
                          {"batches", plan.batches.size()},
                          {"frames", first.run.frames},
                          {"fps", first.run.fps},
                          {"stage", info.stage},
                          {"combinations", rows},
                          {"run", runJson(plan, results, info)}};
    const std::string text = out.dump(2) + "\n";
    if (auto error = writeFileAtomically(dir / "sweep.json",
                                         std::vector<std::uint8_t>(text.begin(), text.end())))
        return error;
    return writeSweepPlots(dir / "plots", plan, results, psnr);
}

} // namespace

} // namespace snowcap
