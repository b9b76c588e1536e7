// `snowcap validate` (docs/validation.md): published experiments run on the model.
#include "app/validate_command.hpp"

#include <CLI/CLI.hpp>

namespace snowcap {

CLI::App* addValidateCommand(CLI::App& app, ValidateOptions& options) {
    CLI::App* command = app.add_subcommand(
        "validate", "Run the published experiments under validation/ and hold the model "
                    "against what was measured (exit 1 when a case is outside its band)");
    command->add_option("--only", options.only, "These cases (folder names), comma-separated")
        ->delimiter(',');
    command->add_option("--out", options.outDir,
                        "Where report.md, validation.json and plots/ go (default out/validate)");
    command->add_option("--cases", options.cases,
                        "The folder of case folders (default: the repository's validation/)");
    return command;
}

int runValidate(const CommonOptions& common, const ValidateOptions& options) {
    return runValidation(options, common.overrides);
}

} // namespace snowcap
