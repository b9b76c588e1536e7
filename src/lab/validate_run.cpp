#include "lab/validate_run.hpp"

#include "core/paths.hpp"
#include "lab/validate_report.hpp"

#include <cstdio>
#include <fmt/format.h>

namespace snowcap {

int runValidation(const ValidateOptions& options, const std::vector<std::string>& overrides) {
    const std::filesystem::path root =
        options.cases.empty() ? resourceRoot() / "validation" : options.cases;
    auto folders = validationFolders(root, options.only);
    if (const auto* error = std::get_if<std::string>(&folders)) {
        std::fprintf(stderr, "%s\n", error->c_str());
        return 2;
    }
    std::vector<CaseOutcome> outcomes;
    for (const std::filesystem::path& folder :
         std::get<std::vector<std::filesystem::path>>(folders)) {
        auto loaded = loadValidationCase(folder, overrides);
        if (const auto* error = std::get_if<std::string>(&loaded)) {
            std::fprintf(stderr, "%s\n", error->c_str());
            return 2;
        }
        ValidationCase& c = std::get<ValidationCase>(loaded);
        auto result = runExperiment(c);
        if (const auto* error = std::get_if<std::string>(&result)) {
            std::fprintf(stderr, "%s\n", error->c_str());
            return 2;
        }
        outcomes.push_back(judge(std::move(c), std::move(std::get<ExperimentResult>(result))));
    }
    if (outcomes.empty()) {
        std::fprintf(stderr, "%s: no case folders (each holds a case.toml)\n",
                     root.string().c_str());
        return 2;
    }
    if (auto error = writeValidationOutputs(outcomes, options.outDir)) {
        std::fprintf(stderr, "%s\n", error->c_str());
        return 1;
    }
    bool allPass = true;
    for (const CaseOutcome& o : outcomes)
        allPass = allPass && o.pass();
    if (!options.quiet) {
        std::fputs(validationTable(outcomes).c_str(), stdout);
        std::printf("%s; wrote %s\n",
                    allPass ? "every case in its band" : "a case outside its band",
                    (options.outDir / "report.md").string().c_str());
    }
    return allPass ? 0 : 1;
}

} // namespace snowcap
