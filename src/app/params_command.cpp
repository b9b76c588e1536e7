// `snowcap params`: the parameter table as text. --toml writes config/default.toml, --markdown
// docs/parameters.md, --glsl the shaders' shared constants (all generated, and tests fail when
// the committed files drift); with --scenario, every key of that scenario's loaded settings
// (after --set) as TOML.
#include "app/commands.hpp"
#include "core/params.hpp"
#include "lab/session.hpp"
#include "snow/shader_constants.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

namespace snowcap {

CLI::App* addParamsCommand(CLI::App& app, ParamsOptions& options) {
    CLI::App* command = app.add_subcommand(
        "params", "Print the parameter table: default.toml, the reference, or a scenario's keys");
    auto* toml = command->add_flag("--toml", options.toml,
                                   "config/default.toml: every key with its default and doc");
    auto* markdown =
        command->add_flag("--markdown", options.markdown, "docs/parameters.md: the reference")
            ->excludes(toml);
    command
        ->add_flag("--glsl", options.glsl,
                   "shaders/common/shared_constants.glsl: the constants C++ and GLSL share")
        ->excludes(toml)
        ->excludes(markdown);
    command->add_option("--scenario", options.scenario,
                        "Every key of this scenario's settings (after --set), as TOML");
    return command;
}

int runParams(const CommonOptions& common, const ParamsOptions& options) {
    if (options.glsl) {
        std::cout << shaderConstantsGlsl();
        return 0;
    }
    if (options.markdown) {
        std::cout << params::parameterMarkdown();
        return 0;
    }
    if (options.scenario.empty()) {
        std::cout << params::defaultToml();
        return 0;
    }
    auto loaded = loadScenarioSettings(options.scenario, common.overrides);
    if (const auto* error = std::get_if<ConfigError>(&loaded)) {
        std::fprintf(stderr, "%s\n", error->message.c_str());
        return 2;
    }
    std::cout << params::readableToml(params::toToml(std::get<Settings>(loaded))) << "\n";
    return 0;
}

} // namespace snowcap
