#pragma once
// The snow field — BP_FoliageInteraction_snow's counterpart: owns the contact captures and the
// two sims (A and B), drives a step, and clears on reset. Sims whose region and resolution
// match share one capture.

#include "core/settings.hpp"
#include "gpu/shader_library.hpp"
#include "gpu/timers.hpp"
#include "snow/contact_capture.hpp"
#include "snow/snow_sim.hpp"

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

struct PassCounts {
    long long capture = 0;
    long long accumulate = 0;
};

// The region a sim covers, from the settings.
Region simRegion(const Settings& settings, int simIndex);
CaptureKey simCaptureKey(const Settings& settings, int simIndex);

class SnowField {
public:
    static constexpr int kSimCount = 2;

    static std::variant<std::unique_ptr<SnowField>, std::string>
    create(const Settings& settings, gpu::ShaderLibrary& shaders);

    // Live settings change; on failure nothing changes and the reason is returned.
    std::optional<std::string> applySettings(const Settings& settings);

    // capture (once per distinct capture) -> accumulate (per sim).
    void step(std::span<const DeformerInstance> deformers, double dtSeconds,
              gpu::PassTimer* timer = nullptr);
    void reset();

    const Settings& settings() const { return settings_; }
    SnowSim& sim(int index) { return sims_[index]; }
    const SnowSim& sim(int index) const { return sims_[index]; }
    const ContactCapture& captureOf(int simIndex) const {
        return *captures_[captureIndex_[simIndex]];
    }
    int captureCount() const { return static_cast<int>(captures_.size()); }
    const ContactCapture& capture(int index) const { return *captures_[index]; }
    const PassCounts& passesRun() const { return passesRun_; }

private:
    SnowField(gpu::ShaderLibrary& shaders) : shaders_(shaders) {}

    gpu::ShaderLibrary& shaders_;
    Settings settings_;
    const gpu::ShaderProgram* captureProgram_ = nullptr;
    std::vector<std::unique_ptr<ContactCapture>> captures_;
    std::array<int, kSimCount> captureIndex_{};
    std::array<SnowSim, kSimCount> sims_{SnowSim("a", 0), SnowSim("b", 1)};
    PassCounts passesRun_;
};

} // namespace snowcap
