#pragma once
// `snowcap validate` (app/validate_command.cpp, lab/validate_run.hpp).

#include "lab/session.hpp"
#include "lab/validate_run.hpp"

namespace CLI {
class App;
}

namespace snowcap {

CLI::App* addValidateCommand(CLI::App& app, ValidateOptions& options);
int runValidate(const CommonOptions& common, const ValidateOptions& options);

} // namespace snowcap
