#pragma once
// The physics world (docs/physics.md): Bullet (Debian's libbullet-dev) steps the scenario's
// bodies and vehicles at a fixed rate on the sim clock. What holds them up is the ground under the
// snow, a static plane at surface_z_cm - depth_cm, and with a snowpack support sim
// (physics.support_sim) the snow's bearing surface over its region, a heightfield made from the
// state the lab hands it (setSupport); the snow drags on a body in proportion to how deep it is
// in it. Bullet stays behind this header (only src/physics/ sees its headers, and the
// layering check keeps it so); the world works in metres inside and in cm at its edges.
// Deterministic: the same bodies stepped to the same times give the same poses, bit for bit
// (one thread, fixed steps, a fresh world on reset).

#include "core/settings.hpp"
#include "core/support_law.hpp"
#include "physics/body_list.hpp"
#include "physics/support_grid.hpp"
#include "physics/vehicle_list.hpp"

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// One pass of a vehicle (a lap; an open path is one): its wheels' sinkage, the mean over the
// steps and the wheels in contact.
struct PassReport {
    double sinkageCm = 0.0;      // into the snow it meets: the snow's top one wheel radius
                                 // ahead of the contact, minus the contact
    double belowSurfaceCm = 0.0; // the contact below the untouched top (surface_z_cm)
    long long samples = 0;       // wheel contacts counted
};

// One vehicle's part of stats.json's "physics", since t = 0.
struct VehicleReport {
    std::string name;
    double distanceCm = 0.0;        // the chassis' path over the ground (xy), step by step
    double meanSinkageCm = 0.0;     // how far its wheels' contacts lie below the snow top, mean
                                    // over the steps and wheels in contact
    std::vector<PassReport> passes; // one per lap (one for an open path)
};

// stats.json's "physics".
struct PhysicsReport {
    int bodies = 0;
    int vehicles = 0;
    long long steps = 0;              // fixed steps run (every one, across resets)
    double stepMsMean = 0.0;          // wall time of Bullet's step alone, per step (steady clock)
    int restingBodies = 0;            // slower than 1 cm/s and 0.1 rad/s (or asleep) now
    std::string support = "ground";   // what holds them up: "ground" or "sim.X"
    long long supportUpdates = 0;     // snowpack states the support took
    long long supportReads = 0;       // the lab's readbacks of the support sim's state
    long long supportReadsWaited = 0; // ... of which the GPU had not finished when mapped
    double supportReadbackBytesMean = 0.0;     // bytes a read, the mean (the window's texels x 8)
    std::vector<VehicleReport> vehicleReports; // one per vehicle, in the scenario's order
};

// The snow's drag on a body for one step: the factor its velocity and spin keep, exp(-k d h)
// with k = snow_drag_per_cm, d its depth in the snow (cm, clamped to [0, depth_cm]) and h the
// step (s). The exact solution of dv/dt = -k d v over the step, so any k is stable.
double snowDragFactor(double dragPerCm, double depthInSnowCm, double stepS);

// PhysicsWorld::supportWindow's fixed margin about what can touch the support: Bullet's contact
// threshold (2 cm) and the heightfield vertex it takes on each side of a box, with room.
constexpr int kSupportPadTexels = 4;
constexpr double kSupportPadCm = 5.0;

class PhysicsWorld {
public:
    // The bodies and vehicles `settings` places, on the ground under its snow; one line naming
    // the key on failure (a body starting inside another or in the ground, a vehicle's keys
    // that break its rules), and nothing is kept.
    static std::variant<std::unique_ptr<PhysicsWorld>, std::string>
    create(const Settings& settings);
    // The same, with settings.bodies as placeBodies placed them (a mesh body's file imported
    // once, by the caller, for its drawn mesh and its hull alike).
    // On a `terrain` that is not flat the ground is the terrain (a Bullet heightfield of its
    // samples, surface_z_cm - depth_cm + its height), and the snow's top follows it.
    static std::variant<std::unique_ptr<PhysicsWorld>, std::string>
    create(const Settings& settings, std::vector<BodySpec> bodies,
           std::shared_ptr<const HeightField> terrain = nullptr);
    ~PhysicsWorld();
    PhysicsWorld(const PhysicsWorld&) = delete;
    PhysicsWorld& operator=(const PhysicsWorld&) = delete;

    // Runs the fixed steps up to `timeS` (step n ends at n / step_hz; a frame runs those whose
    // end it reaches). A time before the world's starts it over from t = 0 first. Returns how
    // many steps ran.
    int stepTo(double timeS);
    void reset(); // back to t = 0, every body at its start
    double timeS() const;
    double stepS() const;

    std::size_t bodyCount() const;
    std::size_t vehicleCount() const;
    // Every pose the world drives, in the order of the deformers that press for them: each
    // body, then each vehicle's chassis and its four wheels (physics/vehicle_list.hpp).
    std::size_t poseCount() const;
    glm::mat4 poseOf(std::size_t pose) const; // cm, as a deformer's model matrix
    glm::vec3 vehiclePositionCm(std::size_t vehicle) const;
    double vehicleSpeedCmS(std::size_t vehicle) const; // along its heading
    const std::vector<BodySpec>& bodies() const;
    glm::mat4 modelOf(std::size_t body) const; // cm, as a deformer's model matrix
    glm::vec3 positionCm(std::size_t body) const;
    glm::vec3 velocityCmS(std::size_t body) const;
    bool resting(std::size_t body) const;  // false before its launch_s
    bool launched(std::size_t body) const; // in the world yet (launch_s reached)

    // The player vehicle (vehicle.player), driven by input instead of its path: x steers right,
    // y is the throttle, each in [-1, 1], held until changed. Each step's input is logged, so
    // stepping the world again from 0 drives the same; a new world can be given an old one's log.
    std::optional<std::size_t> playerVehicle() const;
    void setDriverInput(glm::vec2 steerThrottle);
    const std::vector<glm::vec2>& driverLog() const;
    void setDriverLog(std::vector<glm::vec2> log);
    // The plane the bodies stand on: surface_z_cm - depth_cm (the support sim's depth_cm).
    double groundZCm() const;

    // ---- the snowpack support (docs/physics.md, section 2) ----------------------------------
    // What holds the bodies up: plan.sim >= 0 names the snowpack sim whose state setSupport
    // takes (the lab reads it back from the GPU after each frame's snow step).
    const SupportPlan& supportPlan() const;
    // The bearing surface from a state of the support sim, or a window of it, for the steps
    // from now on (kept across resets). No-op on the ground.
    void setSupport(const SupportColumns& columns);
    // The texels of the support sim's `region` that the steps from now up to `untilS` can
    // reach: the box around every body (one launching by then at its start) and every
    // vehicle's chassis and suspension rays, grown by kSupportPadTexels texels, kSupportPadCm
    // and (2 v + g t) t for the fastest point's speed v over the t to come (a body struck by
    // the fastest one, or falling), cut to the region; empty when nothing is over it. The
    // whole region while the support has taken no whole state since the world was built (the
    // first, and after each reset), when `region` is not the heights' region, and when
    // `untilS` is before now (stepTo starts over). On the ground: empty.
    SupportWindow supportWindow(const Region& region, double untilS) const;
    // The surface that holds a body at (x, y): the heightfield's vertex there, else the ground.
    double supportZCmAt(glm::dvec2 xyCm) const;

    PhysicsReport report() const;

private:
    struct Impl;
    explicit PhysicsWorld(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace snowcap
