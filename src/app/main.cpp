// snowcap: a lab for real-time snow deformation (the UE snow-interaction capture pipeline).
#include "app/commands.hpp"
#include "app/validate_command.hpp"
#include "platform/gl_context.hpp"
#include "scene/model_import.hpp"
#include "viewer/viewer_panels.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace {

using namespace snowcap;

// A log line's text with its control characters made spaces: a name read from a file (a
// texture's, a shard's host) cannot move the cursor, clear the terminal or split a warning or
// an error into two lines. Info and debug lines keep their newlines and tabs (tables).
class CleanPayload : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& msg, const std::tm&,
                spdlog::memory_buf_t& dest) override {
        const bool oneLine = msg.level >= spdlog::level::warn;
        for (const char c : msg.payload) {
            const auto u = static_cast<unsigned char>(c);
            const bool keep = u >= 0x20 && u != 0x7f;
            dest.push_back(keep || (!oneLine && (c == '\n' || c == '\t')) ? c : ' ');
        }
    }
    std::unique_ptr<custom_flag_formatter> clone() const override {
        return std::make_unique<CleanPayload>();
    }
};

// Every command's options, parsed into once (CLI11 keeps pointers to them: made once, in
// main, never moved) and the commands, for main to ask which one was parsed.
struct CommandLine {
    CommonOptions common;
    int verbose = 0; // -v debug, -vv trace (the viewer then logs each frame it draws)
    bool quiet = false;
    std::string glDevice; // travels as $SNOWCAP_GL_DEVICE, so worker processes choose the same

    CLI::App* view = nullptr;
    ViewOptions viewOptions;
    std::vector<int> viewSize;

    CLI::App* render = nullptr;
    RenderOptions renderOptions;
    std::vector<int> renderSize; // as `view --size`: view.width and view.height

    NetCommands net;
    CLI::App* bench = nullptr;
    BenchOptions benchOptions;
    CLI::App* sweep = nullptr;
    SweepOptions sweepOptions;
    CLI::App* params = nullptr;
    ParamsOptions paramsOptions;
    CLI::App* passes = nullptr;
    PassesOptions passesOptions;
    CLI::App* glInfo = nullptr;
    CLI::App* validate = nullptr;
    ValidateOptions validateOptions;
    CLI::App* exportUe = nullptr;
    ExportUeOptions exportUeOptions;

    CLI::App* inspect = nullptr;
    std::string meshPath;
    ImportOptions meshOptions;
    std::vector<float> meshRotation, meshOffset;
    std::string meshUp = "auto", meshPreview, meshSubsetPreview;
};

// --set key=value on `command` (repeatable).
CLI::App* addSet(CommandLine& line, CLI::App* command) {
    command
        ->add_option("--set", line.common.overrides,
                     "Override a config key, e.g. --set sim.a.decay=0.99 (repeatable)")
        ->allow_extra_args(false) // one key=value per --set, however many --set flags
        ->take_all();
    return command;
}

// What view and render share: the compare layouts, the panel names and a probe's place.
CLI::IsMember layoutChoices() {
    return CLI::IsMember({"vertical", "horizontal", "a", "b", "difference", "grid"});
}

std::string panelNames() { // every panel the viewer has, from its own list
    std::string names;
    for (const char* name : kPanelNames)
        names += std::string(name) + ",";
    return names;
}

// A probe is a place on the ground: a finite number of centimetres (NaN and 1e300 are not).
CLI::Validator placeCm() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !std::isfinite(v) || std::fabs(v) > 1e7)
                return "Value " + text + " is not a place in cm (finite, within 1e7)";
            return {};
        },
        "CM");
}

void addGlobalOptions(CLI::App& app, CommandLine& line) {
    app.set_version_flag("--version", std::string("snowcap ") + SNOWCAP_VERSION);
    app.require_subcommand(0, 1);
    app.add_flag("-v,--verbose", line.verbose,
                 "Log debug messages (-vv: trace, one line per frame)");
    app.add_flag("-q,--quiet", line.quiet, "Log only errors");
    app.add_flag("--debug-gl", line.common.debugGl,
                 "Ask for a debug GL context and log its messages");
    app.add_option("--gl-device", line.glDevice,
                   "EGL device of headless runs: auto (not software when another works) or N "
                   "from `snowcap gl-info` (default: $SNOWCAP_GL_DEVICE, else auto)")
        ->check([](const std::string& value) {
            auto parsed = parseGlDeviceChoice(value);
            auto* error = std::get_if<ContextError>(&parsed);
            return error ? error->message : std::string();
        });
}

void addViewCommand(CLI::App& app, CommandLine& line) {
    ViewOptions& options = line.viewOptions;
    CLI::App* view = app.add_subcommand("view", "Open the A/B viewer (the default)");
    view->add_option("--scenario", options.scenario, "Scenario name or TOML file");
    view->add_option("--frames,--quit-after", options.quitAfterFrames,
                     "Run N fixed steps with the UI, then exit (scripted checks, docs)")
        ->check(CLI::Range(1, std::numeric_limits<int>::max()));
    view->add_option("--screenshot", options.screenshot,
                     "With --frames: save the whole window as this PNG at the end");
    view->add_option("--panels", options.panels,
                     "Panels open at start, comma-separated: " + panelNames() + "all,none");
    view->add_option("--layout", options.layout, "Compare layout at start")->check(layoutChoices());
    view->add_option("--world-in", options.worldIn, "Start from a world file (docs/world.md)");
    view->add_option("--connect", options.connect,
                     "Join the session of `snowcap serve` at HOST:PORT; WASD drives the player "
                     "(with --frames N: until the session's step N)");
    view->add_option("--probe", options.probeCm, "Decay probe at world X Y (cm) from the start")
        ->check(placeCm())
        ->expected(2);
    view->add_option("--record,--video", options.record,
                     "Record video from the start (the Record button), e.g. with --frames N");
    view->add_option("--size", line.viewSize, "Window size in pixels, e.g. --size 960 540")
        ->expected(2)
        ->check(CLI::Range(64, 8192));
    line.view = addSet(line, view);
}

void addRenderCommand(CLI::App& app, CommandLine& line) {
    RenderOptions& render = line.renderOptions;
    CLI::App* command =
        app.add_subcommand("render", "Run a scenario headless and write images + stats.json");
    command->add_option("--scenario", render.scenario, "Scenario name or TOML file")
        ->capture_default_str();
    command->add_option("--out", render.outDir, "Output directory")->capture_default_str();
    command->add_option("--frames", render.frames, "Steps to run (default: run.frames)")
        ->check(CLI::Range(1, std::numeric_limits<int>::max()));
    command->add_option("--every", render.every, "Also write an image every K steps")
        ->check(CLI::Range(0, std::numeric_limits<int>::max()));
    command->add_flag("!--no-progress", render.progress, "No progress line");
    command->add_option("--world-in", render.worldIn,
                        "Start from a world file (sim.X.persistence = \"world\")");
    command->add_option("--world-out", render.worldOut,
                        "Write the world stores and windows at the end (docs/world.md)");
    command->add_flag("--ui", render.ui,
                      "Images show the viewer's frame with its panels (view.width x height)");
    command->add_option("--panels", render.panels,
                        "With --ui: panels drawn (as `view --panels`: " + panelNames() +
                            "all,none); buffers:drift opens Buffers on what drifted, "
                            "scene:ground the Scene panel's Ground");
    command->add_option("--size", line.renderSize, "Image size in pixels, e.g. --size 960 540")
        ->expected(2)
        ->check(CLI::Range(64, 8192));
    command->add_option("--layout", render.layout, "With --ui: compare layout")
        ->check(layoutChoices());
    command->add_option("--probe", render.probeCm, "With --ui: decay probe at X Y (cm)")
        ->expected(2)
        ->check(placeCm());
    command->add_option("--view", render.view, "Camera of final.png: perspective or top")
        ->check(CLI::IsMember({"perspective", "top"}));
    command
        ->add_option("--stage", render.stage,
                     "What final.png shows: lit, or one material stage for inspection")
        ->check(CLI::IsMember({"lit", "persistent", "mask", "height", "normal", "albedo",
                               "occlusion", "roughness", "specular", "shadow", "sparkle"}))
        ->capture_default_str();
    command->add_option(
        "--video,--record", render.video,
        "Also record the run as H.264 video (needs ffmpeg), 30 frames per second of the run");
    command
        ->add_option(
            "--video-every", render.videoEvery,
            "With --video: every K-th step, at fps / K (default: K for 30 fps; the length stays "
            "the run's)")
        ->check(CLI::Range(1, std::numeric_limits<int>::max()));
    line.render = addSet(line, command);
}

void addInspectCommand(CLI::App& app, CommandLine& line) {
    CLI::App* inspect = app.add_subcommand(
        "inspect-mesh", "Load a mesh as the viewer does and print what came out");
    inspect->add_option("FILE", line.meshPath, "glTF, FBX or any file Assimp reads")->required();
    inspect->add_option("--scale", line.meshOptions.scale, "Uniform scale after unit conversion");
    inspect->add_option("--fit-height-cm", line.meshOptions.fitHeightCm,
                        "Scale to this height (cm)");
    inspect->add_option("--rotation-deg", line.meshRotation, "Euler X Y Z, degrees")->expected(3);
    inspect->add_option("--offset-cm", line.meshOffset, "Move after placement, cm")->expected(3);
    inspect
        ->add_option("--up", line.meshUp,
                     "The file's up axis: auto (metadata, else the format's), y, z")
        ->check(CLI::IsMember({"auto", "y", "z"}))
        ->capture_default_str();
    inspect->add_option(
        "--preview", line.meshPreview,
        "Also write front/side/top silhouettes with ground, origin and 1 m bar (PNG)");
    inspect->add_option("--subset-preview", line.meshSubsetPreview,
                        "Also write the silhouettes with the capture subset of the first clip "
                        "in colour and its band's top dashed (PNG)");
    line.inspect = addSet(line, inspect); // import.max_memory_mib, import.max_seconds
}

// Every command, in the order --help lists them.
void addCommands(CLI::App& app, CommandLine& line) {
    addGlobalOptions(app, line);
    addViewCommand(app, line);
    addRenderCommand(app, line);
    line.net = addNetCommands(app, *line.render, line.renderOptions);
    addSet(line, line.net.serve);
    addSet(line, line.net.bench);
    line.bench = addSet(line, addBenchCommand(app, line.benchOptions));
    line.sweep = addSet(line, addSweepCommand(app, line.sweepOptions));
    line.params = addSet(line, addParamsCommand(app, line.paramsOptions));
    line.passes = addSet(line, addPassesCommand(app, line.passesOptions));
    line.glInfo = addGlInfoCommand(app);
    line.validate = addSet(line, addValidateCommand(app, line.validateOptions));
    line.exportUe = addSet(line, addExportUeCommand(app, line.exportUeOptions));
    addInspectCommand(app, line);
}

// A usage error is one line and exit 2 in every subcommand (CLI11's own exit codes are
// 104-109, with a second line); --help and --version print and exit 0. Empty: parsed, go on.
std::optional<int> parse(CLI::App& app, int argc, char** argv) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string text = e.what();
        for (char& c : text)
            if (static_cast<unsigned char>(c) < 0x20)
                c = ' ';
        std::fprintf(stderr, "snowcap: %s (see snowcap --help)\n", text.c_str());
        return 2;
    }
    return std::nullopt;
}

// Logs go to stderr so stdout stays clean for what a command prints (inspect-mesh, bench).
void setUpLogging(int verbose, bool quiet) {
    spdlog::set_default_logger(spdlog::stderr_color_mt("snowcap"));
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<CleanPayload>('*').set_pattern("%^%l%$: %*");
    spdlog::set_formatter(std::move(formatter));
    spdlog::set_level(verbose > 1   ? spdlog::level::trace
                      : verbose > 0 ? spdlog::level::debug
                      : quiet       ? spdlog::level::err
                                    : spdlog::level::info);
}

int runInspect(CommandLine& line) {
    ImportOptions& options = line.meshOptions;
    if (line.meshRotation.size() == 3)
        options.rotationDeg = {line.meshRotation[0], line.meshRotation[1], line.meshRotation[2]};
    if (line.meshOffset.size() == 3)
        options.offsetCm = {line.meshOffset[0], line.meshOffset[1], line.meshOffset[2]};
    options.upAxis = line.meshUp == "z" ? UpAxis::Z : line.meshUp == "y" ? UpAxis::Y : UpAxis::Auto;
    return runInspectMesh(line.common, line.meshPath, options, line.meshPreview,
                          line.meshSubsetPreview);
}

// The command that was parsed; none: the viewer.
int runParsed(CommandLine& line) {
    CommonOptions& common = line.common;
    if (line.glInfo->parsed())
        return runGlInfo(common);
    if (line.render->parsed()) {
        if (line.renderSize.size() == 2) {
            common.overrides.push_back("view.width=" + std::to_string(line.renderSize[0]));
            common.overrides.push_back("view.height=" + std::to_string(line.renderSize[1]));
        }
        return runRender(common, line.renderOptions);
    }
    if (line.net.parsed())
        return runNetCommand(common, line.net);
    if (line.bench->parsed())
        return runBench(common, line.benchOptions);
    if (line.exportUe->parsed())
        return runExportUe(common, line.exportUeOptions);
    if (line.sweep->parsed())
        return runSweep(common, line.sweepOptions);
    if (line.params->parsed())
        return runParams(common, line.paramsOptions);
    if (line.passes->parsed())
        return runPasses(common, line.passesOptions);
    if (line.validate->parsed())
        return runValidate(common, line.validateOptions);
    if (line.inspect->parsed())
        return runInspect(line);
    if (line.viewSize.size() == 2) {
        line.viewOptions.width = line.viewSize[0];
        line.viewOptions.height = line.viewSize[1];
    }
    return runView(common, line.viewOptions);
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"snowcap: real-time snow deformation lab (OpenGL 4.5/4.6)", "snowcap"};
    CommandLine line;
    addCommands(app, line);
    if (const std::optional<int> exit = parse(app, argc, argv))
        return *exit;
    // A file-size limit (ulimit -f) makes a write fail with EFBIG instead of killing the
    // process, so the writer removes its temp file and says so in one line.
    std::signal(SIGXFSZ, SIG_IGN);
    setUpLogging(line.verbose, line.quiet);
    if (!line.glDevice.empty())
        setenv(snowcap::kGlDeviceVariable, line.glDevice.c_str(), 1);
    return runParsed(line);
}
