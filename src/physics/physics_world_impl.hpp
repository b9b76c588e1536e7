#pragma once
// PhysicsWorld's state (physics/physics_world.hpp), private to the physics module: the bodies'
// specs and settings, the Bullet world built from them, the vehicles and the snowpack support.
// physics_world.cpp builds and steps it; body_overlap.cpp finds what starts inside something;
// physics_world_support.cpp holds what the support reads (the window around what can touch the
// snow) and how it bears.

#include "physics/physics_world.hpp"
#include "physics/raycast_vehicle.hpp"
#include "physics/snow_support.hpp"

#include <algorithm>
#include <btBulletDynamicsCommon.h>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace snowcap {

struct PhysicsWorld::Impl {
    std::vector<BodySpec> specs;
    PhysicsSettings settings;
    double surfaceZCm = 0.0;
    SupportPlan plan; // what holds the bodies up: the ground, or a snowpack sim's heightfield
    // The snowpack support (plan.sim >= 0): it outlives the Bullet world, keeping the heights
    // of the last state it took across resets.
    std::unique_ptr<SnowSupport> support;
    // The deepest print the support sim's ground takes (groundPrintMaxCm of [ground]; 0 with
    // no support or a ground that takes none). Above 0 the plane lies that far below the ground
    // so a body can sit in a print, and a frame of boxes around the region (`frame`) is the
    // ground at its own height outside it.
    float groundPrintMaxCm = 0.0f;
    // No whole state taken since the world was built: the next read is of the whole region.
    bool supportWantsWhole = true;

    // The Bullet world; rebuilt whole on reset, so a restart is a fresh world (no warm-started
    // contacts or solver state carried over).
    std::unique_ptr<btDefaultCollisionConfiguration> configuration;
    std::unique_ptr<btCollisionDispatcher> dispatcher;
    std::unique_ptr<btDbvtBroadphase> broadphase;
    std::unique_ptr<btSequentialImpulseConstraintSolver> solver;
    std::unique_ptr<btDiscreteDynamicsWorld> world;
    std::unique_ptr<btCollisionShape> groundShape;
    std::unique_ptr<btRigidBody> ground;
    // The terrain ([terrain], not flat): the ground is a Bullet heightfield of its samples
    // (terrainHeightsM, rows turned south first as Bullet lays them), and a plane at its lowest
    // height holds what leaves its extent.
    std::shared_ptr<const HeightField> terrain;
    std::vector<float> terrainHeightsM;
    std::unique_ptr<btCollisionShape> floorShape;
    std::unique_ptr<btRigidBody> floor;
    std::vector<std::unique_ptr<btCollisionShape>> frameBoxes;
    std::unique_ptr<btCompoundShape> frameShape;
    std::unique_ptr<btRigidBody> frame;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    // Whether each body is in the world yet: one with launch_s > 0 waits outside it, at its start.
    std::vector<bool> launched;
    std::vector<VehicleSettings> vehicleSettings;
    std::vector<std::unique_ptr<VehicleState>> vehicles;
    // The player vehicle's input (x: steer right, y: throttle forward), one entry per step run
    // since t = 0: a world stepped again from 0 (a scrub back, or rebuilt after an edit) drives
    // as the player drove; past the log's end the current input is used and logged.
    std::vector<glm::vec2> driverLog;
    glm::vec2 driverInput{0.0f};

    long long step = 0;       // steps since t = 0
    long long stepsTotal = 0; // every step run, across resets
    double stepSecondsTotal = 0.0;

    ~Impl() { tearDown(); }

    double groundZCm() const { return plan.groundZCm; }
    bool onTerrain() const { return terrain && !terrain->flat(); }
    double terrainCm(glm::dvec2 xyCm) const {
        return onTerrain() ? terrain->heightCm(xyCm.x, xyCm.y) : 0.0;
    }
    // The undisturbed snow top at (x, y): surface_z_cm plus the terrain's height.
    double surfaceZCmAt(glm::dvec2 xyCm) const { return surfaceZCm + terrainCm(xyCm); }
    void buildTerrainGround(); // the heightfield and the floor beyond it
    // Where the plane lies: the ground, or the deepest print's bottom under a ground that takes
    // prints (the frame then holds the ground's height outside the region).
    double planeZCm() const { return plan.groundZCm - double(groundPrintMaxCm); }
    void buildFrame(); // the frame of boxes around the region (groundPrintMaxCm > 0)

    void tearDown();
    // A fresh world with every body at its start; the first overlap at the start, as one line.
    std::optional<std::string> build();
    // "body 'x'" or "vehicle 'x'" for a world index (bodies first, then the vehicles), and the
    // key that placed it.
    std::pair<std::string, std::string> describe(int index) const;
    std::optional<std::string> firstOverlap();
    // The first launched body more than 1 mm inside the ground or another body, before the
    // bodies enter the world: (body, what it is in, depth in metres).
    std::optional<std::tuple<int, int, double>> firstBodyOverlap();
    std::string overlapLine(int body, int other, double depthM) const;
    // The snow's drag, then one fixed step of Bullet (timed alone).
    void stepOnce();
};

// The last step a frame ending at `timeS` runs: step n ends at n / step_hz; the tolerance keeps
// (i + 1) / fps from falling a rounding short of a step it lands on.
inline long long lastStepBy(double timeS, double stepHz) {
    return static_cast<long long>(std::floor(std::max(timeS, 0.0) * stepHz + 1e-6));
}

} // namespace snowcap
