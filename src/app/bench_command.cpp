// `snowcap bench`: per-pass times against the copy floor, headless.
// Each case warms up, then runs up to K measured repetitions; medians, minima and maxima are
// reported in ms with the ratio of the median to the copy floor measured at the same size in the
// same run, the scaling series and the cost targets. The timing method (serialized
// glFinish on llvmpipe, timestamp queries elsewhere) is printed. docs/performance.md has the
// method, the JSON schema and the results.
#include "app/commands.hpp"
#include "bench/bench_cases.hpp"
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
    std::vector<bench::Screen> screens;
    for (const std::string& text : options.screens) {
        auto screen = parseScreen(text);
        if (!screen) {
            spdlog::error("--screens: '{}' is not WIDTHxHEIGHT (16..8192)", text);
            return 2;
        }
        screens.push_back(*screen);
    }
    const auto frameScreen = parseScreen(options.frameScreen);
    if (!frameScreen) {
        spdlog::error("--frame-size: '{}' is not WIDTHxHEIGHT (16..8192)", options.frameScreen);
        return 2;
    }
    std::vector<long long> triangles;
    for (const std::string& text : options.triangles) {
        auto count = parseCount(text);
        if (!count) {
            spdlog::error("--triangles: '{}' is not a count in [100, 20M] (e.g. 50k, 1M)", text);
            return 2;
        }
        triangles.push_back(*count);
    }
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
                                                     "physics"};
    for (const std::string& entry : options.only) {
        // "pass:variant" picks one variant; the pass part is what must be known.
        const std::string pass = entry.substr(0, entry.find(':'));
        if (std::find(kPasses.begin(), kPasses.end(), pass) == kPasses.end() &&
            pass.rfind("blur_", 0) != 0) {
            spdlog::error(
                "--only: unknown pass '{}' (copy, clear, capture, accumulate, "
                "accumulate_fused, capture_accumulate, step_ab, blur_<mode>, surface_vertex, "
                "surface_tess, frame_ab, quality, idle_skip, crowd, world, foliage, snowpack, "
                "weather, physics)",
                pass);
            return 2;
        }
    }

    // The JSON target is checked before anything runs, as render checks --out: only a regular
    // file (or nothing) in a directory that exists is ever replaced, and only at the end.
    if (!options.json.empty()) {
        if (auto refused = checkReplaceable(options.json)) {
            spdlog::error("--json {}", *refused);
            return 2;
        }
        std::error_code ec;
        const fs::path folder =
            options.json.parent_path().empty() ? fs::path(".") : options.json.parent_path();
        if (!fs::is_directory(folder, ec)) {
            spdlog::error("--json {}: cannot write: {} is not a directory", options.json.string(),
                          folder.string());
            return 2;
        }
    }
    // A SIGINT or SIGTERM stops the measuring (lab/run_guard.hpp): nothing is written, and a
    // --json file already there stays as it was.
    RunGuard::catchInterrupts();
    const auto interrupted = [&options]() -> int {
        const int signal = RunGuard::interruptedBy();
        if (signal == 0)
            return 0;
        spdlog::error("bench: interrupted ({}); {}",
                      signal == SIGINT    ? "SIGINT"
                      : signal == SIGTERM ? "SIGTERM"
                                          : "a signal",
                      options.json.empty()
                          ? std::string("nothing was reported")
                          : "--json " + options.json.string() + " not written (left as it was)");
        return 128 + signal;
    };

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
    // A case cut short by an interrupt may fail its own checks: the interrupt is the news.
    auto fail = [&interrupted](const std::string& message) {
        if (const int code = interrupted())
            return code;
        spdlog::error("{}", message);
        return 2;
    };
    if (auto error = bench::prepare(bench))
        return fail(*error);
    if (info.isLlvmpipe() && harness.wantsAny({"frame_ab", "idle_skip"}))
        bench.notes.push_back(fmt::format(
            "llvmpipe: frame_ab 'default' and idle_skip run the viewer's llvmpipe start-up "
            "rung (snow.quality = {}); frame_ab 'per_pixel' is the UE-faithful frame",
            toString(kLlvmpipeStartQuality)));

    // Progress counts groups of cases: their count is known up front, their cases are not.
    const long long groups = static_cast<long long>(options.sizes.size()) +
                             (!triangles.empty() && !options.sizes.empty() ? 1 : 0) +
                             (!screens.empty() ? 2 : 0) +
                             (!options.crowds.empty() && !options.sizes.empty() ? 1 : 0) +
                             (!options.sizes.empty() ? 1 : 0) + 1;
    long long groupsDone = 0;
    ProgressReporter progress({.mode = progressModeForStderr(options.progress),
                               .label = "bench",
                               .unit = "group",
                               .total = groups},
                              std::cerr);
    // After each group: its tick, or the exit code of an interrupt.
    const auto finished = [&](const std::string& next) {
        progress.update(++groupsDone, -1.0,
                        fmt::format("{} cases; {}", harness.cases().size(), next));
        return interrupted();
    };
    // A group's line goes out with its first case, so --only names only the groups it runs.
    std::string groupLine;
    const auto announce = [&groupLine](std::string line) {
        groupLine = std::move(line);
    };
    // Within a group (the whole frames take most of a run), each case is a tick too.
    harness.setOnCase([&](const bench::Case& c) {
        if (!groupLine.empty()) {
            spdlog::info("{}", groupLine);
            groupLine.clear();
        }
        progress.update(
            groupsDone, -1.0,
            fmt::format("{} cases; {} {} {}", harness.cases().size(), c.pass, c.variant, c.size));
    });
    for (int size : options.sizes) {
        announce(fmt::format("bench: buffer {}", size));
        if (auto error = bench::bufferCases(bench, size))
            return fail(*error);
        if (auto error = bench::contactCases(bench, size))
            return fail(*error);
        if (auto error = bench::terrainCases(bench, size))
            return fail(*error);
        if (auto error = bench::worldCases(bench, size))
            return fail(*error);
        if (auto error = bench::weatherCases(bench, size))
            return fail(*error);
        if (const int code = finished(fmt::format("buffer {} done", size)))
            return code;
    }
    if (!triangles.empty() && !options.sizes.empty()) {
        const bool has1024 =
            std::find(options.sizes.begin(), options.sizes.end(), 1024) != options.sizes.end();
        const int size = has1024 ? 1024 : options.sizes.front();
        announce(fmt::format("bench: capture vs triangles at {}", size));
        if (auto error = bench::triangleCases(bench, size, triangles))
            return fail(*error);
        if (const int code = finished("triangles done"))
            return code;
    }
    if (!options.crowds.empty() && !options.sizes.empty()) {
        // The targets are at 2048; without it in --sizes, the largest size asked for. 1024 runs
        // too when asked for (the crowd's cost against the buffer's: triangles stay, texels
        // quarter).
        const bool has2048 =
            std::find(options.sizes.begin(), options.sizes.end(), 2048) != options.sizes.end();
        const int size =
            has2048 ? 2048 : *std::max_element(options.sizes.begin(), options.sizes.end());
        if (size != 1024 &&
            std::find(options.sizes.begin(), options.sizes.end(), 1024) != options.sizes.end()) {
            announce(fmt::format("bench: crowds at 1024"));
            if (auto error = bench::crowdCases(bench, 1024, options.crowds))
                return fail(*error);
        }
        announce(fmt::format("bench: crowds at {}", size));
        if (auto error = bench::crowdCases(bench, size, options.crowds))
            return fail(*error);
        if (auto error = bench::foliageCases(bench, size, 1000))
            return fail(*error);
        if (const int code = finished("crowds and foliage done"))
            return code;
    }
    if (!options.sizes.empty()) {
        // The figures are at 1024; without it in --sizes, the smallest size asked for.
        const bool has1024 =
            std::find(options.sizes.begin(), options.sizes.end(), 1024) != options.sizes.end();
        const int size =
            has1024 ? 1024 : *std::min_element(options.sizes.begin(), options.sizes.end());
        announce(fmt::format("bench: physics at {}", size));
        if (auto error = bench::physicsCases(bench, size))
            return fail(*error);
        if (const int code = finished("physics done"))
            return code;
    }
    if (!screens.empty()) {
        announce(fmt::format("bench: screens"));
        if (auto error = bench::screenCases(bench, screens, *frameScreen))
            return fail(*error);
        if (const int code = finished("screens done"))
            return code;
    }
    if (!screens.empty()) {
        announce(fmt::format("bench: surface grid density at {}", frameScreen->label()));
        if (auto error = bench::gridCases(bench, *frameScreen, {128, 256, 512}))
            return fail(*error);
        if (const int code = finished("grid density done"))
            return code;
    }
    announce(fmt::format("bench: whole frames at {}", frameScreen->label()));
    if (auto error = bench::frameCases(bench, *frameScreen))
        return fail(*error);
    if (const int code = finished("whole frames done"))
        return code;
    progress.finish();
    harness.setOnCase({});

    std::vector<bench::Case>& cases = harness.cases();
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
    const auto targets = bench::computeTargets(cases, bench.memory, *frameScreen, run.peakRssMiB);
    bench::printReport(run, cases, targets, !options.only.empty());
    if (!options.json.empty()) {
        const std::string text = bench::toJson(run, cases, targets, bench.memory).dump(2) + "\n";
        if (auto error =
                writeFileAtomically(options.json, {text.begin(), text.end()}, Overwrite::Replace)) {
            spdlog::error("{}", *error);
            return 1;
        }
        spdlog::info("bench: {} cases in {:.1f} s; wrote {}", cases.size(), run.wallSeconds,
                     options.json.string());
    }
    return 0;
}

} // namespace snowcap
