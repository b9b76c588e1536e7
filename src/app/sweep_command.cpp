// `snowcap sweep`: every combination of the --vary values run headless, packed into as few
// fields as the sims allow (lab/sweep_plan.hpp), into a contact sheet, sweep.csv, sweep.json
// and plots (docs/sweeps.md).
//
// --jobs N: the batches (fields) are shared among N worker processes, forked before any GL
// context exists; each worker makes its own headless EGL context, runs its batches (every Nth)
// and leaves its results in DIR/.sweep_work. The parent only plans, watches and assembles: it
// never touches GL, so a fork needs no exec and no context is ever shared. Progress comes back
// through one step counter per worker in shared memory.
//
// --plan, --shard and --merge (a sweep beyond one machine) are in sweep_shard_command.cpp; they
// run their batches through runSweepBatches below, as one process does.
#include "app/commands.hpp"
#include "app/sweep_batches.hpp"
#include "lab/lab.hpp"
#include "lab/progress.hpp"
#include "lab/run_guard.hpp"
#include "lab/run_outputs.hpp"
#include "lab/sweep_output.hpp"
#include "lab/sweep_plan.hpp"
#include "lab/sweep_run.hpp"
#include "platform/gl_context.hpp"

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <limits>
#include <spdlog/spdlog.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace snowcap {

namespace fs = std::filesystem;

CLI::App* addSweepCommand(CLI::App& app, SweepOptions& options) {
    CLI::App* command = app.add_subcommand(
        "sweep", "Run every combination of --vary values into a contact sheet, CSV, JSON and "
                 "plots (docs/sweeps.md)");
    // The request: what one process runs, or what --plan writes (--shard and --merge take it
    // from plan.json, so giving any of these with them is an error).
    const auto request = [&options](CLI::Option* option) {
        return option->each([&options](const std::string&) { options.requestGiven = true; });
    };
    request(command->add_option("--scenario", options.scenario, "Scenario name or TOML file"))
        ->capture_default_str();
    request(
        command->add_option("--vary", options.vary,
                            "KEY=V1,V2,... (repeatable; every combination of all of them runs)"))
        ->allow_extra_args(false)
        ->take_all();
    request(command->add_option("--at", options.atS,
                                "The sheet's columns: times in seconds, T1,T2,..."))
        ->delimiter(',');
    request(
        command->add_option("--frames", options.frames, "Steps to run (default: to the last --at)"))
        ->check(CLI::Range(1, std::numeric_limits<int>::max()));
    request(command->add_option("--sim", options.sim,
                                "The sim measured (default: the one --vary's keys name, else a)"));
    request(command->add_option("--stage", options.stage,
                                "What each tile shows: lit or one material stage"))
        ->check(CLI::IsMember({"lit", "persistent", "mask", "height", "normal"}))
        ->capture_default_str();
    request(command->add_option("--tile", options.tile, "Tile size WxH"))->capture_default_str();
    command->add_option("--jobs", options.jobs, "Worker processes (each with its own context)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    command->add_option("--out", options.outDir,
                        "Output directory (default out/sweep; with --merge, the plan's)");
    command->add_flag("!--no-progress", options.progress, "No progress on stderr");
    command->add_option("--plan", options.planDir,
                        "Write the sweep's plan to DIR/plan.json and stop; with --shard, run a "
                        "shard of that plan (docs/cluster.md)");
    command->add_option("--shard", options.shard,
                        "K/N: run shard K of N of --plan DIR into DIR/shards/K; env: K and N "
                        "from Slurm's or Kubernetes' array variables");
    command
        ->add_option("--shard-count", options.shardCount,
                     "N for --shard env in a Kubernetes Indexed Job (else SNOWCAP_SHARD_COUNT)")
        ->check(CLI::Range(1, 100000));
    command->add_option("--merge", options.mergeDir,
                        "Check every shard of the plan in DIR and write the sweep's outputs");
    return command;
}

namespace {

// The batches in this process, one after another, in a context of its own; with `saveDir`,
// each batch's results are saved there as it ends (sweepBatchFile).
std::variant<std::vector<SweepResult>, std::string>
runBatches(const SweepPlan& plan, const SweepRunOptions& run, const std::vector<int>& batches,
           bool debugGl, const std::function<void(long long)>& onSteps,
           const fs::path* saveDir = nullptr) {
    auto context = HeadlessContext::create(debugGl);
    if (auto* error = std::get_if<ContextError>(&context))
        return error->message;
    const GlInfo info = std::get<0>(context)->info();
    std::vector<SweepResult> all;
    long long before = 0;
    std::unique_ptr<Lab> lab; // one for all the batches (runSweepBatch says why)
    for (int b : batches) {
        auto ran = runSweepBatch(
            plan, b, run, info.renderer, [&](long long k) { onSteps(before + k); }, &lab);
        if (auto* error = std::get_if<std::string>(&ran))
            return *error;
        if (saveDir)
            if (auto error = saveSweepResults(std::get<0>(ran), sweepBatchFile(*saveDir, b)))
                return *error;
        for (SweepResult& r : std::get<0>(ran))
            all.push_back(std::move(r));
        before += plan.batches[b].settings.run.frames;
    }
    return all;
}

// N workers over shared step counters; the parent draws the progress while they run. Batch
// batches[i] goes to worker i mod N, which saves each batch's results in `workDir`.
std::optional<std::string> runInWorkers(const SweepPlan& plan, const SweepRunOptions& run,
                                        const std::vector<int>& batches, int jobs, bool debugGl,
                                        const fs::path& workDir, ProgressReporter& progress,
                                        double dt) {
    void* shared = mmap(nullptr, sizeof(std::atomic<long long>) * jobs, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED)
        return std::string("sweep: cannot map the workers' progress counters");
    auto* steps = static_cast<std::atomic<long long>*>(shared);
    for (int w = 0; w < jobs; ++w)
        new (&steps[w]) std::atomic<long long>(0);
    std::cerr.flush();
    std::fflush(nullptr); // nothing buffered may be written twice by the children

    std::vector<pid_t> workers;
    for (int w = 0; w < jobs; ++w) {
        std::vector<int> mine;
        for (std::size_t i = w; i < batches.size(); i += jobs)
            mine.push_back(batches[i]);
        const pid_t pid = fork();
        if (pid < 0) {
            for (pid_t started : workers)
                kill(started, SIGTERM);
            return std::string("sweep: cannot start a worker process");
        }
        if (pid == 0) {
            RunGuard::defaultInterrupts(); // the parent stops its workers with SIGTERM
            auto ran = runBatches(
                plan, run, mine, debugGl, [&](long long k) { steps[w].store(k); }, &workDir);
            int code = 0;
            if (auto* error = std::get_if<std::string>(&ran)) {
                spdlog::error("{}", *error);
                code = 1;
            }
            std::fflush(nullptr);
            _exit(code); // no destructors: the parent owns everything else
        }
        workers.push_back(pid);
    }

    std::vector<bool> running(jobs, true);
    std::string failure;
    bool stopping = false;
    for (int left = jobs; left > 0;) {
        if (RunGuard::interruptedBy() && !std::exchange(stopping, true))
            for (int w = 0; w < jobs; ++w)
                if (running[w])
                    kill(workers[w], SIGTERM); // and wait for them below
        for (int w = 0; w < jobs; ++w) {
            int status = 0;
            if (!running[w] || waitpid(workers[w], &status, WNOHANG) != workers[w])
                continue;
            running[w] = false;
            --left;
            if (failure.empty() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
                failure = WIFSIGNALED(status) ? fmt::format("sweep: worker {} died (signal {})", w,
                                                            WTERMSIG(status))
                                              : fmt::format("sweep: worker {} failed", w);
        }
        long long done = 0;
        for (int w = 0; w < jobs; ++w)
            done += steps[w].load();
        progress.update(done, done * dt);
        if (left > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    munmap(shared, sizeof(std::atomic<long long>) * jobs);
    if (!failure.empty())
        return failure;
    return std::nullopt;
}

// A SIGINT or SIGTERM caught by RunGuard (a one-process sweep catches them): the work directory
// goes, one line says so, and the process exits 128 + signal, from inside a batch too, so nothing
// half-written is left.
// A shard (`command` "sweep --shard K/N") says that nothing of it was kept: its staging
// directory is gone and DIR/shards/K was never made.
void stopIfInterrupted(const fs::path& workDir, const std::string& command = "sweep") {
    if (const int signal = RunGuard::interruptedBy()) {
        std::error_code ec;
        fs::remove_all(workDir, ec);
        if (command == "sweep")
            spdlog::error("{}", RunGuard::interruptedNote("sweep", workDir.parent_path(), signal));
        else
            spdlog::error("{}: interrupted ({}); nothing of it was kept", command,
                          signal == SIGINT    ? "SIGINT"
                          : signal == SIGTERM ? "SIGTERM"
                                              : "a signal");
        std::fflush(nullptr);
        std::_Exit(128 + signal);
    }
}

} // namespace

std::variant<std::vector<SweepResult>, std::string>
runSweepBatches(const SweepPlan& plan, const SweepRunOptions& run, const std::vector<int>& batches,
                int jobs, bool debugGl, const fs::path& workDir, bool save,
                ProgressReporter& progress, const std::string& command) {
    const double dt = 1.0 / plan.batches.front().settings.run.fps;
    if (batches.empty())
        return std::vector<SweepResult>{};
    if (jobs <= 1) {
        const auto stepped = [&](long long k) {
            stopIfInterrupted(workDir, command);
            progress.update(k, k * dt);
        };
        if (!save)
            return runBatches(plan, run, batches, debugGl, stepped);
        return runBatches(plan, run, batches, debugGl, stepped, &workDir);
    }
    if (auto error = runInWorkers(plan, run, batches, jobs, debugGl, workDir, progress, dt)) {
        stopIfInterrupted(workDir, command); // the workers were stopped by it: say so
        return *error;
    }
    std::vector<SweepResult> all;
    for (int b : batches) {
        auto loaded = loadSweepResults(sweepBatchFile(workDir, b), sweepResultShape(plan, b, run));
        if (auto* error = std::get_if<std::string>(&loaded))
            return *error;
        for (SweepResult& r : std::get<0>(loaded))
            all.push_back(std::move(r));
    }
    return all;
}

std::variant<SweepRunOptions, std::string> sweepRunOptionsFrom(const SweepOptions& options) {
    SweepRunOptions run;
    run.stage = surfaceOutputNamed(options.stage);
    const auto x = options.tile.find('x');
    try {
        run.tileWidth = std::stoi(options.tile.substr(0, x));
        run.tileHeight = std::stoi(options.tile.substr(x + 1));
    } catch (const std::exception&) {
        run.tileWidth = 0;
    }
    if (x == std::string::npos || run.tileWidth < kMinSweepTile || run.tileHeight < kMinSweepTile ||
        run.tileWidth > kMaxSweepTile || run.tileHeight > kMaxSweepTile)
        return fmt::format("--tile '{}': expected WxH, each {} to {}", options.tile, kMinSweepTile,
                           kMaxSweepTile);
    return run;
}

std::variant<SweepPlan, std::string> planSweepFrom(const CommonOptions& common,
                                                   const SweepOptions& options) {
    SweepRequest request{.scenario = options.scenario,
                         .overrides = common.overrides,
                         .axes = {},
                         .atS = options.atS,
                         .frames = options.frames,
                         .sim = options.sim};
    for (const std::string& text : options.vary) {
        auto axis = parseSweepAxis(text);
        if (auto* error = std::get_if<std::string>(&axis))
            return *error;
        request.axes.push_back(std::get<SweepAxis>(std::move(axis)));
    }
    // Every combination is loaded and checked here, before anything runs.
    return planSweep(request);
}

int runSweep(const CommonOptions& common, const SweepOptions& options) {
    if (!options.planDir.empty() || !options.shard.empty() || !options.mergeDir.empty())
        return runSweepBeyondOneProcess(common, options);
    const auto started = std::chrono::steady_clock::now();
    auto runOptions = sweepRunOptionsFrom(options);
    if (auto* error = std::get_if<std::string>(&runOptions)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const SweepRunOptions& run = std::get<SweepRunOptions>(runOptions);
    auto planned = planSweepFrom(common, options);
    if (auto* error = std::get_if<std::string>(&planned)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const SweepPlan& plan = std::get<SweepPlan>(planned);
    const fs::path outDir = options.outDir.empty() ? fs::path("out/sweep") : options.outDir;
    if (auto refused = checkSweepOutputs(outDir)) { // before the run, as render --out
        spdlog::error("{}", *refused);
        return 2;
    }
    std::error_code ec;
    fs::create_directories(outDir, ec);
    if (ec) {
        spdlog::error("{}: cannot create output directory ({})", outDir.string(), ec.message());
        return 2;
    }
    auto guarded = RunGuard::take(outDir); // one run a directory; run.json last
    if (auto* error = std::get_if<std::string>(&guarded)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const RunGuard& guard = std::get<RunGuard>(guarded);
    RunGuard::catchInterrupts();
    long long totalSteps = 0;
    for (const SweepBatch& batch : plan.batches)
        totalSteps += batch.settings.run.frames;
    const double dt = 1.0 / plan.batches.front().settings.run.fps;
    const int jobs = std::min<int>(options.jobs, static_cast<int>(plan.batches.size()));
    spdlog::info("sweep: {} combinations in {} field{} ({}), {} job{}, {} steps each",
                 plan.combinations.size(), plan.batches.size(), plan.batches.size() == 1 ? "" : "s",
                 plan.packed ? fmt::format("up to {} per field", sweepFieldCapacity())
                             : std::string("one per field: the keys are not one sim's"),
                 jobs, jobs == 1 ? "" : "s", plan.batches.front().settings.run.frames);

    ProgressReporter progress({.mode = progressModeForStderr(options.progress),
                               .label = "sweep",
                               .total = totalSteps,
                               .simulatedTotalS = totalSteps * dt},
                              std::cerr);
    const fs::path workDir = outDir / ".sweep_work";
    if (jobs > 1) {
        fs::create_directories(workDir, ec);
        if (ec) {
            spdlog::error("{}: cannot create ({})", workDir.string(), ec.message());
            return 2;
        }
    }
    std::vector<int> all(plan.batches.size());
    for (std::size_t b = 0; b < all.size(); ++b)
        all[b] = static_cast<int>(b);
    guard.begin();
    auto ran = runSweepBatches(plan, run, all, jobs, common.debugGl, workDir, false, progress);
    progress.finish();
    stopIfInterrupted(workDir);
    if (auto* error = std::get_if<std::string>(&ran)) {
        spdlog::error("{}", *error);
        return 1;
    }
    std::vector<SweepResult>& results = std::get<0>(ran);
    SweepRunInfo info;
    info.jobs = jobs;
    info.stage = options.stage;
    info.glRenderer = results.empty() ? "" : results.front().glRenderer;
    info.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (auto error = writeSweepOutputs(outDir, plan, std::move(results), info)) {
        spdlog::error("{}", *error);
        fs::remove_all(workDir, ec);
        const int signal = RunGuard::interruptedBy(); // none of the outputs was replaced
        return signal ? 128 + signal : 1;
    }
    fs::remove_all(workDir, ec);
    stopIfInterrupted(workDir);
    std::vector<fs::path> written;
    if (auto error = guard.publish("sweep", &written)) {
        spdlog::error("{}", *error);
        return 1;
    }
    std::size_t plots = 0; // plots/ holds one picture per metric and key
    for (const auto& entry : fs::directory_iterator(outDir / "plots", ec))
        plots += entry.is_regular_file(ec) ? 1 : 0;
    if (plots > 0)
        written.push_back(outDir / fmt::format("plots/ ({} plots)", plots));
    spdlog::info("sweep: {} combinations x {} steps in {:.1f} s, then {:.1f} s writing; wrote {}",
                 plan.combinations.size(), plan.batches.front().settings.run.frames,
                 info.wallSeconds,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() -
                     info.wallSeconds,
                 outputList(outDir, written));
    return 0;
}

} // namespace snowcap
