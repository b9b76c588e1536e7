#pragma once
// The subcommands of the `snowcap` program. Each returns the process exit code:
// 0 success, 1 failure while running, 2 bad input or no usable GL (one line on stderr).

#include <filesystem>
#include <string>
#include <vector>

namespace snowcap {

struct CommonOptions {
    std::vector<std::string> overrides; // --set key=value
    bool debugGl = false;
};

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
};

struct BenchOptions {
    std::vector<int> sizes = {512, 1024, 2048};
    int frames = 20;            // measured repetitions per case (after 3 warm-up runs)
    std::filesystem::path json; // also write the results here
};

int runRender(const CommonOptions& common, const RenderOptions& options);
int runBench(const CommonOptions& common, const BenchOptions& options);
struct ViewOptions {
    std::string scenario = "decay_compare";
    // --frames N (alias --quit-after): N fixed steps with the UI, then exit; 0: until closed.
    int quitAfterFrames = 0;
    std::filesystem::path screenshot; // written when quitting after N frames
    std::string panels;               // --panels: which panels start open ("" = the default)
    std::string layout;               // --layout: vertical | horizontal | a | b | difference
    std::vector<double> probeCm;      // --probe X Y: the decay probe from the start
    int width = 1600, height = 900;   // --size WxH of the window
};

int runView(const CommonOptions& common, const ViewOptions& options);
// The windowed viewer proper (needs a display).
int runViewer(const CommonOptions& common, const ViewOptions& options);

struct ImportOptions; // scene/model_import.hpp
// Loads a mesh as the viewer does and prints a summary; 2 and one stderr line if unusable.
int runInspectMesh(const std::string& path, const ImportOptions& options);

// The repository root that holds config/ and shaders/.
std::filesystem::path resourceRoot();

} // namespace snowcap
