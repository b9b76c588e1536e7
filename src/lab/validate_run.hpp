#pragma once
// `snowcap validate` (docs/validation.md): the cases under validation/, each run, judged against
// its band and written out. No GL: the experiments run the CPU reference of the passes.

#include <filesystem>
#include <string>
#include <vector>

namespace snowcap {

struct ValidateOptions {
    std::filesystem::path cases;   // the folder of case folders (empty: <root>/validation)
    std::vector<std::string> only; // --only: these cases, by folder name (empty: all)
    std::filesystem::path outDir = "out/validate";
    bool quiet = false; // no table on stdout (the tests)
};

// Runs the cases; prints the table; writes report.md, validation.json and plots/ under outDir.
// 0 when every case is in its band, 1 when one is not, 2 on bad input (one line on stderr).
int runValidation(const ValidateOptions& options, const std::vector<std::string>& overrides);

} // namespace snowcap
