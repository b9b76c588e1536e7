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
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace {

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

} // namespace

int main(int argc, char** argv) {
    using namespace snowcap;
    CLI::App app{"snowcap: real-time snow deformation lab (OpenGL 4.5/4.6)", "snowcap"};
    app.set_version_flag("--version", std::string("snowcap ") + SNOWCAP_VERSION);
    app.require_subcommand(0, 1);

    CommonOptions common;
    int verbose = 0; // -v debug, -vv trace (the viewer then logs each frame it draws)
    bool quiet = false;
    app.add_flag("-v,--verbose", verbose, "Log debug messages (-vv: trace, one line per frame)");
    app.add_flag("-q,--quiet", quiet, "Log only errors");
    app.add_flag("--debug-gl", common.debugGl, "Ask for a debug GL context and log its messages");
    std::string glDevice; // travels as $SNOWCAP_GL_DEVICE, so worker processes choose the same
    app.add_option("--gl-device", glDevice,
                   "EGL device of headless runs: auto (not software when another works) or N "
                   "from `snowcap gl-info` (default: $SNOWCAP_GL_DEVICE, else auto)")
        ->check([](const std::string& value) {
            auto parsed = parseGlDeviceChoice(value);
            auto* error = std::get_if<ContextError>(&parsed);
            return error ? error->message : std::string();
        });
    auto addSet = [&common](CLI::App* command) {
        command
            ->add_option("--set", common.overrides,
                         "Override a config key, e.g. --set sim.a.decay=0.99 (repeatable)")
            ->allow_extra_args(false) // one key=value per --set, however many --set flags
            ->take_all();
        return command;
    };

    const auto layouts = CLI::IsMember({"vertical", "horizontal", "a", "b", "difference", "grid"});
    ViewOptions viewOptions;
    CLI::App* view = app.add_subcommand("view", "Open the A/B viewer (the default)");
    view->add_option("--scenario", viewOptions.scenario, "Scenario name or TOML file");
    view->add_option("--frames,--quit-after", viewOptions.quitAfterFrames,
                     "Run N fixed steps with the UI, then exit (scripted checks, docs)")
        ->check(CLI::Range(1, std::numeric_limits<int>::max()));
    view->add_option("--screenshot", viewOptions.screenshot,
                     "With --frames: save the whole window as this PNG at the end");
    std::string panelNames; // every panel the viewer has, from its own list
    for (const char* name : kPanelNames)
        panelNames += std::string(name) + ",";
    view->add_option("--panels", viewOptions.panels,
                     "Panels open at start, comma-separated: " + panelNames + "all,none");
    view->add_option("--layout", viewOptions.layout, "Compare layout at start")->check(layouts);
    view->add_option("--world-in", viewOptions.worldIn, "Start from a world file (docs/world.md)");
    view->add_option("--connect", viewOptions.connect,
                     "Join the session of `snowcap serve` at HOST:PORT; WASD drives the player "
                     "(with --frames N: until the session's step N)");
    // A probe is a place on the ground: a finite number of centimetres (NaN and 1e300 are not).
    const CLI::Validator placeCm(
        [](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !std::isfinite(v) || std::fabs(v) > 1e7)
                return "Value " + text + " is not a place in cm (finite, within 1e7)";
            return {};
        },
        "CM");
    view->add_option("--probe", viewOptions.probeCm, "Decay probe at world X Y (cm) from the start")
        ->check(placeCm)
        ->expected(2);
    view->add_option("--record,--video", viewOptions.record,
                     "Record video from the start (the Record button), e.g. with --frames N");
    std::vector<int> viewSize;
    view->add_option("--size", viewSize, "Window size in pixels, e.g. --size 960 540")
        ->expected(2)
        ->check(CLI::Range(64, 8192));
    addSet(view);

    RenderOptions render;
    CLI::App* renderCommand =
        app.add_subcommand("render", "Run a scenario headless and write images + stats.json");
    renderCommand->add_option("--scenario", render.scenario, "Scenario name or TOML file")
        ->capture_default_str();
    renderCommand->add_option("--out", render.outDir, "Output directory")->capture_default_str();
    renderCommand->add_option("--frames", render.frames, "Steps to run (default: run.frames)")
        ->check(CLI::Range(1, std::numeric_limits<int>::max()));
    renderCommand->add_option("--every", render.every, "Also write an image every K steps")
        ->check(CLI::Range(0, std::numeric_limits<int>::max()));
    renderCommand->add_flag("!--no-progress", render.progress, "No progress line");
    renderCommand->add_option("--world-in", render.worldIn,
                              "Start from a world file (sim.X.persistence = \"world\")");
    renderCommand->add_option("--world-out", render.worldOut,
                              "Write the world stores and windows at the end (docs/world.md)");
    renderCommand->add_flag("--ui", render.ui,
                            "Images show the viewer's frame with its panels (view.width x height)");
    renderCommand->add_option(
        "--panels", render.panels,
        "With --ui: panels drawn (as `view --panels`: " + panelNames +
            "all,none); buffers:drift opens Buffers on what drifted, scene:ground the Scene "
            "panel's Ground");
    std::vector<int> renderSize; // as `view --size`: view.width and view.height
    renderCommand->add_option("--size", renderSize, "Image size in pixels, e.g. --size 960 540")
        ->expected(2)
        ->check(CLI::Range(64, 8192));
    renderCommand->add_option("--layout", render.layout, "With --ui: compare layout")
        ->check(layouts);
    renderCommand->add_option("--probe", render.probeCm, "With --ui: decay probe at X Y (cm)")
        ->expected(2)
        ->check(placeCm);
    renderCommand->add_option("--view", render.view, "Camera of final.png: perspective or top")
        ->check(CLI::IsMember({"perspective", "top"}));
    renderCommand
        ->add_option("--stage", render.stage,
                     "What final.png shows: lit, or one material stage for inspection")
        ->check(CLI::IsMember({"lit", "persistent", "mask", "height", "normal", "albedo",
                               "occlusion", "roughness", "specular", "shadow", "sparkle"}))
        ->capture_default_str();
    renderCommand->add_option(
        "--video,--record", render.video,
        "Also record the run as H.264 video (needs ffmpeg), 30 frames per second of the run");
    renderCommand
        ->add_option(
            "--video-every", render.videoEvery,
            "With --video: every K-th step, at fps / K (default: K for 30 fps; the length stays "
            "the run's)")
        ->check(CLI::Range(1, std::numeric_limits<int>::max()));
    addSet(renderCommand);
    const NetCommands netCommands = addNetCommands(app, *renderCommand, render);
    addSet(netCommands.serve);
    addSet(netCommands.bench);

    BenchOptions bench;
    CLI::App* benchCommand = addSet(addBenchCommand(app, bench));

    SweepOptions sweep;
    CLI::App* sweepCommand = addSet(addSweepCommand(app, sweep));

    ParamsOptions paramsOptions;
    CLI::App* paramsCommand = addSet(addParamsCommand(app, paramsOptions));

    PassesOptions passesOptions;
    CLI::App* passesCommand = addSet(addPassesCommand(app, passesOptions));

    CLI::App* glInfoCommand = addGlInfoCommand(app);
    ValidateOptions validateOptions;
    CLI::App* validateCommand = addSet(addValidateCommand(app, validateOptions));

    ExportUeOptions exportUe;
    CLI::App* exportUeCommand = addSet(addExportUeCommand(app, exportUe));

    std::string meshPath;
    ImportOptions meshOptions;
    std::vector<float> meshRotation, meshOffset;
    CLI::App* inspect = app.add_subcommand(
        "inspect-mesh", "Load a mesh as the viewer does and print what came out");
    inspect->add_option("FILE", meshPath, "glTF, FBX or any file Assimp reads")->required();
    inspect->add_option("--scale", meshOptions.scale, "Uniform scale after unit conversion");
    inspect->add_option("--fit-height-cm", meshOptions.fitHeightCm, "Scale to this height (cm)");
    inspect->add_option("--rotation-deg", meshRotation, "Euler X Y Z, degrees")->expected(3);
    inspect->add_option("--offset-cm", meshOffset, "Move after placement, cm")->expected(3);
    std::string meshUp = "auto", meshPreview, meshSubsetPreview;
    inspect
        ->add_option("--up", meshUp, "The file's up axis: auto (metadata, else the format's), y, z")
        ->check(CLI::IsMember({"auto", "y", "z"}))
        ->capture_default_str();
    inspect->add_option(
        "--preview", meshPreview,
        "Also write front/side/top silhouettes with ground, origin and 1 m bar (PNG)");
    inspect->add_option("--subset-preview", meshSubsetPreview,
                        "Also write the silhouettes with the capture subset of the first clip "
                        "in colour and its band's top dashed (PNG)");
    addSet(inspect); // import.max_memory_mib, import.max_seconds

    // A usage error is one line and exit 2 in every subcommand (CLI11's own exit codes are
    // 104-109, with a second line); --help and --version print and exit 0.
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string line = e.what();
        for (char& c : line)
            if (static_cast<unsigned char>(c) < 0x20)
                c = ' ';
        std::fprintf(stderr, "snowcap: %s (see snowcap --help)\n", line.c_str());
        return 2;
    }
    // A file-size limit (ulimit -f) makes a write fail with EFBIG instead of killing the
    // process, so the writer removes its temp file and says so in one line.
    std::signal(SIGXFSZ, SIG_IGN);

    // Logs go to stderr so stdout stays clean for what a command prints (inspect-mesh, bench).
    spdlog::set_default_logger(spdlog::stderr_color_mt("snowcap"));
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<CleanPayload>('*').set_pattern("%^%l%$: %*");
    spdlog::set_formatter(std::move(formatter));
    spdlog::set_level(verbose > 1   ? spdlog::level::trace
                      : verbose > 0 ? spdlog::level::debug
                      : quiet       ? spdlog::level::err
                                    : spdlog::level::info);

    if (!glDevice.empty())
        setenv(kGlDeviceVariable, glDevice.c_str(), 1);

    if (glInfoCommand->parsed())
        return runGlInfo(common);
    if (renderCommand->parsed()) {
        if (renderSize.size() == 2) {
            common.overrides.push_back("view.width=" + std::to_string(renderSize[0]));
            common.overrides.push_back("view.height=" + std::to_string(renderSize[1]));
        }
        return runRender(common, render);
    }
    if (netCommands.parsed())
        return runNetCommand(common, netCommands);
    if (benchCommand->parsed())
        return runBench(common, bench);
    if (exportUeCommand->parsed())
        return runExportUe(common, exportUe);
    if (sweepCommand->parsed())
        return runSweep(common, sweep);
    if (paramsCommand->parsed())
        return runParams(common, paramsOptions);
    if (passesCommand->parsed())
        return runPasses(common, passesOptions);
    if (validateCommand->parsed())
        return runValidate(common, validateOptions);
    if (inspect->parsed()) {
        if (meshRotation.size() == 3)
            meshOptions.rotationDeg = {meshRotation[0], meshRotation[1], meshRotation[2]};
        if (meshOffset.size() == 3)
            meshOptions.offsetCm = {meshOffset[0], meshOffset[1], meshOffset[2]};
        meshOptions.upAxis = meshUp == "z" ? UpAxis::Z : meshUp == "y" ? UpAxis::Y : UpAxis::Auto;
        return runInspectMesh(common, meshPath, meshOptions, meshPreview, meshSubsetPreview);
    }
    if (viewSize.size() == 2) {
        viewOptions.width = viewSize[0];
        viewOptions.height = viewSize[1];
    }
    return runView(common, viewOptions);
}
