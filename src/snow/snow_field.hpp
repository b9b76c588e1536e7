#pragma once
// The snow field — BP_FoliageInteraction_snow's counterpart: owns the contact captures and the
// sims (A, B, ... one per Settings::sims entry, at most kMaxSims), drives a step, and clears on
// reset. Sims whose region and resolution match share one capture: a step captures once per
// distinct capture and accumulates once per sim. It also owns the test-bed switches that span the
// sims: following regions (sim.X.region, each step before the capture), snow.quality (applied
// through effectiveSettings; "off" allocates and runs nothing) and snow.idle_skip.

#include "core/settings.hpp"
#include "gpu/shader_library.hpp"
#include "gpu/timers.hpp"
#include "snow/contact_capture.hpp"
#include "snow/snow_sim.hpp"
#include "snow/world_pager.hpp"

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

// The region a sim covers, from the settings (where a following region starts).
Region simRegion(const Settings& settings, int simIndex);
CaptureKey simCaptureKey(const Settings& settings, int simIndex);

class SnowField {
public:
    static std::variant<std::unique_ptr<SnowField>, std::string>
    create(const Settings& settings, gpu::ShaderLibrary& shaders);

    // Live settings change, the number of sims included; on failure nothing changes and the
    // reason is returned.
    std::optional<std::string> applySettings(const Settings& settings);

    // capture (once per distinct capture) -> accumulate (per sim). The frame passes its
    // prepared batch (shared with its other deformer passes); the span form prepares one of
    // the field's own.
    void step(DeformerBatch& deformers, double dtSeconds, gpu::PassTimer* timer = nullptr);
    void step(std::span<const DeformerInstance> deformers, double dtSeconds,
              gpu::PassTimer* timer = nullptr);
    void reset();

    // The settings as given (what an editor should start from) and as run (the quality rung
    // applied, core/quality.hpp).
    const Settings& settings() const { return settings_; }
    const Settings& effectiveSettings() const { return effective_; }
    // False with snow.quality = "off": no capture, no sim texture, no pass.
    bool enabled() const { return enabled_; }
    // Every snow texture the field holds: captures and sim buffers.
    std::size_t bytes() const;
    // Steps on which a sim's passes were skipped because it was idle (snow.idle_skip).
    long long idleSteps(int simIndex) const { return idleSteps_[simIndex]; }
    // An upper bound on every texel of the sim's buffer (R): 1 after contact, decaying with
    // the step factors; exactly 0 once the half-safe zero floor must have cleared everything.
    double healBound(int simIndex) const { return healBound_[simIndex]; }
    // How many sims the field runs: Settings::sims.size() of the settings last applied.
    int simCount() const { return static_cast<int>(sims_.size()); }
    SnowSim& sim(int index) { return sims_[index]; }
    const SnowSim& sim(int index) const { return sims_[index]; }
    const ContactCapture& captureOf(int simIndex) const {
        return *captures_[captureIndex_[simIndex]];
    }
    int captureCount() const { return static_cast<int>(captures_.size()); }
    const ContactCapture& capture(int index) const { return *captures_[index]; }
    const PassCounts& passesRun() const { return passesRun_; }
    // sim.X.persistence = "world": the sim's pager and tile store; null for "window".
    const WorldPager* world(int simIndex) const { return worlds_[simIndex].get(); }
    WorldPager* world(int simIndex) { return worlds_[simIndex].get(); }
    // After a world store was filled from outside (a world file): every such sim's window
    // replaces its texels with the store's, aged to now (src/snow/world_field.cpp).
    void restoreWorldWindows();

private:
    SnowField(gpu::ShaderLibrary& shaders) : shaders_(shaders) {}

    // Finds, reuses (moving it if only the centre differs) or creates the capture for each
    // sim's current region.
    void assignCaptures();
    // Drops the sims past `count`, or adds the missing ones (unconfigured).
    void resizeSims(int count);
    CaptureKey currentKey(int simIndex) const;
    // Follow modes: moves each following sim towards its deformer; true per sim that moved.
    std::array<bool, kMaxSims> followDeformers(std::span<const DeformerInstance> deformers);
    void updateHealBound(int simIndex, bool contact);
    // sim.X.persistence = "world" (src/snow/world_field.cpp): validation, the pagers after a
    // settings change, a move with paging, and the pagers' part of a step.
    static std::optional<std::string> worldSettingsError(const Settings& settings);
    std::optional<std::string> configureWorlds();
    void moveRegion(int simIndex, glm::dvec2 next, const gpu::ShaderProgram& shift);
    void worldsAfterStep();

    gpu::ShaderLibrary& shaders_;
    Settings settings_;
    Settings effective_;
    bool enabled_ = true;
    const gpu::ShaderProgram* captureProgram_ = nullptr;
    const gpu::ShaderProgram* shiftProgram_[2] = {nullptr, nullptr}; // [bilinear]
    // Per sim, [0, simCount()); the arrays hold kMaxSims so a live change of the count moves
    // nothing.
    std::array<glm::dvec2, kMaxSims> centres_{}; // where each region is now
    std::array<double, kMaxSims> healBound_{};
    // rgba16f: steps still to run after R has healed, until every contact-type tag has lapsed
    // (accumulate.frag's distance transform drops a tag reach + 1 steps after its print).
    std::array<int, kMaxSims> tagStepsLeft_{};
    std::array<long long, kMaxSims> idleSteps_{};
    std::vector<std::unique_ptr<ContactCapture>> captures_;
    std::array<int, kMaxSims> captureIndex_{};
    std::vector<SnowSim> sims_; // reserved for kMaxSims: a reference to a sim stays valid
    PassCounts passesRun_;
    std::array<std::unique_ptr<WorldPager>, kMaxSims> worlds_;
    std::optional<HalfRounding> halfStore_; // detected once a sim needs it
    DeformerBatch ownBatch_;                // step(span): instances no frame prepared
};

} // namespace snowcap
