#pragma once
// `snowcap sweep`, one batch: a field of packed combinations run in the current GL context,
// step by step as `render` runs (Lab::stepTo at (i + 1) dt, probes read after each step), with
// a tile and the buffer statistics of every combination at each --at time, and the relief at
// the end (as stats.json has it: a relief is a surface pass over the whole region, as costly on
// llvmpipe as a tile).

#include "io/image.hpp"
#include "lab/print_metrics.hpp"
#include "lab/sweep_plan.hpp"
#include "render/view_params.hpp"

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// --tile's bounds, a side in pixels (the command line and a plan file).
inline constexpr int kMinSweepTile = 16, kMaxSweepTile = 4096;

struct SweepRunOptions {
    int tileWidth = 320, tileHeight = 180;
    SurfaceOutput stage = SurfaceOutput::Lit;
};

// One combination at one --at time.
struct SweepSample {
    double atS = 0.0;                         // as asked
    int step = 0;                             // the step it was taken after (round(at x fps))
    std::vector<std::optional<float>> probes; // per probe; nullopt outside the region
    long long texelsDisturbed = 0;            // persistent buffer texels != 0 (R)
    ImageRgba8 tile;                          // unlabelled (PSNR is taken on it)
};

struct SweepResult {
    int combination = 0;
    std::vector<std::string> probeNames;
    std::vector<SweepSample> samples; // one per --at time, in --at order
    std::vector<MeasuredFade> fades;  // per probe
    PredictedFade predicted;          // the sim clock's, for a full print
    Relief relief;                    // at the end of the run
    double batchWallS = 0.0;          // the whole batch's wall time (shared by its rows)
    std::string glRenderer;           // the GL renderer it ran on
};

// Runs batch `batch` of the plan; `onStep(k)` after each of its steps. One line on failure.
// `lab` carries the lab from one batch to the next in a process: building one compiles every
// shader and imports every mesh (seconds on llvmpipe), so a later batch takes the earlier lab,
// gives it its settings and clears it, and starts exactly as a fresh one would (the CLI test
// compares such a batch with `render`). Null or empty: a lab is made.
class Lab;
std::variant<std::vector<SweepResult>, std::string>
runSweepBatch(const SweepPlan& plan, int batch, const SweepRunOptions& options,
              const std::string& glRenderer, const std::function<void(long long)>& onStep,
              std::unique_ptr<Lab>* lab = nullptr);

// Results through a file, for worker processes: metrics as JSON, tiles as PNGs beside it.
std::optional<std::string> saveSweepResults(const std::vector<SweepResult>& results,
                                            const std::filesystem::path& jsonPath);
// What a batch's result file must hold (it may have been edited, cut or swapped on a shared
// disk): its combinations in order, a sample per --at time taken at that time after a step in
// 1..frames, a value and a fade per probe, tiles of the plan's size. Anything else is one line
// naming the file, before the merge indexes anything with it.
struct SweepResultShape {
    std::vector<int> combinations;
    std::vector<double> atS;
    int frames = 0;
    int tileWidth = 0, tileHeight = 0;
};
SweepResultShape sweepResultShape(const SweepPlan& plan, int batch, const SweepRunOptions& run);
std::variant<std::vector<SweepResult>, std::string>
loadSweepResults(const std::filesystem::path& jsonPath, const SweepResultShape& shape);

} // namespace snowcap
