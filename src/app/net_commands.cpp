// `snowcap serve`, `snowcap replay`, and render's --connect and --record-inputs: the command-line
// face of net/ (docs/network.md).
#include "app/commands.hpp"
#include "net/net_bench.hpp"
#include "net/replay.hpp"
#include "net/server.hpp"

#include <CLI/CLI.hpp>
#include <limits>

namespace snowcap {

namespace {

// The options live as long as the program (main's commands outlive the parse).
net::ServeOptions gServe;
net::ReplayOptions gReplay;
net::NetBenchOptions gBench;

} // namespace

NetCommands addNetCommands(CLI::App& app, CLI::App& render, RenderOptions& renderOptions) {
    NetCommands commands;
    commands.serve = app.add_subcommand(
        "serve", "Run a scenario as the authoritative session of --connect clients (ENet/UDP)");
    commands.serve->add_option("--scenario", gServe.scenario, "Scenario name or TOML file")
        ->capture_default_str();
    commands.serve->add_option("--port", gServe.port, "UDP port (0: any free one, logged)")
        ->check(CLI::Range(0, 65535))
        ->capture_default_str();
    commands.serve
        ->add_option("--frames", gServe.frames,
                     "Stop after step N once every client reached it (default: run.frames)")
        ->check(CLI::Range(1, std::numeric_limits<int>::max()));
    commands.serve
        ->add_option("--wait-clients", gServe.waitClients,
                     "Start the clock once this many clients have joined")
        ->check(CLI::Range(0, 64));
    commands.serve
        ->add_option("--expect-clients", gServe.expectClients,
                     "End only once this many clients have joined in all (late joiners "
                     "included) and reached the last step, or net.timeout_s has passed")
        ->check(CLI::Range(0, 64));
    commands.serve->add_option("--out", gServe.outDir, "Output directory")->capture_default_str();

    commands.replay = app.add_subcommand(
        "replay", "Replay a run recorded with render --record-inputs, byte for byte");
    commands.replay->add_option("file", gReplay.file, "The record")->required();
    commands.replay->add_option("--out", gReplay.outDir, "Output directory")->capture_default_str();

    commands.bench = app.add_subcommand(
        "net-bench", "Bytes per second per client of each net.mode against the crowd's size, "
                     "and the late-join snapshot against the buffer's (docs/network.md)");
    commands.bench->add_option("--crowds", gBench.crowds, "Deformer counts")
        ->delimiter(',')
        ->check(CLI::Range(1, 10000));
    commands.bench->add_option("--sizes", gBench.sizes, "Buffer sides of the late-join cases")
        ->delimiter(',')
        ->check(CLI::Range(16, 8192));
    commands.bench->add_option("--frames", gBench.frames, "Steps of each crowd case")
        ->check(CLI::Range(1, 100000));
    commands.bench->add_option("--json", gBench.json, "Also write the results here");

    render.add_option("--connect", renderOptions.connect,
                      "Join the session of `snowcap serve` at HOST:PORT as a headless client");
    render.add_option("--record-inputs", renderOptions.recordInputs,
                      "Write the run's input stream to FILE (snowcap replay FILE reproduces it)");
    // A client that lies, for the server's tests (docs/network.md): not for users.
    render.add_option("--lie-player-input", renderOptions.liePlayerInput)->group("");
    render.add_option("--lie-stamp-offset", renderOptions.lieStampOffset)->group("");
    return commands;
}

bool NetCommands::parsed() const {
    return serve->parsed() || replay->parsed() || bench->parsed();
}

int runNetCommand(const CommonOptions& common, const NetCommands& commands) {
    if (commands.serve->parsed())
        return net::runServe(common, gServe);
    if (commands.bench->parsed())
        return net::runNetBench(common, gBench);
    return net::runReplay(common, gReplay);
}

} // namespace snowcap
