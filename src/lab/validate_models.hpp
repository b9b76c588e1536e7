#pragma once
// The experiments `snowcap validate` runs on the model (docs/validation.md): each sets up a small
// snowpack the way a published experiment set up its snow, runs the model's own laws on it
// through the CPU reference of the passes (src/snow/*_reference.*, equal to the GPU passes texel
// for texel, `SnowpackGL.MatchesTheCpuReference`, `WeatherGL.*`), and reads off the quantity that
// was measured, once per measured row and along a curve for the plot.

#include "lab/validate_case.hpp"

#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace snowcap {

struct ModelCurve {
    std::string label;
    std::vector<double> x, y; // NaN or infinite y: no value there (the line breaks)
    bool dashed = false;
    // The value of the case's group column this curve is for (NaN: every row's).
    double group = std::numeric_limits<double>::quiet_NaN();
};

struct ExperimentResult {
    // The model's value for each measured row, in the case's unit; +infinity where the model
    // gives none (snow that never drifts), which no band holds.
    std::vector<double> model;
    std::vector<ModelCurve> curves;
    std::string note; // one line on what the model ran (printed under the case)
};

// The experiment `c.experiment` names, on `c`'s scenario and rows; one line when the case asks
// for one that does not exist or lacks a column it needs.
std::variant<ExperimentResult, std::string> runExperiment(const ValidationCase& c);

// The experiments' names, for the error line and the docs.
std::vector<std::string_view> experimentNames();

} // namespace snowcap
