#pragma once
// The snow field — BP_FoliageInteraction_snow's counterpart: owns the contact captures and the
// sims (A, B, ... one per Settings::sims entry, at most kMaxSims), drives a step, and clears on
// reset. Sims whose region and resolution match share one capture: a step captures once per
// distinct capture and accumulates once per capture (one output per sim). It also owns the
// test-bed switches that span the sims: following regions (sim.X.region, each step before the
// capture), snow.quality (applied through effectiveSettings; "off" allocates and runs nothing)
// and snow.idle_skip.

#include "core/settings.hpp"
#include "gpu/pass_record.hpp"
#include "gpu/shader_library.hpp"
#include "gpu/timers.hpp"
#include "snow/contact_capture.hpp"
#include "snow/ground_texture.hpp"
#include "snow/sim_window.hpp"
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

class SnowpackSim; // snow/snowpack_sim.hpp

struct PassCounts {
    long long capture = 0;
    long long accumulate = 0;        // passes: one per capture whose sims run
    long long accumulateOutputs = 0; // sim steps those passes wrote (one output per sim)
};

// One window of a sim (docs/world.md, section 6): where it is, its size, whom it follows.
struct ObserverWindow {
    glm::dvec2 centreCm{0.0};
    double sideCm = 0.0;
    int resolution = 0;
    int deformer = -1; // the observer: its index among the scenario's deformers; -1: none
};

// The region a sim covers, from the settings (where a following region starts).
Region simRegion(const Settings& settings, int simIndex);
CaptureKey simCaptureKey(const Settings& settings, int simIndex);

// One step as passes of the frame's list (gpu/pass_record.hpp), in the order they run: follow
// (the windows that move, with their paging), capture (once per distinct capture a running
// window needs), idle (the skipped windows' clocks), accumulate (per capture and format), sync
// (overlapping windows), world (the pagers' part). A pass idle skip leaves out is not in it.
struct StepPlan {
    std::vector<gpu::PassRecord> passes;
    // Window 0 of sim i (what the frame draws) is written by this step: its blurred copy is due.
    std::array<bool, kMaxSims> writes{};
};

class SnowField {
public:
    // `instanceNames`: the names of the step's deformer instances in order (see
    // setInstanceNames).
    static std::variant<std::unique_ptr<SnowField>, std::string>
    create(const Settings& settings, gpu::ShaderLibrary& shaders,
           std::vector<std::string> instanceNames = {});
    ~SnowField(); // snow_field_snowpack.cpp: SnowpackSim is complete there

    // Live settings change, the number of sims included; on failure nothing changes and the
    // reason is returned.
    std::optional<std::string> applySettings(const Settings& settings);
    // The names of the instances a step is given, in their order (the lab's deformers: the
    // [[deformer]] list, the crowds' members, the bodies, the vehicles' parts): snow.follow
    // names any of them. Empty (the default): it names a [[deformer]]. Takes effect at the
    // next applySettings.
    void setInstanceNames(std::vector<std::string> names) { instanceNames_ = std::move(names); }

    // capture (once per distinct capture) -> accumulate (once per distinct capture, one output
    // per sim that runs).
    // The frame passes its prepared batch (shared with its other deformer passes); the span form
    // prepares one of the field's own.
    void step(DeformerBatch& deformers, double dtSeconds, gpu::PassTimer* timer = nullptr);
    void step(std::span<const DeformerInstance> deformers, double dtSeconds,
              gpu::PassTimer* timer = nullptr);
    void reset();
    // The step's setup, before its passes are planned: each following window takes the place
    // it moves to towards its observer among `deformers` (the step's instances), and the
    // captures are assigned for where the windows will be (a capture may be made or moved).
    // The windows' texels move in the step's follow pass.
    void advance(std::span<const DeformerInstance> deformers);
    // Plans the step from the field as advance() left it: the follow pass for the windows it
    // moved, what runs and what idles. Planning changes nothing (so printing the list changes
    // nothing); the passes do the GL work. Run them (gpu::runPasses, in the frame's list) before
    // anything else advances, plans or steps the field. `deformers` are the batch's instances
    // as it will be prepared when the passes run.
    StepPlan planStep(DeformerBatch& batch, std::span<const DeformerInstance> deformers,
                      double dtSeconds);

    // The settings as given (what an editor should start from) and as run (the quality rung
    // applied, core/quality.hpp).
    const Settings& settings() const { return settings_; }
    const Settings& effectiveSettings() const { return effective_; }
    // False with snow.quality = "off": no capture, no sim texture, no pass.
    bool enabled() const { return enabled_; }
    // Every snow texture the field holds: captures and sim buffers.
    std::size_t bytes() const;
    // Steps on which a sim's passes were skipped because it was idle (snow.idle_skip).
    long long idleSteps(int simIndex) const { return front(simIndex).idleSteps; }
    // The bound on every texel of the sim's buffer (SimWindow::healBound).
    double healBound(int simIndex) const { return front(simIndex).healBound; }
    // How many sims the field runs: Settings::sims.size() of the settings last applied.
    int simCount() const { return static_cast<int>(windows_.size()); }
    // Sim i's region once the step planned last has run (its window 0 where follow takes it).
    Region plannedRegion(int simIndex) const {
        Region region = sim(simIndex).region();
        region.centreCm = front(simIndex).centre;
        return region;
    }
    // Sim i: its window 0's buffer (what the frame draws).
    SnowSim& sim(int index) { return windows_[index].front()->sim; }
    const SnowSim& sim(int index) const { return front(index).sim; }
    const ContactCapture& captureOf(int simIndex) const {
        return *captures_[front(simIndex).capture];
    }
    int captureCount() const { return static_cast<int>(captures_.size()); }
    const ContactCapture& capture(int index) const { return *captures_[index]; }
    const PassCounts& passesRun() const { return passesRun_; }
    // sim.X.persistence = "world": the sim's pager and tile store; null for "window".
    const WorldPager* world(int simIndex) const { return worlds_[simIndex].get(); }
    WorldPager* world(int simIndex) { return worlds_[simIndex].get(); }
    // sim.X.model = "snowpack": the sim's snowpack state and passes (src/snow/snowpack_sim.hpp);
    // null for a decay sim.
    const SnowpackSim* snowpack(int simIndex) const { return snowpacks_[simIndex].get(); }
    SnowpackSim* snowpack(int simIndex) { return snowpacks_[simIndex].get(); }
    // [ground] kind = "texture": the texture every sim's surface takes the ground's albedo from
    // (snow/ground_texture.hpp); null for every other kind.
    const GroundTexture* groundTexture() const { return ground_.get(); }

    // After a world store was filled from outside (a world file): every such sim's windows
    // replace their texels with the store's, aged to now (src/snow/world_field.cpp).
    void restoreWorldWindows();

    // Observers (snow.follow, src/snow/snow_field_windows.cpp): a follow_snapped sim keeps one
    // window per observer, every other sim one (src/snow/sim_window.hpp). Window 0 is sim(i)
    // (what the frame draws); every window has its own buffer and capture at the sim's
    // resolution and region size, and they share the sim's world store. Where windows overlap
    // they hold the same texels.
    int windowCount(int simIndex) const { return static_cast<int>(windows_[simIndex].size()); }
    const SimWindow& simWindow(int simIndex, int w) const { return *windows_[simIndex][w]; }
    const SnowSim& window(int simIndex, int w) const { return simWindow(simIndex, w).sim; }
    double windowHealBound(int simIndex, int w) const { return simWindow(simIndex, w).healBound; }
    // The windows `settings` gives sim i with `observers` observers: one each for an r16f
    // follow_snapped decay sim, else one, on the first observer (a naive follow resamples and
    // rgba16f's tags spread between texels, so neither could share texels exactly between
    // windows; a snowpack's state is one window's, its budget counting what crosses its border).
    static int windowsWanted(const Settings& settings, int simIndex, int observers);
    // Every window of the sim, window 0 first (the World panel's map).
    std::vector<ObserverWindow> windows(int simIndex) const;
    // Puts window w of sim i at `centreCm` without moving its texels, its capture with it: a
    // networked client places its windows where the server's stand and takes their texels
    // from the server (src/net/sync.cpp).
    void placeWindow(int simIndex, int w, glm::dvec2 centreCm);
    // The observers' deformer indices, as resolved from the settings last applied.
    const std::vector<int>& observers() const { return observers_; }

    // [terrain] (docs/terrain.md): the ground the captures of capture_reference = "terrain"
    // sims follow; null or flat: every capture is the flat one. The
    // captures are made again for it at once, and the snowpack sims start again on it (their
    // slump and initial cover follow its slopes). Fails if a snowpack sim cannot.
    std::optional<std::string> setTerrain(std::shared_ptr<const HeightField> terrain);
    const std::shared_ptr<const HeightField>& terrain() const { return terrain_; }
    // Sim i's capture key with its region centred on `centreCm`, its terrain included.
    CaptureKey captureKey(int simIndex, glm::dvec2 centreCm) const;

private:
    SnowField(gpu::ShaderLibrary& shaders); // snow_field_snowpack.cpp (SnowpackSim complete)

    // Finds, reuses (moving it if only the centre differs) or creates the capture for each
    // sim's current region.
    void assignCaptures();
    // Drops the sims past `count`, or adds the missing ones (window 0 only, unconfigured).
    void resizeSims(int count);
    const SimWindow& front(int simIndex) const { return *windows_[simIndex].front(); }
    SimWindow& windowAt(int simIndex, int w) { return *windows_[simIndex][w]; }
    // Per sim and window.
    using Moved = std::array<std::array<bool, kMaxObservers>, kMaxSims>;
    // Follow modes: where each following window moves towards its observer.
    struct Move {
        int sim = 0, window = 0;
        glm::dvec2 next{0.0};
    };
    std::vector<Move> plannedMoves(std::span<const DeformerInstance> deformers) const;
    // The moves advance() made that no follow pass has run yet: each window whose place is not
    // its buffer's.
    std::vector<Move> pendingMoves() const;
    // Lists a step's passes (snow_field_passes.cpp).
    friend class StepPlanner;
    void moveFollowing(const Move& move);
    // sim.X.persistence = "world" (src/snow/world_field.cpp): validation, the pagers after a
    // settings change, a move with paging (the pagers' part of a step is the world pass,
    // snow_field_passes.cpp).
    static std::optional<std::string> worldSettingsError(const Settings& settings);
    std::optional<std::string> configureWorlds();

    // ---- snowpack sims (src/snow/snow_field_snowpack.cpp) ------------------------------------
    // The hook of the snowpack model into the field: what a snowpack sim cannot do yet (one
    // line) and its configuration after a settings change. Its step is the snowpack.X pass record
    // of planStep (snow_field_passes.cpp), after the accumulate passes, which skip it.
    static std::optional<std::string> snowpackSettingsError(const Settings& settings);
    std::optional<std::string> configureSnowpacks();
    bool isSnowpack(int simIndex) const {
        return effective_.sims[simIndex].model == SimModel::Snowpack;
    }

    // Observer windows (src/snow/snow_field_windows.cpp).
    // Resolves snow.follow to instance indices among `names` (setInstanceNames; empty: the
    // [[deformer]] list), or the one-line reason it cannot.
    static std::variant<std::vector<int>, std::string>
    resolveObservers(const Settings& settings, std::span<const std::string> names);
    // Adds, drops and configures every sim's windows (window 0 included).
    std::optional<std::string> configureWindows();
    // Points every window of each sim at the sim's world store (null: none).
    void linkWorlds();
    // The world texels window w of sim i covers, on the sim's grid.
    TexelRect windowRect(int simIndex, int w) const;
    // The sim's other windows as they stand now.
    std::vector<TexelRect> otherWindows(int simIndex, int w) const;
    // Moves one window (paging where the sim keeps a world; copying the texels that enter
    // from another window of the sim).
    void moveWindow(int simIndex, int w, glm::dvec2 next, const gpu::ShaderProgram& shift);
    // Window w's texels: where a window of `sources` covers them copied from it, elsewhere
    // taken from the store (if the sim keeps one).
    void fillWindow(int simIndex, int w, const std::vector<int>& sources);
    // Fills the windows configureWindows made.
    void fillNewWindows();
    // Copies `rect` (world texels) from window `from` into window `to` of sim i, exactly.
    void copyBetweenWindows(int simIndex, int from, int to, const TexelRect& rect);
    // After a step's accumulate: where windows overlap, the lowest window owns the texel and
    // the others take its value (ran: which windows ran their pass).
    void syncOverlaps(int simIndex, const std::array<bool, kMaxObservers>& ran);

    gpu::ShaderLibrary& shaders_;
    Settings settings_;
    Settings effective_;
    bool enabled_ = true;
    const gpu::ShaderProgram* captureProgram_ = nullptr;
    const gpu::ShaderProgram* captureTerrainProgram_ = nullptr; // each texel's own camera
    std::shared_ptr<const HeightField> terrain_;
    const gpu::ShaderProgram* shiftProgram_[2] = {nullptr, nullptr}; // [bilinear]
    // Per sim, [0, simCount()): its windows, window 0 first (each held by pointer, so a
    // reference to a window or its sim stays valid while it exists).
    std::vector<std::vector<std::unique_ptr<SimWindow>>> windows_;
    std::vector<std::unique_ptr<ContactCapture>> captures_;
    PassCounts passesRun_;
    // The arrays hold kMaxSims so a live change of the count moves nothing.
    std::array<std::unique_ptr<WorldPager>, kMaxSims> worlds_;     // linked from the windows
    std::array<std::unique_ptr<SnowpackSim>, kMaxSims> snowpacks_; // model = "snowpack" only
    std::vector<int> observers_{0};               // deformer index of each observer (snow.follow)
    std::vector<std::string> instanceNames_;      // setInstanceNames: what snow.follow can name
    std::optional<HalfRounding> halfStore_;       // detected once a sim needs it
    DeformerBatch ownBatch_;                      // step(span): instances no frame prepared
    std::shared_ptr<const GroundTexture> ground_; // kind = "texture" only
};

} // namespace snowcap
