#pragma once
// The measuring half of `snowcap bench`: one timed repetition (serialized glFinish + steady
// clock, or a blocking pair of GL timestamp queries), warm-up and repetition policy, the case
// records every group appends to, and the machine facts the report prints.

#include "gpu/objects.hpp"
#include "gpu/timers.hpp"
#include "scene/mesh.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace snowcap::bench {

// One measured case. `pass` names are stable (docs/performance.md lists them); `variant` tells
// apart the runs of one pass (accumulate add_r16f / max_r16f, capture 4x50k, ...); `size` is the
// buffer side ("1024") or the screen ("1280x720"); `floor` names the copy case the ratio is
// taken against (the copy at the same size, same run).
struct Case {
    std::string pass, variant, size, floor;
    long long elements = 0;      // texels, pixels or triangles one repetition processes
    std::string unit = "texels"; // what `elements` counts
    std::string method;          // how this case was timed
    int samples = 0;             // measured repetitions (after warm-up)
    double medianMs = 0, minMs = 0, maxMs = 0;
    double ratioToCopy = 0; // filled by the report once every floor is known
    std::string note;       // e.g. "rgba16f not in this build: ran r16f"
    nlohmann::json extra = nlohmann::json::object(); // passes per frame, bytes, PSNR, ...

    std::string key() const { return pass + "|" + variant + "|" + size; }
};

struct CaseSpec {
    std::string pass, variant, size, floor;
    long long elements = 0;
    std::string unit = "texels";
    bool wallClock = false; // whole frames: always serialized wall time, whatever the GPU
};

class Harness {
public:
    Harness(gpu::TimingMethod method, int frames, std::vector<std::string> only,
            double caseBudgetS);

    gpu::TimingMethod method() const { return method_; }
    int frames() const { return frames_; }
    // Whether --only selects this pass (copy floors are always measured: every ratio needs one).
    // An entry "pass:variant" selects one variant of a pass (frame_ab:default).
    bool wants(std::string_view pass) const;
    bool wants(std::string_view pass, std::string_view variant) const;
    bool wantsAny(std::initializer_list<std::string_view> passes) const;

    // Warm-up, then up to frames() repetitions of `work` (each preceded by an untimed `setup`),
    // stopping early once the case has used its time budget with at least 3 samples, so a pass
    // that costs seconds on a CPU rasteriser keeps the default run short. Appends the case.
    Case& run(const CaseSpec& spec, const std::function<void()>& work,
              const std::function<void()>& setup = {});
    // A case measured by the caller (e.g. passes counted over an idle stretch).
    Case& add(Case c);

    std::vector<Case>& cases() { return cases_; }
    const std::vector<Case>& cases() const { return cases_; }
    // Called after each case is appended (the progress reporter's tick).
    void setOnCase(std::function<void(const Case&)> onCase) { onCase_ = std::move(onCase); }
    // Asked before every repetition: once it says stop (an interrupt), run() measures nothing
    // more, and the case it appends holds what was measured (samples may be 0).
    void setStop(std::function<bool()> stop) { stop_ = std::move(stop); }
    const Case* find(std::string_view pass, std::string_view variant, std::string_view size) const;
    Case* find(std::string_view pass, std::string_view variant, std::string_view size) {
        return const_cast<Case*>(std::as_const(*this).find(pass, variant, size));
    }

private:
    double timeOnceMs(const std::function<void()>& work, bool wallClock);

    gpu::TimingMethod method_;
    int frames_;
    std::vector<std::string> only_;
    double caseBudgetS_;
    gpu::Query queryBegin_, queryEnd_;
    std::vector<Case> cases_;
    std::function<void(const Case&)> onCase_;
    std::function<bool()> stop_;
};

// A dense procedural deformer: a UV sphere with about `triangles` triangles.
Mesh denseSphere(float radiusCm, int triangles);
// "50k", "1M", "1234" - how the bench names triangle counts.
std::string countLabel(long long n);

struct MachineInfo {
    unsigned cores = 0;
    std::string cpuModel;
    double ramGiB = 0;
    std::string os;
};
MachineInfo machineInfo();
// The process's peak resident set so far (getrusage), in MiB.
double peakRssMiB();

// Peak signal-to-noise ratio of two RGBA8 images' RGB in dB (infinity when identical).
double psnrRgb(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b);

} // namespace snowcap::bench
