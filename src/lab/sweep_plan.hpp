#pragma once
// `snowcap sweep`, the plan: what --vary and --at ask for, every combination loaded and checked
// through the normal config path (before anything runs), and the fields they run in. No GL.
//
// Packing. A combination that differs from the others only in keys of one sim (sim.b.decay,
// sim.b.material.tgl, ...) needs nothing of its own but that sim: it becomes one sim of a
// field, and a field holds as many of them as it has sims (one shared capture when region and
// resolution match, SnowField's rule). Combinations that differ in any other key (snow.*,
// run.*, a deformer) are fields of their own, one combination each. Each field is a batch;
// `--jobs N` runs the batches in N processes.

#include "core/settings.hpp"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

struct SweepAxis {
    std::string key;                 // as given: "sim.b.decay"
    std::vector<std::string> values; // as given, one --set value each: "0.95", "\"max\""
};

struct SweepRequest {
    std::string scenario;
    std::vector<std::string> overrides; // --set, applied before the varied keys
    std::vector<SweepAxis> axes;        // one per --vary, in order
    std::vector<double> atS;            // --at: the sheet's columns, seconds
    int frames = 0;                     // --frames: 0 = up to the last --at time
    std::string sim;                    // --sim: the sim measured ("" = from the keys, else "a")
};

// "KEY=V1,V2,..." -> an axis; commas inside [..], {..} or quotes belong to the value.
std::variant<SweepAxis, std::string> parseSweepAxis(const std::string& text);

struct SweepCombination {
    int index = 0;                      // row of the sheet, CSV and JSON
    std::vector<std::string> values;    // one per axis
    std::vector<std::string> overrides; // --set then KEY=VALUE per axis: what `render` would take
    Settings settings;                  // loaded and checked; run.frames set to the sweep's length
};

// One field: the combinations it runs and, for each, the sim of the field that carries it.
struct SweepBatch {
    Settings settings;             // the field's settings (its sims filled from the combinations)
    std::vector<int> combinations; // indices into SweepPlan::combinations
    std::vector<int> slots;        // the sim of this field each combination runs in
};

struct SweepPlan {
    SweepRequest request;
    int measuredSim = 0; // the sim the combinations set (or --sim)
    bool packed = false; // the combinations share fields (only that sim's keys vary)
    int frames = 0;      // steps every combination runs
    std::vector<SweepCombination> combinations;
    std::vector<SweepBatch> batches;

    // "decay 0.95": the varied keys' last components and values, for labels.
    std::string label(int combination) const;
};

// The request's bounds, on the command line and in a plan file alike: --at times (each in
// (0, kMaxSweepSeconds], and the last one at most INT_MAX steps), and the combinations every
// --vary together makes (each is a field's worth of settings, loaded before anything runs).
inline constexpr std::size_t kMaxSweepTimes = 1000;
inline constexpr double kMaxSweepSeconds = 1e7;
inline constexpr std::size_t kMaxSweepCombinations = 4096;

// How many sims one field holds: the pack size.
int sweepFieldCapacity();

// Checks the request and loads every combination (config/default.toml, the scenario, --set,
// the varied values) exactly as `render --set` would; the first problem is one line (the
// config's own message for a bad key or value), and nothing has run.
std::variant<SweepPlan, std::string> planSweep(const SweepRequest& request);

} // namespace snowcap
