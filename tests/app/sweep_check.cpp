// Checks a `snowcap sweep` output directory against `snowcap render` runs of the same settings
// (tests/app/SweepCliTest.cmake):
//
//   sweep_check SWEEP_DIR TILE_W TILE_H SIM [RENDER_DIR COMBINATION]...
//
// - sheet.png holds rows x columns tiles (its size, read back);
// - for each RENDER_DIR, sweep.csv's row COMBINATION equals what that run's stats.json reports
//   for sim SIM: the probe values at every --at time, texels disturbed, deepest print and rim
//   crest at the end, the measured fade times (empty = null) and the clock's predicted ones;
// - the first combination's PSNR against itself is inf, sweep.json agrees with sweep.csv.
// Exits 1 with one line per difference.
#include "io/image.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

int failures = 0;

void fail(const std::string& message) {
    std::fprintf(stderr, "sweep_check: %s\n", message.c_str());
    ++failures;
}

// sweep.csv as rows of named cells (no quoted cells in the columns checked here).
std::vector<std::map<std::string, std::string>> readCsv(const std::string& path) {
    std::ifstream file(path);
    std::vector<std::map<std::string, std::string>> rows;
    std::string line;
    std::vector<std::string> header;
    const auto split = [](const std::string& text) {
        std::vector<std::string> cells;
        std::stringstream stream(text);
        std::string cell;
        while (std::getline(stream, cell, ','))
            cells.push_back(cell);
        if (!text.empty() && text.back() == ',')
            cells.emplace_back();
        return cells;
    };
    if (!std::getline(file, line))
        return rows;
    header = split(line);
    while (std::getline(file, line)) {
        const std::vector<std::string> cells = split(line);
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < header.size(); ++i)
            row[header[i]] = i < cells.size() ? cells[i] : "";
        rows.push_back(row);
    }
    return rows;
}

nlohmann::json readJson(const std::string& path) {
    std::ifstream file(path);
    nlohmann::json json = nlohmann::json::parse(file, nullptr, false);
    if (json.is_discarded())
        fail(path + ": not JSON");
    return json;
}

// A CSV cell against a stats.json number: equal as doubles, or both "not reached".
void expectSame(const std::string& what, const std::string& cell, const nlohmann::json& value) {
    if (value.is_null()) {
        if (!cell.empty())
            fail(what + ": sweep.csv has " + cell + ", render has null");
        return;
    }
    if (cell.empty()) {
        fail(what + ": sweep.csv is empty, render has " + value.dump());
        return;
    }
    const double a = std::stod(cell), b = value.get<double>();
    if (a != b)
        fail(what + ": sweep.csv has " + cell + ", render has " + value.dump());
}

std::string timeText(double t) {
    std::ostringstream text;
    text << t;
    return text.str();
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 5 || (argc - 5) % 2 != 0) {
        std::fprintf(stderr, "usage: sweep_check SWEEP_DIR TILE_W TILE_H SIM [RENDER_DIR C]...\n");
        return 2;
    }
    const std::string dir = argv[1];
    const int tileW = std::stoi(argv[2]), tileH = std::stoi(argv[3]);
    const std::string sim = argv[4];
    const auto rows = readCsv(dir + "/sweep.csv");
    const nlohmann::json sweep = readJson(dir + "/sweep.json");
    if (rows.empty() || sweep.is_discarded())
        return 1;
    const std::vector<double> at = sweep.at("at_s").get<std::vector<double>>();
    const int fps = sweep.at("fps").get<int>();

    // The sheet: one tile per combination and time, 4 px apart with a 4 px border.
    auto sheet = snowcap::readPng(dir + "/sheet.png");
    if (auto* error = std::get_if<std::string>(&sheet)) {
        fail(*error);
    } else {
        const auto& image = std::get<snowcap::ImageRgba8>(sheet);
        const int columns = static_cast<int>(at.size()), count = static_cast<int>(rows.size());
        if (image.width != columns * (tileW + 4) + 4 || image.height != count * (tileH + 4) + 4)
            fail("sheet.png is " + std::to_string(image.width) + "x" +
                 std::to_string(image.height) + ", expected " + std::to_string(count) + " rows x " +
                 std::to_string(columns) + " columns of " + std::to_string(tileW) + "x" +
                 std::to_string(tileH));
    }
    if (sweep.at("combinations").size() != rows.size())
        fail("sweep.json and sweep.csv differ in their number of combinations");
    for (std::size_t t = 0; t < at.size(); ++t)
        if (rows[0].at("psnr_db@" + timeText(at[t]) + "s") != "inf")
            fail("the first combination's PSNR against itself is not inf");

    for (int a = 5; a + 1 < argc; a += 2) {
        const std::string renderDir = argv[a];
        const int c = std::stoi(argv[a + 1]);
        const nlohmann::json stats = readJson(renderDir + "/stats.json");
        if (stats.is_discarded())
            continue;
        const auto& row = rows.at(c);
        const nlohmann::json& s = stats.at("sims").at(sim);
        const std::string run = renderDir + " vs combination " + std::to_string(c);
        for (const nlohmann::json& probe : s.at("probes")) {
            const std::string name = probe.at("name").get<std::string>();
            for (double t : at) {
                const int step = static_cast<int>(std::lround(t * fps));
                expectSame(run + ": " + name + " at " + timeText(t) + " s",
                           row.at(name + "@" + timeText(t) + "s"), probe.at("values").at(step - 1));
            }
            const nlohmann::json& fade = probe.at("fade");
            for (const char* m : {"peak", "start_s", "to50_s", "to10_s", "to0_s"}) {
                const std::string column =
                    name + "." +
                    (std::string(m) == "start_s" ? std::string("fade_start_s") : std::string(m));
                expectSame(run + ": " + column, row.at(column), fade.at(m));
            }
        }
        for (const char* m : {"to50_s", "to10_s", "to0_s"})
            expectSame(run + ": predicted." + std::string(m), row.at("predicted." + std::string(m)),
                       s.at("predicted_fade").at(m));
        // The end of the run is the last --at time when no --frames is given.
        const std::string end = timeText(at.back()) + "s";
        expectSame(run + ": texels disturbed", row.at("texels_disturbed@" + end),
                   s.at("buffer").at("nonzero"));
        expectSame(run + ": deepest print", row.at("deepest_cm"), s.at("relief").at("deepest_cm"));
        expectSame(run + ": rim crest", row.at("crest_cm"), s.at("relief").at("crest_cm"));
    }
    if (failures == 0)
        std::printf("sweep_check: %zu combinations, every value as render reports it\n",
                    rows.size());
    return failures == 0 ? 0 : 1;
}
