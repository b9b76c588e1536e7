#pragma once
// The lab behind the viewer (and `render --ui`): a scenario's settings, its session (field,
// renderer, deformers), the playback clock and the edits the panels make. Edits that fail
// (a bad mesh, a shader that does not build, a missing scenario) return one line and change
// nothing.

#include "gpu/shader_library.hpp"
#include "gpu/timers.hpp"
#include "lab/session.hpp"
#include "render/frame.hpp"
#include "snow/snowpack_readback.hpp"

#include <functional>
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
    // Whether frames are timed (on by default; `render` times only with --ui, where the
    // Timings panel shows them). Timing runs the same passes in the same order.
    void setTiming(bool on) { timing_ = on; }

    // ---- playback: one step primitive ---------------------------------------------------
    double timeS() const { return timeS_; }
    long long steps() const { return steps_; }
    double durationS() const; // the scenario's length (run.duration_s or frames / fps)
    double fixedDtS() const { return 1.0 / settings().run.fps; }
    // The one way the lab moves: one step of dtS that ends at `endS` (the clock moves there,
    // the physics world steps there and poses its bodies, the deformers are posed there and
    // press), then the frame's views and UI, all through runFrame (render/frame.hpp). Callers that
    // count fixed steps pass (i + 1) * dt, so the clock never drifts from the scenario's timeline
    // by accumulated rounding.
    void stepTo(double endS, double dtS, FrameDraw draw = {});
    // stepTo(now + dtS); with `loop`, a step that would pass the end starts over at 0 first
    // (the buffers keep their prints).
    void step(double dtS, bool loop, FrameDraw draw = {});
    // A networked client's lab (net/sync.hpp's Replica) takes the server's steps instead of
    // running its own: the clock stands at the end of the server's step `steps` (what reads the
    // lab's time, the probe curves and the deformers' places, follows the session).
    void standAt(double timeS, long long steps) {
        timeS_ = timeS;
        steps_ = steps;
    }
    // A frame without a step: the views and UI of the lab as it stands (paused).
    void draw(FrameDraw draw);
    // Time back to 0 and both sims cleared; the player vehicle's drive is forgotten unless
    // `keepDrive` (then it drives as it was driven).
    void restart(bool keepDrive = false);
    // Restart, then fixed steps up to `timeS` (the scrub bar: what the scenario shows then).
    void simulateTo(double timeS);

    // ---- physics ([[body]], docs/physics.md) -------------------------------------------------
    // The physics step to `endS` as a pass of its own ("physics", timed apart from the snow's
    // passes): Bullet on the CPU, then the bodies' poses into their deformers. It runs before
    // the frame is planned, because the frame's capture and idle skip read where the bodies
    // are. None without bodies.
    std::optional<gpu::PassRecord> physicsPass(double endS);
    const PhysicsWorld* physics() const { return session_.physics.get(); }
    // stats.json's "physics"; none without bodies.
    std::optional<PhysicsReport> physicsReport() const;

    // Deformers where they are at the lab's time; hidden ones have no mesh (they neither draw
    // nor press). Bodies stand where the physics world last put them, at any time asked.
    // Reading them never moves the clock.
    const std::vector<DeformerInstance>& instances() { return instancesAt(timeS_); }
    // The same at any time (the clock stays where it is).
    const std::vector<DeformerInstance>& instancesAt(double timeS);
    const std::vector<Deformer>& deformers() const { return session_.deformers.deformers(); }
    const FoliageSet& foliage() const { return session_.foliage; }
    bool visible(int index) const { return visible_[index]; }
    void setVisible(int index, bool on) { visible_[index] = on; }
    // WASD: the player deformer's input for the next step (world XY, length <= 1).
    bool hasPlayer() const { return session_.deformers.hasPlayer(); }
    void drivePlayer(glm::vec2 inputDir, double dtS);
    // Jumps the player to (x, y) cm (its height stays): one drive of the whole distance at
    // once, so it also turns to face the jump. No-op without a player.
    void teleportPlayer(glm::dvec2 toCm);
    // The player vehicle (vehicle.player): WASD as steer right (x) and throttle (y) in [-1, 1],
    // held for the next steps.
    bool hasPlayerVehicle() const;
    void driveVehicle(glm::vec2 steerThrottle);
    // Throws `body` into the running scenario: a [[body]] entry launched now (launch_s = the
    // lab's time, count 1, its name made unique), so a restart, a scrub or a stats.json replays
    // it. One line, and nothing changed, if the world cannot take it.
    std::optional<std::string> throwBody(BodySettings body);
    // The player's position (a deformer, else the player vehicle), else the deformer the region
    // follows (snow.follow, else the first), if any.
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
    // apply() once a new [terrain] (if any) has been read: the deformers (draped and the
    // physics world's ground on `terrain`, null: the field's) and the field.
    std::optional<std::string> applyEdit(const Settings& edited, bool deformersChanged,
                                         std::shared_ptr<const HeightField> terrain = nullptr);
    Lab() = default;
    // `terrain` null: the field's; `newGround`: the physics world is built again on it even if
    // its keys are the same.
    std::optional<std::string>
    rebuildDeformers(const Settings& settings, std::shared_ptr<const HeightField> terrain = nullptr,
                     bool newGround = false);
    void applyBodyPoses(); // the physics world's poses into the body deformers
    // The snowpack support (docs/physics.md, section 2): before the physics steps up to
    // `endS`, the state the last frame's snow step left (read back after that frame, or now if
    // none is queued or the one queued lacks texels these steps can reach) becomes the
    // physics world's bearing surface; after the frame's snow step, the read of its state is
    // queued for the next frame (a frame of `dtS` more), over the window the bodies and
    // wheels can reach in it (PhysicsWorld::supportWindow).
    void feedSupport(double endS);
    void requestSupport(double dtS);

    std::unique_ptr<gpu::ShaderLibrary> shaders_;
    Session session_;
    std::string scenario_;
    std::vector<std::string> overrides_;
    Settings scenarioSettings_;
    gpu::PassTimer timer_;
    std::vector<bool> visible_;
    std::vector<DeformerInstance> visibleInstances_;
    std::string physicsSource_; // what session_.physics was made from (physicsText in lab.cpp)
    SnowpackReadback supportReadback_;
    double timeS_ = 0.0;
    long long steps_ = 0;
    bool timing_ = true;
};

} // namespace snowcap
