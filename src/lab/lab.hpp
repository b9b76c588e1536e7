#pragma once
// The lab behind the viewer (and `render --ui`): a scenario's settings, its session (field,
// renderer, deformers), the playback clock and the edits the panels make. Edits that fail
// (a bad mesh, a shader that does not build, a missing scenario) return one line and change
// nothing.

#include "lab/session.hpp"
#include "gpu/shader_library.hpp"
#include "gpu/timers.hpp"

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

class Lab {
public:
    // Loads the scenario (a name under config/scenarios/ or a path) with the overrides and
    // builds everything in the current GL context.
    static std::variant<std::unique_ptr<Lab>, std::string>
    create(const std::string& scenario, const std::vector<std::string>& overrides,
           const std::string& glRenderer);
    // The same from settings already loaded (and adjusted) by the caller.
    static std::variant<std::unique_ptr<Lab>, std::string>
    create(const Settings& settings, const std::string& scenario,
           const std::vector<std::string>& overrides, const std::string& glRenderer);

    const Settings& settings() const { return session_.field->settings(); }
    const Settings& scenarioSettings() const { return scenarioSettings_; } // as loaded
    const std::string& scenario() const { return scenario_; }
    SnowField& field() { return *session_.field; }
    const SnowField& field() const { return *session_.field; }
    SceneRenderer& renderer() { return *session_.renderer; }
    gpu::ShaderLibrary& shaders() { return *shaders_; }
    gpu::PassTimer& timer() { return timer_; }

    // ---- playback ------------------------------------------------------------------------
    double timeS() const { return timeS_; }
    long long steps() const { return steps_; }
    double durationS() const; // the scenario's length (run.duration_s or frames / fps)
    double fixedDtS() const { return 1.0 / settings().run.fps; }
    // One step of dt seconds; wraps to 0 at the end when `loop` (the buffers keep their prints).
    void advance(double dtS, bool loop);
    // Time back to 0 and both sims cleared.
    void restart();
    // The headless renderer's loop: one step of dtS ending at `timeS`; returns the deformers
    // used (where they are at `timeS`).
    const std::vector<DeformerInstance>& stepAt(double timeS, double dtS, gpu::PassTimer* timer);
    // Restart, then fixed steps up to `timeS` (the scrub bar: what the scenario shows then).
    void simulateTo(double timeS);

    // Moves the clock to `timeS` without stepping and returns the deformers there (the
    // headless renderer's own fixed-step loop).
    const std::vector<DeformerInstance>& instancesAt(double timeS) {
        timeS_ = timeS;
        return instances();
    }
    // Deformers where they are now; hidden ones have no mesh (they neither draw nor press).
    const std::vector<DeformerInstance>& instances();
    const std::vector<Deformer>& deformers() const { return session_.deformers.deformers(); }
    bool visible(int index) const { return visible_[index]; }
    void setVisible(int index, bool on) { visible_[index] = on; }
    // WASD: the player deformer's input for the next step (world XY, length <= 1).
    bool hasPlayer() const { return session_.deformers.hasPlayer(); }
    void drivePlayer(glm::vec2 inputDir, double dtS);
    // The player's position, else the deformer the region follows (snow.follow, else the
    // first), if any.
    std::optional<glm::vec3> followedPositionCm() const;

    // ---- edits ---------------------------------------------------------------------------
    // Settings for the field (sims, snow, capture, look); with `deformersChanged` the deformers
    // are rebuilt (meshes imported again) from edited.deformers first.
    std::optional<std::string> apply(const Settings& edited, bool deformersChanged = false);
    // Adds a deformer from a mesh file (or "sphere" / "box" / "capsule") standing at the
    // region centre.
    std::optional<std::string> addDeformer(const std::string& pathOrShape);
    void removeDeformer(int index);
    std::optional<std::string> loadScenario(const std::string& scenario);

private:
    Lab() = default;
    std::optional<std::string> rebuildDeformers(const Settings& settings);

    std::unique_ptr<gpu::ShaderLibrary> shaders_;
    Session session_;
    std::string scenario_;
    std::vector<std::string> overrides_;
    Settings scenarioSettings_;
    gpu::PassTimer timer_;
    std::vector<bool> visible_;
    std::vector<DeformerInstance> visibleInstances_;
    double timeS_ = 0.0;
    long long steps_ = 0;
};

} // namespace snowcap
