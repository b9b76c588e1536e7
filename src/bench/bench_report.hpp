#pragma once
// The reporting half of `snowcap bench`: ratios to the copy floor, the cost targets
// (met / missed / not measured), the scaling series, the printed table and the JSON document
// (schema in docs/performance.md; tools/bench_compare and bench_plot read it).

#include "bench/bench_cases.hpp"
#include "bench/bench_harness.hpp"
#include "platform/gl_context.hpp"

#include <nlohmann/json.hpp>
#include <optional>

namespace snowcap::bench {

inline constexpr int kSchemaVersion = 1;

// Each case's median over the median of the copy named by its `floor` (0 if there is none).
void computeRatios(std::vector<Case>& cases);

struct Target {
    std::string name;
    std::optional<double> value; // empty: not measured in this run
    std::string goal;            // e.g. "<= 1.3"
    std::optional<bool> met;     // empty: not measured
    std::string unit, why;       // why: what the number is and, when missed, why
    // A time (a ratio of times, "x ...", or a rate, "fps"): its goal is set for a GPU, and a
    // software renderer's figure says nothing of one. Counts, bytes and image quality hold on
    // any renderer.
    bool needsGpu = false;
};
std::vector<Target> computeTargets(const std::vector<Case>& cases, const nlohmann::json& memory,
                                   const Screen& frameScreen, double peakRss);

nlohmann::json scalingSeries(const std::vector<Case>& cases);

struct RunInfo {
    MachineInfo machine;
    GlInfo gl;
    std::string method;
    int frames = 0;
    double wallSeconds = 0;
    double peakRssMiB = 0;
    std::vector<std::string> overrides, notes;
};

nlohmann::json toJson(const RunInfo& info, const std::vector<Case>& cases,
                      const std::vector<Target>& targets, const nlohmann::json& memory);
// The table, the notes and the targets on stdout, flushed before it returns (the log lines go
// to stderr: none lands inside a row). `selective` (--only): the targets this run measured, and
// one line for the rest, not one line each.
void printReport(const RunInfo& info, const std::vector<Case>& cases,
                 const std::vector<Target>& targets, bool selective = false);

} // namespace snowcap::bench
