#pragma once
// One published experiment that `snowcap validate` runs (docs/validation.md): a folder under
// validation/ holding
//   case.toml     what was measured, by which experiment of the model, the band and why, the
//                 source (its title as docs/sources.md cites it, and the full citation);
//   measured.csv  the measurements: '#' lines state units and uncertainty, then a header row
//                 and one row of numbers per measurement;
//   scenario.toml a snowcap scenario (the same reader as `render --scenario`): the model's
//                 settings for the experiment, sim.a being the snowpack it runs.
// Loading checks everything and answers one line naming the file (and line or key) at fault.

#include "core/settings.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// One row of measured.csv, by column name.
using MeasuredRow = std::map<std::string, double, std::less<>>;

struct ValidationCase {
    std::string name; // the folder's name
    std::filesystem::path folder;
    std::string title;           // one line: what the case holds the model against
    std::string experiment;      // which experiment of the model runs it (validate_models.hpp)
    std::string source;          // the title docs/sources.md cites it by
    std::string citation;        // the full citation
    std::string bandWhy;         // why the band is what it is
    std::string xColumn, xLabel; // the plot's x axis: a column of measured.csv
    std::string measuredColumn, yLabel; // the measured quantity and its axis label (with unit)
    std::string unit;
    // The measurement's own interval: value +- the `uncertainty` column, or the `low` / `high`
    // columns (a stated range). The band adds the model's stated tolerance on both sides.
    std::string uncertaintyColumn, lowColumn, highColumn;
    // A column that sorts the rows into groups the model runs apart (the snow's density of each
    // rut): the plot draws each group's points in the colour of the model's curve for it.
    std::string groupColumn;
    double tolerance = 0.0; // in `unit`: what the model is allowed beyond the measurement's own
    std::string toleranceWhy;
    std::vector<MeasuredRow> rows;
    Settings settings; // scenario.toml
    double texelCm = 1.0;
    int resolution = 16; // texels a side of the experiment's grid
};

// The measurement's interval of row `i` (before the model's tolerance).
struct MeasuredInterval {
    double value = 0.0, low = 0.0, high = 0.0;
};
MeasuredInterval measuredInterval(const ValidationCase& c, std::size_t i);

// Reads a case folder. `overrides` (--set) apply to its scenario, as for render.
std::variant<ValidationCase, std::string>
loadValidationCase(const std::filesystem::path& folder, const std::vector<std::string>& overrides);

// measured.csv's rows; one line naming FILE:LINE and the reason on bad input.
std::variant<std::vector<MeasuredRow>, std::string>
readMeasuredCsv(const std::filesystem::path& file);

// The case folders under `root` (validation/), by name; `only` (empty: all) picks some, and a
// name that is no folder there is one line naming it.
std::variant<std::vector<std::filesystem::path>, std::string>
validationFolders(const std::filesystem::path& root, const std::vector<std::string>& only);

} // namespace snowcap
