// `snowcap bench`: per-pass times against the copy floor, headless.
// Each case warms up, then runs up to K measured repetitions; medians, minima and maxima are
// reported in ms with the ratio of the median to the copy floor measured at the same size in the
// same run, the scaling series and the cost targets. The timing method (serialized
// glFinish on llvmpipe, timestamp queries elsewhere) is printed. docs/performance.md has the
// method, the JSON schema and the results.
#include "app/commands.hpp"
#include "bench/bench_cases.hpp"
#include "bench/bench_net.hpp"
#include "bench/bench_report.hpp"
#include "bench/bench_world.hpp"
#include "core/config.hpp"
#include "core/quality.hpp"
#include "core/untrusted_file.hpp"
#include "io/image.hpp"
#include "lab/progress.hpp"
#include "lab/run_guard.hpp"
#include "platform/gl_context.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace fs = std::filesystem;

namespace {

// "1280x720" -> {1280, 720}; nullopt if malformed or out of range.
std::optional<bench::Screen> parseScreen(const std::string& text) {
    const auto x = text.find('x');
    if (x == std::string::npos)
        return std::nullopt;
    bench::Screen screen;
    const char* end = text.data() + text.size();
    auto a = std::from_chars(text.data(), text.data() + x, screen.width);
    auto b = std::from_chars(text.data() + x + 1, end, screen.height);
    if (a.ec != std::errc() || b.ec != std::errc() || a.ptr != text.data() + x || b.ptr != end ||
        screen.width < 16 || screen.height < 16 || screen.width > 8192 || screen.height > 8192)
        return std::nullopt;
    return screen;
}

// "50k", "1M", "20000" -> a count; nullopt if malformed or out of [100, 20M].
std::optional<long long> parseCount(const std::string& text) {
    long long value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc())
        return std::nullopt;
    const std::string suffix(ptr, text.data() + text.size());
    if (suffix == "k" || suffix == "K")
        value *= 1000;
    else if (suffix == "M" || suffix == "m")
        value *= 1000000;
    else if (!suffix.empty())
        return std::nullopt;
    if (value < 100 || value > 20000000)
        return std::nullopt;
    return value;
}

// What --screens, --frame-size and --triangles ask for.
struct BenchInputs {
    std::vector<bench::Screen> screens;
    bench::Screen frameScreen;
    std::vector<long long> triangles;
};

// The inputs, or the one line that refuses one.
std::variant<BenchInputs, std::string> parseInputs(const BenchOptions& options) {
    BenchInputs inputs;
    for (const std::string& text : options.screens) {
        auto screen = parseScreen(text);
        if (!screen)
            return fmt::format("--screens: '{}' is not WIDTHxHEIGHT (16..8192)", text);
        inputs.screens.push_back(*screen);
    }
    const auto frameScreen = parseScreen(options.frameScreen);
    if (!frameScreen)
        return fmt::format("--frame-size: '{}' is not WIDTHxHEIGHT (16..8192)",
                           options.frameScreen);
    inputs.frameScreen = *frameScreen;
    for (const std::string& text : options.triangles) {
        auto count = parseCount(text);
        if (!count)
            return fmt::format("--triangles: '{}' is not a count in [100, 20M] (e.g. 50k, 1M)",
                               text);
        inputs.triangles.push_back(*count);
    }
    return inputs;
}

// --only: "pass:variant" picks one variant; the pass part is what must be known.
std::optional<std::string> unknownOnlyPass(const std::vector<std::string>& only) {
    static const std::vector<std::string> kPasses = {"copy",
                                                     "clear",
                                                     "capture",
                                                     "accumulate",
                                                     "capture_accumulate",
                                                     "capture_terrain",
                                                     "step_ab",
                                                     "surface_vertex",
                                                     "surface_tess",
                                                     "frame_ab",
                                                     "quality",
                                                     "idle_skip",
                                                     "accumulate_fused",
                                                     "crowd",
                                                     "world",
                                                     "foliage",
                                                     "snowpack",
                                                     "weather",
                                                     "physics",
                                                     "net"};
    for (const std::string& entry : only) {
        const std::string pass = entry.substr(0, entry.find(':'));
        if (std::find(kPasses.begin(), kPasses.end(), pass) == kPasses.end() &&
            pass.rfind("blur_", 0) != 0)
            return fmt::format(
                "--only: unknown pass '{}' (copy, clear, capture, accumulate, "
                "accumulate_fused, capture_accumulate, capture_terrain, step_ab, blur_<mode>, "
                "surface_vertex, "
                "surface_tess, frame_ab, quality, idle_skip, crowd, world, foliage, snowpack, "
                "weather, physics, net)",
                pass);
    }
    return std::nullopt;
}

// The JSON target is checked before anything runs, as render checks --out: only a regular
// file (or nothing) in a directory that exists is ever replaced, and only at the end.
std::optional<std::string> jsonTargetError(const fs::path& json) {
    if (json.empty())
        return std::nullopt;
    if (auto refused = checkReplaceable(json))
        return "--json " + *refused;
    std::error_code ec;
    const fs::path folder = json.parent_path().empty() ? fs::path(".") : json.parent_path();
    if (!fs::is_directory(folder, ec))
        return fmt::format("--json {}: cannot write: {} is not a directory", json.string(),
                           folder.string());
    return std::nullopt;
}

// After a SIGINT or SIGTERM (lab/run_guard.hpp): its line and exit code; nothing is written,
// and a --json file already there stays as it was. 0: not interrupted.
int interruptedExit(const fs::path& json) {
    const int signal = RunGuard::interruptedBy();
    if (signal == 0)
        return 0;
    spdlog::error("bench: interrupted ({}); {}",
                  signal == SIGINT    ? "SIGINT"
                  : signal == SIGTERM ? "SIGTERM"
                                      : "a signal",
                  json.empty() ? std::string("nothing was reported")
                               : "--json " + json.string() + " not written (left as it was)");
    return 128 + signal;
}

// Progress counts groups of cases: their count is known up front, their cases are not.
long long groupCount(const BenchOptions& options, const BenchInputs& inputs) {
    return static_cast<long long>(options.sizes.size()) +
           (!inputs.triangles.empty() && !options.sizes.empty() ? 1 : 0) +
           (!inputs.screens.empty() ? 2 : 0) +
           (!options.crowds.empty() && !options.sizes.empty() ? 1 : 0) +
           (!options.sizes.empty() ? 1 : 0) + 1;
}

bool has(const std::vector<int>& sizes, int size) {
    return std::find(sizes.begin(), sizes.end(), size) != sizes.end();
}

// Runs the groups of cases in order with their progress: a group's line goes out with its
// first case, so --only names only the groups it runs; each group, and within a group each
// case, is a tick. Each group returns 0, or the exit code that ends the run.
class GroupRunner {
public:
    GroupRunner(bench::Context& bench, const BenchOptions& options, const BenchInputs& inputs)
        : bench_(bench), options_(options), inputs_(inputs),
          progress_({.mode = progressModeForStderr(options.progress),
                     .label = "bench",
                     .unit = "group",
                     .total = groupCount(options, inputs) + (bench.harness.wants("net") ? 1 : 0)},
                    std::cerr) {
        bench_.harness.setOnCase([this](const bench::Case& c) {
            if (!groupLine_.empty()) {
                spdlog::info("{}", groupLine_);
                groupLine_.clear();
            }
            progress_.update(groupsDone_, -1.0,
                             fmt::format("{} cases; {} {} {}", bench_.harness.cases().size(),
                                         c.pass, c.variant, c.size));
        });
    }
    ~GroupRunner() { bench_.harness.setOnCase({}); }

    int run() {
        for (int size : options_.sizes)
            if (const int code = buffers(size))
                return code;
        for (auto group :
             {&GroupRunner::triangles, &GroupRunner::crowds, &GroupRunner::physics,
              &GroupRunner::screens, &GroupRunner::grid, &GroupRunner::net, &GroupRunner::frames})
            if (const int code = (this->*group)())
                return code;
        progress_.finish();
        return 0;
    }

private:
    int buffers(int size) {
        announce(fmt::format("bench: buffer {}", size));
        if (auto error = bench::bufferCases(bench_, size))
            return fail(*error);
        if (auto error = bench::contactCases(bench_, size))
            return fail(*error);
        if (auto error = bench::terrainCases(bench_, size))
            return fail(*error);
        if (auto error = bench::worldCases(bench_, size))
            return fail(*error);
        if (auto error = bench::weatherCases(bench_, size))
            return fail(*error);
        return finished(fmt::format("buffer {} done", size));
    }

    int triangles() {
        if (inputs_.triangles.empty() || options_.sizes.empty())
            return 0;
        const int size = has(options_.sizes, 1024) ? 1024 : options_.sizes.front();
        announce(fmt::format("bench: capture vs triangles at {}", size));
        if (auto error = bench::triangleCases(bench_, size, inputs_.triangles))
            return fail(*error);
        return finished("triangles done");
    }

    int crowds() {
        const std::vector<int>& sizes = options_.sizes;
        if (options_.crowds.empty() || sizes.empty())
            return 0;
        // The targets are at 2048; without it in --sizes, the largest size asked for. 1024 runs
        // too when asked for (the crowd's cost against the buffer's: triangles stay, texels
        // quarter).
        const int size = has(sizes, 2048) ? 2048 : *std::max_element(sizes.begin(), sizes.end());
        if (size != 1024 && has(sizes, 1024)) {
            announce(fmt::format("bench: crowds at 1024"));
            if (auto error = bench::crowdCases(bench_, 1024, options_.crowds))
                return fail(*error);
        }
        announce(fmt::format("bench: crowds at {}", size));
        if (auto error = bench::crowdCases(bench_, size, options_.crowds))
            return fail(*error);
        if (auto error = bench::foliageCases(bench_, size, 1000))
            return fail(*error);
        return finished("crowds and foliage done");
    }

    int physics() {
        const std::vector<int>& sizes = options_.sizes;
        if (sizes.empty())
            return 0;
        // The figures are at 1024; without it in --sizes, the smallest size asked for.
        const int size = has(sizes, 1024) ? 1024 : *std::min_element(sizes.begin(), sizes.end());
        announce(fmt::format("bench: physics at {}", size));
        if (auto error = bench::physicsCases(bench_, size))
            return fail(*error);
        return finished("physics done");
    }

    int screens() {
        if (inputs_.screens.empty())
            return 0;
        announce(fmt::format("bench: screens"));
        if (auto error = bench::screenCases(bench_, inputs_.screens, inputs_.frameScreen))
            return fail(*error);
        return finished("screens done");
    }

    int grid() {
        if (inputs_.screens.empty())
            return 0;
        announce(fmt::format("bench: surface grid density at {}", inputs_.frameScreen.label()));
        if (auto error = bench::gridCases(bench_, inputs_.frameScreen, {128, 256, 512}))
            return fail(*error);
        return finished("grid density done");
    }

    int net() {
        if (!bench_.harness.wants("net"))
            return 0;
        // Bytes per client per mode against 1 .. 1,000 deformers; late join at each --sizes.
        announce("bench: net (bytes per client, late join)");
        if (auto error = bench::netCases(bench_, {1, 10, 100, 1000}, options_.sizes, 60))
            return fail(*error);
        return finished("net done");
    }

    int frames() {
        announce(fmt::format("bench: whole frames at {}", inputs_.frameScreen.label()));
        if (auto error = bench::frameCases(bench_, inputs_.frameScreen))
            return fail(*error);
        return finished("whole frames done");
    }

    void announce(std::string line) { groupLine_ = std::move(line); }
    // After each group: its tick, or the exit code of an interrupt.
    int finished(const std::string& next) {
        progress_.update(++groupsDone_, -1.0,
                         fmt::format("{} cases; {}", bench_.harness.cases().size(), next));
        return interruptedExit(options_.json);
    }
    // A case cut short by an interrupt may fail its own checks: the interrupt is the news.
    int fail(const std::string& message) {
        if (const int code = interruptedExit(options_.json))
            return code;
        spdlog::error("{}", message);
        return 2;
    }

    bench::Context& bench_;
    const BenchOptions& options_;
    const BenchInputs& inputs_;
    ProgressReporter progress_;
    long long groupsDone_ = 0;
    std::string groupLine_;
};

// The ratios, the targets, the report on stdout and the JSON (--json).
int report(const CommonOptions& common, const BenchOptions& options, const BenchInputs& inputs,
           bench::Context& bench, const GlInfo& info, gpu::TimingMethod method,
           std::chrono::steady_clock::time_point started) {
    std::vector<bench::Case>& cases = bench.harness.cases();
    bench::computeRatios(cases);
    bench::RunInfo run;
    run.machine = bench::machineInfo();
    run.gl = info;
    run.method = gpu::toString(method);
    run.frames = options.frames;
    run.peakRssMiB = bench::peakRssMiB();
    run.overrides = common.overrides;
    run.notes = bench.notes;
    run.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const auto targets =
        bench::computeTargets(cases, bench.memory, inputs.frameScreen, run.peakRssMiB);
    bench::printReport(run, cases, targets, !options.only.empty());
    if (options.json.empty())
        return 0;
    const std::string text = bench::toJson(run, cases, targets, bench.memory).dump(2) + "\n";
    if (auto error =
            writeFileAtomically(options.json, {text.begin(), text.end()}, Overwrite::Replace)) {
        spdlog::error("{}", *error);
        return 1;
    }
    spdlog::info("bench: {} cases in {:.1f} s; wrote {}", cases.size(), run.wallSeconds,
                 options.json.string());
    return 0;
}

} // namespace

CLI::App* addBenchCommand(CLI::App& app, BenchOptions& bench) {
    CLI::App* command = app.add_subcommand(
        "bench", "Time each pass against the copy floor, headless (docs/performance.md)");
    command->add_option("--sizes", bench.sizes, "Buffer sizes, e.g. 512,1024,2048 (4096: slow)")
        ->delimiter(',')
        ->check(CLI::IsMember({64, 128, 256, 512, 1024, 2048, 4096, 8192}))
        ->capture_default_str();
    command->add_option("--screens", bench.screens, "Screens for the surface passes, WxH,...")
        ->delimiter(',')
        ->capture_default_str();
    command->add_option("--triangles", bench.triangles, "Deformer triangle counts, e.g. 10k,1M")
        ->delimiter(',')
        ->capture_default_str();
    command->add_option("--crowds", bench.crowds, "Bipeds in the crowd cases, e.g. 10,100,1000")
        ->delimiter(',')
        ->check(CLI::Range(1, 10000))
        ->capture_default_str();
    command->add_option("--frame-size", bench.frameScreen, "Screen of the whole-frame cases")
        ->capture_default_str();
    command->add_option("--frames", bench.frames, "Measured repetitions per case")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    command
        ->add_option("--case-budget", bench.caseBudgetS,
                     "Seconds after which a case stops (with at least 3 samples)")
        ->check(CLI::Range(0.0, 3600.0))
        ->capture_default_str();
    command
        ->add_option("--only", bench.only,
                     "Only these passes (or pass:variant), e.g. copy,accumulate,frame_ab:default")
        ->delimiter(',');
    command->add_option("--method", bench.method, "Timing: auto, serialized or query")
        ->check(CLI::IsMember({"auto", "serialized", "query"}))
        ->capture_default_str();
    command->add_option("--json", bench.json, "Write the results as JSON");
    command->add_flag("!--no-progress", bench.progress, "No progress on stderr");
    return command;
}

int runBench(const CommonOptions& common, const BenchOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    auto parsed = parseInputs(options);
    if (auto* error = std::get_if<std::string>(&parsed)) {
        spdlog::error("{}", *error);
        return 2;
    }
    const BenchInputs& inputs = std::get<BenchInputs>(parsed);
    for (const auto& error : {unknownOnlyPass(options.only), jsonTargetError(options.json)})
        if (error) {
            spdlog::error("{}", *error);
            return 2;
        }
    // A SIGINT or SIGTERM stops the measuring (lab/run_guard.hpp).
    RunGuard::catchInterrupts();

    auto context = HeadlessContext::create(common.debugGl);
    if (auto* error = std::get_if<ContextError>(&context)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    const GlInfo info = std::get<0>(context)->info();
    gpu::TimingMethod method = gpu::trustworthyTimingMethod(info.renderer);
    if (options.method == "serialized")
        method = gpu::TimingMethod::Serialized;
    else if (options.method == "query")
        method = gpu::TimingMethod::TimerQuery;

    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    bench::Harness harness(method, options.frames, options.only, options.caseBudgetS);
    harness.setStop([] { return RunGuard::interruptedBy() != 0; });
    bench::Context bench{harness, shaders, common.overrides, info.isLlvmpipe()};
    if (auto error = bench::prepare(bench)) {
        if (const int code = interruptedExit(options.json))
            return code;
        spdlog::error("{}", *error);
        return 2;
    }
    if (info.isLlvmpipe() && harness.wantsAny({"frame_ab", "idle_skip"}))
        bench.notes.push_back(fmt::format(
            "llvmpipe: frame_ab 'default' and idle_skip run the viewer's llvmpipe start-up "
            "rung (snow.quality = {}); frame_ab 'per_pixel' is the UE-faithful frame",
            toString(kLlvmpipeStartQuality)));

    if (const int code = GroupRunner(bench, options, inputs).run())
        return code;
    return report(common, options, inputs, bench, info, method, started);
}

} // namespace snowcap
