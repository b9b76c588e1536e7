// `snowcap passes`: the frame's list of passes for a scenario (its first step, every sim drawn
// in its pane): each pass's reads, writes, bindings, state and timer name; --markdown writes
// docs/architecture.md's pass table (generated, and a test fails when the committed one drifts).
#include "app/commands.hpp"
#include "gpu/shader_library.hpp"
#include "lab/lab.hpp"
#include "lab/pass_table.hpp"
#include "platform/gl_context.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

namespace snowcap {

CLI::App* addPassesCommand(CLI::App& app, PassesOptions& options) {
    CLI::App* command =
        app.add_subcommand("passes", "Print the frame's passes: reads, writes, bindings, state");
    command->add_option("--scenario", options.scenario, "The scenario (default: the defaults)")
        ->capture_default_str();
    command->add_flag("--markdown", options.markdown, "docs/architecture.md's pass table");
    return command;
}

int runPasses(const CommonOptions& common, const PassesOptions& options) {
    auto context = HeadlessContext::create(common.debugGl);
    if (auto* error = std::get_if<ContextError>(&context)) {
        std::fprintf(stderr, "%s\n", error->message.c_str());
        return 2;
    }
    const std::string renderer = std::get<0>(context)->info().renderer;
    auto created = Lab::create(options.scenario, common.overrides, renderer);
    if (auto* error = std::get_if<std::string>(&created)) {
        std::fprintf(stderr, "%s\n", error->c_str());
        return 2;
    }
    Lab& lab = *std::get<0>(created);
    advanceScenarioStep(lab);
    const std::vector<gpu::PassRecord> passes = scenarioFramePasses(lab);
    std::cout << (options.markdown ? passListMarkdown(passes) : passListText(passes));
    return 0;
}

} // namespace snowcap
