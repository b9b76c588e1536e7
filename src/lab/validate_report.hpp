#pragma once
// What `snowcap validate` makes of its cases (docs/validation.md): each measured row judged
// against its band, the table it prints, and the files it writes (report.md, validation.json and
// one plot per case: the model's curves with the measured points and their error bars).

#include "io/image.hpp"
#include "lab/validate_case.hpp"
#include "lab/validate_models.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

struct JudgedRow {
    MeasuredInterval measured;
    double bandLow = 0.0, bandHigh = 0.0; // the measurement's interval widened by the tolerance
    double model = 0.0;
    bool inBand = false;
};

struct CaseOutcome {
    ValidationCase validationCase;
    ExperimentResult result;
    std::vector<JudgedRow> rows;
    std::size_t worst = 0; // the row furthest outside its band, or with the largest error
    int outside = 0;       // rows outside their band
    bool pass() const { return outside == 0; }
};

// Every row of `c` against the model's value for it: in the band when
// measured low - tolerance <= model <= measured high + tolerance.
CaseOutcome judge(ValidationCase c, ExperimentResult result);

// The printed table: case, measured, model, error, band, verdict (the worst row of each case).
std::string validationTable(const std::vector<CaseOutcome>& outcomes);

// The case's plot (plots/NAME.png under the output folder).
ImageRgba8 validationPlot(const CaseOutcome& outcome);

// report.md, validation.json and plots/NAME.png under `outDir`; one line naming the file that
// could not be written.
std::optional<std::string> writeValidationOutputs(const std::vector<CaseOutcome>& outcomes,
                                                  const std::filesystem::path& outDir);

} // namespace snowcap
