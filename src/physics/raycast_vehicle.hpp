#pragma once
// Inside the physics module only (Bullet's headers): one [[vehicle]] as Bullet's raycast
// vehicle (docs/physics.md, section 4): a box chassis carrying the whole mass, four wheels on
// suspension rays mounted on its bottom face, its path's controller before each step and its
// measures after it (the distance, and the sinkage of each pass).

#include "core/settings.hpp"
#include "physics/vehicle_list.hpp"

#include <btBulletDynamicsCommon.h>
#include <functional>
#include <glm/vec2.hpp>
#include <memory>
#include <vector>

namespace snowcap {

// The snow's top (world z, cm) at a point (x, y cm): what a wheel about to roll there meets.
using SnowTopAt = std::function<double(glm::dvec2)>;

// A pass's sinkage sums: over the steps and the wheels in contact.
struct PassSinkage {
    double intoSnowSumCm = 0.0;     // the snow top ahead of the wheel minus its contact
    double belowSurfaceSumCm = 0.0; // surface_z_cm minus its contact
    long long samples = 0;
};

// One vehicle in the world: Bullet's parts, its path and what it has done since t = 0.
struct VehicleState {
    VehicleSettings settings;
    DrivePath path;
    std::unique_ptr<btCollisionShape> shape;
    std::unique_ptr<btRigidBody> chassis;
    std::unique_ptr<btVehicleRaycaster> raycaster;
    std::unique_ptr<btRaycastVehicle> vehicle;
    double progressS = 0.0; // the rear axle's arc length along the path
    double distanceCm = 0.0;
    double sinkageSumCm = 0.0; // surface_z_cm minus the contacts, every pass
    long long sinkageSamples = 0;
    std::vector<PassSinkage> passes; // one per lap (one for an open path)
    glm::dvec2 lastXYCm{0.0};

    explicit VehicleState(const VehicleSettings& s) : settings(s), path(s.waypointsCm, s.laps) {}
    // The pass the rear axle is on: its lap, within [0, laps).
    std::size_t passNow() const;
};

// A vehicle added to `world`, starting with its wheels on `startZCm` (plus the terrain's height,
// square to its slope: vehicleStartModel); its chassis' user index `userIndex`.
std::unique_ptr<VehicleState> addVehicle(const VehicleSettings& settings, btDynamicsWorld& world,
                                         int userIndex, double startZCm, double gravityCmS2,
                                         const HeightField* terrain = nullptr);
void removeVehicle(VehicleState& vehicle, btDynamicsWorld& world);

// The path's controller, before a step of h seconds: steering by pure pursuit, the engine
// holding the speed, the brakes at the end.
void driveVehicle(VehicleState& vehicle, double h);

// The player's controller (vehicle.player), before a step: the throttle input.y in [-1, 1]
// sets the speed to hold (speed_cm_s at full, back for negative) by the path controller's rate
// and limit; input.x steers the front wheels right up to max_steer_deg (Bullet's positive angle
// is left).
void drivePlayerVehicle(VehicleState& vehicle, glm::vec2 input);

// After a step: the wheels' poses, the distance and the pass's sinkage (below the undisturbed
// snow top `surfaceAt` gives at each wheel's contact, and into the snow `topAt` gives ahead of
// each wheel).
void measureVehicle(VehicleState& vehicle, const SnowTopAt& surfaceAt, const SnowTopAt& topAt);

} // namespace snowcap
