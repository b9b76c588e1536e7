#pragma once
// The subcommands of the `snowcap` program. Each returns the process exit code:
// 0 success, 1 failure while running, 2 bad input or no usable GL (one line on stderr).

#include "lab/session.hpp"
#include "viewer/viewer.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace snowcap {

struct RenderOptions {
    std::string scenario = "decay_compare";
    std::filesystem::path outDir = "out";
    int frames = 0; // 0: the scenario's run.frames
    int every = 0;  // write an image every K steps (0: only the final one)
    bool progress = true;
    std::string view; // "perspective" | "top" (empty: the scenario's view.mode)
    std::string stage =
        "lit";          // what final.png shows: lit | persistent | mask | height | normal | albedo
    bool ui = false;    // --ui: images show the viewer's frame, panels included
    std::string panels; // --panels with --ui ("" = the viewer's default)
    std::string layout; // --layout with --ui
    std::vector<double> probeCm; // --probe X Y with --ui
    std::filesystem::path video; // --video FILE.mp4: every step's image, H.264 (lab/video.hpp)
    int videoEvery = 0; // --video-every K: every K-th step, at fps / K (0: 30 fps of the run)
    std::filesystem::path worldIn;  // --world-in: start from a world file (docs/world.md)
    std::filesystem::path worldOut; // --world-out: write the world stores at the end
    bool closingLine = true;        // the "N steps in ...; wrote ..." line (view prints its own)
    // A networked session (docs/network.md): --connect HOST:PORT makes this a client
    // (net/client.hpp); --record-inputs FILE writes the run's input stream (net/replay.hpp).
    std::string connect;
    std::filesystem::path recordInputs;
    double liePlayerInput = 0.0; // test hooks of a lying client (net/client.hpp)
    long long lieStampOffset = 0;
};

struct BenchOptions {
    std::vector<int> sizes = {512, 1024, 2048}; // buffer sides (4096, 8192: opt-in, slow on CPUs)
    std::vector<std::string> screens = {"640x360", "1280x720", "1920x1080"}; // surface passes
    std::vector<std::string> triangles = {"10k", "50k", "200k", "1M"};       // capture scaling
    std::vector<int> crowds = {10, 100, 1000}; // bipeds of the crowd cases (at 2048 or largest)
    std::string frameScreen = "1280x720";      // frame_ab, quality, idle_skip and the blur PSNR
    int frames = 10;                           // measured repetitions per case (after warm-up)
    double caseBudgetS = 2.0;                  // a case stops early past this, with >= 3 samples
    std::vector<std::string> only;             // pass names; empty = all (copy floors always run)
    std::string method = "auto";               // auto | serialized | query
    std::filesystem::path json;                // also write the results here
    bool progress = true;                      // --no-progress: nothing on stderr while it runs
};

int runRender(const CommonOptions& common, const RenderOptions& options);
// `serve`, `replay`, and render's --connect and --record-inputs (app/net_commands.cpp); the
// commands it made, for main to ask which one was parsed.
struct NetCommands {
    CLI::App* serve = nullptr;
    CLI::App* replay = nullptr;
    CLI::App* bench = nullptr; // net-bench
    bool parsed() const;
};
NetCommands addNetCommands(CLI::App& app, CLI::App& render, RenderOptions& renderOptions);
int runNetCommand(const CommonOptions& common, const NetCommands& commands);
int runBench(const CommonOptions& common, const BenchOptions& options);
// Registers `bench` and its options (app/bench_command.cpp keeps them beside their meaning).
CLI::App* addBenchCommand(CLI::App& app, BenchOptions& options);

int runView(const CommonOptions& common, const ViewOptions& options);
// `view --connect HOST:PORT` (view_connect.cpp): the viewer as a session's client.
int runViewConnect(const CommonOptions& common, const ViewOptions& options);

// `snowcap sweep` (app/sweep_command.cpp, docs/sweeps.md).
struct SweepOptions {
    std::string scenario = "decay_compare";
    std::vector<std::string> vary; // --vary KEY=V1,V2,...
    std::vector<double> atS;       // --at T1,T2,...
    int frames = 0;                // 0: up to the last --at time
    std::string sim;               // --sim: the sim measured ("": from the keys)
    std::string stage = "lit";     // lit | persistent | mask | height | normal
    std::string tile = "320x180";  // tile size
    int jobs = 1;                  // worker processes
    std::filesystem::path outDir;  // "": out/sweep (with --merge: the plan's directory)
    bool progress = true;
    // Beyond one machine (docs/cluster.md): plan, run one shard, merge.
    std::filesystem::path planDir;  // --plan DIR: write DIR/plan.json (with --shard: read it)
    std::string shard;              // --shard K/N or env
    int shardCount = 0;             // --shard-count N: N for --shard env under Kubernetes
    std::filesystem::path mergeDir; // --merge DIR
    bool requestGiven = false;      // any of --scenario --vary --at --frames --sim --stage --tile
};
int runSweep(const CommonOptions& common, const SweepOptions& options);
CLI::App* addSweepCommand(CLI::App& app, SweepOptions& options);

// `snowcap params` (app/params_command.cpp).
struct ParamsOptions {
    bool toml = false;     // --toml: config/default.toml (also the default output)
    bool markdown = false; // --markdown: docs/parameters.md
    bool glsl = false;     // --glsl: shaders/common/shared_constants.glsl
    std::string scenario;  // --scenario: that scenario's keys instead of the defaults
};
int runParams(const CommonOptions& common, const ParamsOptions& options);
CLI::App* addParamsCommand(CLI::App& app, ParamsOptions& options);

// `snowcap passes` (app/passes_command.cpp): the frame's list of passes.
struct PassesOptions {
    std::string scenario = "decay_compare";
    bool markdown = false; // --markdown: docs/architecture.md's pass table
};
int runPasses(const CommonOptions& common, const PassesOptions& options);
CLI::App* addPassesCommand(CLI::App& app, PassesOptions& options);

// `snowcap export-ue` (app/export_ue_command.cpp): the settings card for Unreal.
struct ExportUeOptions {
    std::string scenario = "decay_compare";
    std::string sim = "a";
    std::filesystem::path out = "out/export_ue/card"; // FILE: FILE.md, FILE.json, FILE.py
    std::filesystem::path bench; // a bench report: a snowpack card's measured cost
};
int runExportUe(const CommonOptions& common, const ExportUeOptions& options);
CLI::App* addExportUeCommand(CLI::App& app, ExportUeOptions& options);

// `snowcap gl-info` (app/gl_info_command.cpp): the EGL devices and the one used.
int runGlInfo(const CommonOptions& common);
CLI::App* addGlInfoCommand(CLI::App& app);

struct ImportOptions; // scene/model_import.hpp
// Loads a mesh as the viewer does (config/default.toml and --set give the import caps) and
// prints a summary; 2 and one stderr line if unusable.
// With `preview` non-empty, also writes the model's silhouettes there (scene/mesh_preview.hpp);
// with `subsetPreview`, its capture subset for its first clip (kept triangles in colour).
int runInspectMesh(const CommonOptions& common, const std::string& path, ImportOptions options,
                   const std::string& preview = "", const std::string& subsetPreview = "");

} // namespace snowcap
