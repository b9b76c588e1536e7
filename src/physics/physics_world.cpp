#include "physics/physics_world.hpp"

#include "core/vehicle_rules.hpp"

#include <algorithm>
#include <btBulletDynamicsCommon.h>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <numbers>
#include <optional>
#include <tuple>

namespace snowcap {

namespace {

// Bullet is tuned for bodies of 0.05 to 10 units (its margins, sleeping thresholds and contact
// breaking distance are in units): the world runs in metres.
constexpr double kCmToM = 0.01;
constexpr double kMToCm = 100.0;
// A box's collision margin (Bullet's default of 4 cm would round the corners of a small crate).
constexpr btScalar kBoxMarginM = 0.004f;
// Overlap at the start that counts as "inside": more than 1 mm (bodies laid touching are fine).
constexpr double kStartOverlapM = 0.001;
// Resting: slower than this (and not spinning faster than kRestingRadS), or asleep.
constexpr double kRestingCmS = 1.0;
constexpr double kRestingRadS = 0.1;
// The vehicles' speed controller: the engine closes the gap to the speed to hold at this rate
// (1/s), with at most kDriveMS2 of acceleration or braking (0.3 g: within a tyre's grip on
// packed snow at wheel_friction 0.3 and above); near its path's end it slows to stop there at
// kStopCmS2. Arrived (within kArrivedCm of its end), it brakes at kBrakeMS2.
constexpr double kSpeedGainPerS = 4.0;
constexpr double kDriveMS2 = 3.0;
constexpr double kStopCmS2 = 150.0;
constexpr double kArrivedCm = 1.0;
constexpr double kBrakeMS2 = 5.0;
// How much a wheel's side force rolls the chassis (Bullet's vehicle demo's 0.1: less than 1
// keeps a vehicle turning hard from tipping over as easily as a real one).
constexpr btScalar kRollInfluence = 0.1f;

btVector3 toMetres(const glm::vec3& cm) {
    return btVector3(btScalar(cm.x * kCmToM), btScalar(cm.y * kCmToM), btScalar(cm.z * kCmToM));
}

std::unique_ptr<btCollisionShape> shapeOf(const BodySpec& body) {
    const glm::vec3 m = body.sizeCm * float(kCmToM);
    switch (body.shape) {
    case DeformerShape::Sphere:
        return std::make_unique<btSphereShape>(btScalar(m.x));
    case DeformerShape::Box: {
        auto box = std::make_unique<btBoxShape>(btVector3(m.x, m.y, m.z));
        box->setMargin(std::min(
            {kBoxMarginM, btScalar(m.x * 0.5f), btScalar(m.y * 0.5f), btScalar(m.z * 0.5f)}));
        return box;
    }
    case DeformerShape::Capsule:
        return std::make_unique<btCapsuleShapeX>(btScalar(m.x), btScalar(2.0f * m.y));
    }
    return nullptr;
}

// A rigid model matrix (cm) as Bullet's transform (m).
btTransform toTransform(const glm::mat4& model) {
    // glm is column-major (model[column][row]); btMatrix3x3 takes rows.
    const btMatrix3x3 basis(model[0][0], model[1][0], model[2][0], model[0][1], model[1][1],
                            model[2][1], model[0][2], model[1][2], model[2][2]);
    return btTransform(basis, toMetres(glm::vec3(model[3])));
}

// Bullet's transform (m) as a deformer's model matrix (cm).
glm::mat4 toModelCm(const btTransform& transform) {
    btScalar m[16];
    transform.getOpenGLMatrix(m);
    glm::mat4 model(1.0f);
    for (int column = 0; column < 4; ++column)
        for (int row = 0; row < 4; ++row)
            model[column][row] = float(m[column * 4 + row]);
    model[3] = glm::vec4(glm::vec3(model[3]) * float(kMToCm), 1.0f);
    return model;
}

btTransform startTransform(const BodySpec& body) {
    return toTransform(bodyStartModel(body));
}

// The suspension rays of a vehicle: Bullet's default raycaster, but blind to the vehicle's own
// chassis (its wheels mount on the chassis' bottom face, where a ray starting on the box's
// surface could find the box).
class ChassisBlindRaycaster : public btVehicleRaycaster {
public:
    ChassisBlindRaycaster(btDynamicsWorld& world, const btCollisionObject& chassis)
        : world_(world), chassis_(chassis) {}
    void* castRay(const btVector3& from, const btVector3& to,
                  btVehicleRaycasterResult& result) override {
        struct NotChassis : btCollisionWorld::ClosestRayResultCallback {
            const btCollisionObject* chassis = nullptr;
            NotChassis(const btVector3& from, const btVector3& to)
                : ClosestRayResultCallback(from, to) {}
            bool needsCollision(btBroadphaseProxy* proxy) const override {
                if (static_cast<const btCollisionObject*>(proxy->m_clientObject) == chassis)
                    return false;
                return ClosestRayResultCallback::needsCollision(proxy);
            }
        };
        NotChassis callback(from, to);
        callback.chassis = &chassis_;
        world_.rayTest(from, to, callback);
        if (!callback.hasHit())
            return nullptr;
        const btRigidBody* body = btRigidBody::upcast(callback.m_collisionObject);
        if (!body || !body->hasContactResponse())
            return nullptr;
        result.m_hitPointInWorld = callback.m_hitPointWorld;
        result.m_hitNormalInWorld = callback.m_hitNormalWorld.normalized();
        result.m_distFraction = callback.m_closestHitFraction;
        return const_cast<btRigidBody*>(body);
    }

private:
    btDynamicsWorld& world_;
    const btCollisionObject& chassis_;
};

// One vehicle in the world: Bullet's parts, its path and what it has done since t = 0.
struct VehicleState {
    VehicleSettings settings;
    DrivePath path;
    std::unique_ptr<btCollisionShape> shape;
    std::unique_ptr<btRigidBody> chassis;
    std::unique_ptr<ChassisBlindRaycaster> raycaster;
    std::unique_ptr<btRaycastVehicle> vehicle;
    double progressS = 0.0; // the rear axle's arc length along the path
    double distanceCm = 0.0;
    double sinkageSumCm = 0.0;
    long long sinkageSamples = 0;
    glm::dvec2 lastXYCm{0.0};

    explicit VehicleState(const VehicleSettings& s) : settings(s), path(s.waypointsCm, s.laps) {}
};

} // namespace

double snowDragFactor(double dragPerCm, double depthInSnowCm, double stepS) {
    return std::exp(-dragPerCm * std::max(depthInSnowCm, 0.0) * stepS);
}

struct PhysicsWorld::Impl {
    std::vector<BodySpec> specs;
    PhysicsSettings settings;
    double surfaceZCm = 0.0, snowDepthCm = 0.0;

    // The Bullet world; rebuilt whole on reset, so a restart is a fresh world (no warm-started
    // contacts or solver state carried over).
    std::unique_ptr<btDefaultCollisionConfiguration> configuration;
    std::unique_ptr<btCollisionDispatcher> dispatcher;
    std::unique_ptr<btDbvtBroadphase> broadphase;
    std::unique_ptr<btSequentialImpulseConstraintSolver> solver;
    std::unique_ptr<btDiscreteDynamicsWorld> world;
    std::unique_ptr<btCollisionShape> groundShape;
    std::unique_ptr<btRigidBody> ground;
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

    double groundZCm() const { return surfaceZCm - snowDepthCm; }

    void tearDown() {
        if (world) {
            for (auto& v : vehicles) {
                world->removeVehicle(v->vehicle.get());
                world->removeRigidBody(v->chassis.get());
            }
            for (std::size_t i = 0; i < bodies.size(); ++i)
                if (launched[i])
                    world->removeRigidBody(bodies[i].get());
            if (ground)
                world->removeRigidBody(ground.get());
        }
        vehicles.clear();
        bodies.clear();
        launched.clear();
        shapes.clear();
        ground.reset();
        groundShape.reset();
        world.reset();
        solver.reset();
        broadphase.reset();
        dispatcher.reset();
        configuration.reset();
    }

    // A fresh world with every body at its start; the first overlap at the start, as one line.
    std::optional<std::string> build() {
        tearDown();
        step = 0;
        configuration = std::make_unique<btDefaultCollisionConfiguration>();
        dispatcher = std::make_unique<btCollisionDispatcher>(configuration.get());
        broadphase = std::make_unique<btDbvtBroadphase>();
        solver = std::make_unique<btSequentialImpulseConstraintSolver>();
        world = std::make_unique<btDiscreteDynamicsWorld>(dispatcher.get(), broadphase.get(),
                                                          solver.get(), configuration.get());
        world->setGravity(btVector3(0, 0, btScalar(-settings.gravityCmS2 * kCmToM)));

        // The ground: its restitution and friction are 1, so a contact with it has the body's
        // own (Bullet multiplies the pair's).
        groundShape = std::make_unique<btStaticPlaneShape>(btVector3(0, 0, 1),
                                                           btScalar(groundZCm() * kCmToM));
        ground = std::make_unique<btRigidBody>(
            btRigidBody::btRigidBodyConstructionInfo(0, nullptr, groundShape.get()));
        ground->setRestitution(1);
        ground->setFriction(1);
        ground->setUserIndex(-1);
        world->addRigidBody(ground.get());

        for (std::size_t i = 0; i < specs.size(); ++i) {
            const BodySpec& spec = specs[i];
            shapes.push_back(shapeOf(spec));
            btVector3 inertia(0, 0, 0);
            shapes.back()->calculateLocalInertia(btScalar(spec.massKg), inertia);
            btRigidBody::btRigidBodyConstructionInfo info(btScalar(spec.massKg), nullptr,
                                                          shapes.back().get(), inertia);
            info.m_startWorldTransform = startTransform(spec);
            info.m_restitution = btScalar(spec.restitution);
            info.m_friction = btScalar(spec.friction);
            bodies.push_back(std::make_unique<btRigidBody>(info));
            btRigidBody& body = *bodies.back();
            body.setUserIndex(int(i));
            body.setLinearVelocity(toMetres(spec.velocityCmS));
            const glm::vec3 spin = glm::radians(spec.spinDegS);
            body.setAngularVelocity(btVector3(spin.x, spin.y, spin.z));
            // Bullet's default sleeping thresholds (0.8 m/s, 1 rad/s) would freeze a ball
            // rolling at half a metre a second; these only put bodies that have stopped to sleep.
            body.setSleepingThresholds(btScalar(0.005), btScalar(0.02));
            launched.push_back(spec.launchS <= 0.0);
            if (launched.back())
                world->addRigidBody(&body);
        }
        for (std::size_t v = 0; v < vehicleSettings.size(); ++v)
            addVehicle(v);
        return firstOverlap();
    }

    // A raycast vehicle: a box chassis carrying the whole mass, four wheels on suspension rays
    // mounted on its bottom face; +X forward, +Y left, +Z up. Bullet's right, up and forward
    // axes are the chassis' Y, Z and X; its wheels roll forward along normal x axle, so the
    // axle points to the right (-Y) for a positive engine force to drive +X, and a positive
    // steering angle turns left (about +Z). A wheel's pose then has the chassis' axes.
    void addVehicle(std::size_t index) {
        const VehicleSettings& s = vehicleSettings[index];
        auto state = std::make_unique<VehicleState>(s);
        state->shape = std::make_unique<btBoxShape>(toMetres(s.chassisSizeCm));
        btVector3 inertia(0, 0, 0);
        state->shape->calculateLocalInertia(btScalar(s.massKg), inertia);
        btRigidBody::btRigidBodyConstructionInfo info(btScalar(s.massKg), nullptr,
                                                      state->shape.get(), inertia);
        const glm::mat4 start = vehicleStartModel(s, groundZCm(), settings.gravityCmS2);
        info.m_startWorldTransform = toTransform(start);
        state->chassis = std::make_unique<btRigidBody>(info);
        state->chassis->setUserIndex(int(specs.size() + index));
        // A vehicle never sleeps: its controller drives it every step.
        state->chassis->setActivationState(DISABLE_DEACTIVATION);
        world->addRigidBody(state->chassis.get());

        btRaycastVehicle::btVehicleTuning tuning;
        tuning.m_suspensionStiffness = btScalar(s.suspensionStiffness);
        tuning.m_suspensionCompression = btScalar(s.dampingCompression);
        tuning.m_suspensionDamping = btScalar(s.dampingRelaxation);
        tuning.m_maxSuspensionTravelCm = btScalar(s.suspensionTravelCm); // world m: cm as cm
        tuning.m_frictionSlip = btScalar(s.wheelFriction);
        // Any one wheel may carry the whole vehicle four times over before Bullet clips it.
        tuning.m_maxSuspensionForce = btScalar(4.0 * s.massKg * settings.gravityCmS2 * kCmToM);
        state->raycaster = std::make_unique<ChassisBlindRaycaster>(*world, *state->chassis);
        state->vehicle = std::make_unique<btRaycastVehicle>(tuning, state->chassis.get(),
                                                            state->raycaster.get());
        state->vehicle->setCoordinateSystem(1, 2, 0);
        for (int w = 0; w < kVehicleWheels; ++w) {
            btWheelInfo& wheel =
                state->vehicle->addWheel(toMetres(wheelMountCm(s, w)), btVector3(0, 0, -1),
                                         btVector3(0, -1, 0), btScalar(s.suspensionRestCm * kCmToM),
                                         btScalar(s.wheelRadiusCm * kCmToM), tuning, w < 2);
            wheel.m_rollInfluence = kRollInfluence;
            // Where the start put it (the static sag) until the first step's ray finds it.
            wheel.m_raycastInfo.m_suspensionLength =
                btScalar((s.suspensionRestCm - staticSagCm(s, settings.gravityCmS2)) * kCmToM);
        }
        for (int w = 0; w < kVehicleWheels; ++w)
            state->vehicle->updateWheelTransform(w, false);
        world->addVehicle(state->vehicle.get());
        state->lastXYCm = glm::dvec2(start[3].x, start[3].y);
        vehicles.push_back(std::move(state));
    }

    // "body 'x'" or "vehicle 'x'" for a world index (bodies first, then the vehicles), and the
    // key that placed it.
    std::pair<std::string, std::string> describe(int index) const {
        if (std::size_t(index) < specs.size()) {
            const BodySpec& body = specs[std::size_t(index)];
            return {"body '" + body.name + "'",
                    fmt::format("key 'body[{}].position_cm'", body.entry)};
        }
        const std::size_t v = std::size_t(index) - specs.size();
        return {"vehicle '" + vehicleSettings[v].name + "'",
                fmt::format("key 'vehicle[{}].waypoints_cm'", v)};
    }

    // The path's controller, before a step: steering by pure pursuit, the engine holding the
    // speed, the brakes at the end.
    void drive(VehicleState& v, double h) {
        if (v.settings.player)
            return drivePlayer(v);
        const VehicleSettings& s = v.settings;
        const btTransform& transform = v.chassis->getCenterOfMassTransform();
        const btVector3 forward = transform.getBasis().getColumn(0);
        const double heading = std::atan2(double(forward.y()), double(forward.x()));
        const glm::dvec2 ahead(std::cos(heading), std::sin(heading));
        const glm::dvec2 centre(double(transform.getOrigin().x()) * kMToCm,
                                double(transform.getOrigin().y()) * kMToCm);
        const glm::dvec2 rearAxle = centre - ahead * (0.5 * s.wheelbaseCm);
        v.progressS = v.path.nearest(rearAxle, v.progressS, s.lookaheadCm);
        const glm::dvec2 target = v.path.pointAt(v.progressS + s.lookaheadCm);
        const double steer = purePursuitSteer(rearAxle, heading, target, s.wheelbaseCm,
                                              s.maxSteerDeg * std::numbers::pi / 180.0);
        // The centre stops on the path's end: the rear axle half a wheelbase short of it.
        const double remaining = v.path.totalCm() - v.progressS - 0.5 * s.wheelbaseCm;
        const double speed =
            double(v.chassis->getLinearVelocity().dot(forward)) * kMToCm; // cm/s, forward
        const double holdCmS = pathSpeedCmS(s.speedCmS, remaining, kStopCmS2);
        const bool arrived = remaining <= kArrivedCm;
        const double accelMS2 =
            std::clamp(kSpeedGainPerS * (holdCmS - speed) * kCmToM, -kDriveMS2, kDriveMS2);
        const double perWheelN = arrived ? 0.0 : s.massKg * accelMS2 / kVehicleWheels;
        const double brake = arrived ? s.massKg * kBrakeMS2 * h / kVehicleWheels : 0.0;
        for (int w = 0; w < kVehicleWheels; ++w) {
            v.vehicle->setSteeringValue(btScalar(w < 2 ? steer : 0.0), w);
            v.vehicle->applyEngineForce(btScalar(perWheelN), w);
            v.vehicle->setBrake(btScalar(brake), w);
        }
    }

    // The player's input for this step (the log's, else the current one, logged): the throttle
    // sets the speed to hold (speed_cm_s at full), by the path controller's rate and limit; the
    // steer turns the front wheels up to max_steer_deg (right positive, Bullet's left).
    void drivePlayer(VehicleState& v) {
        if (std::size_t(step) >= driverLog.size())
            driverLog.push_back(driverInput);
        const glm::vec2 input = driverLog[std::size_t(step)];
        const VehicleSettings& s = v.settings;
        const btVector3 forward = v.chassis->getCenterOfMassTransform().getBasis().getColumn(0);
        const double speed = double(v.chassis->getLinearVelocity().dot(forward)) * kMToCm;
        const double holdCmS = double(input.y) * s.speedCmS;
        const double accelMS2 =
            std::clamp(kSpeedGainPerS * (holdCmS - speed) * kCmToM, -kDriveMS2, kDriveMS2);
        const double steer = -double(input.x) * s.maxSteerDeg * std::numbers::pi / 180.0;
        for (int w = 0; w < kVehicleWheels; ++w) {
            v.vehicle->setSteeringValue(btScalar(w < 2 ? steer : 0.0), w);
            v.vehicle->applyEngineForce(btScalar(s.massKg * accelMS2 / kVehicleWheels), w);
            v.vehicle->setBrake(0, w);
        }
    }

    // After a step: the wheels' poses, the distance and the sinkage.
    void measure(VehicleState& v) {
        for (int w = 0; w < kVehicleWheels; ++w) {
            // The step's contact first: moving the wheel's pose to the chassis' new place
            // clears it (Bullet casts the rays again at the next step).
            const btWheelInfo& wheel = v.vehicle->getWheelInfo(w);
            if (wheel.m_raycastInfo.m_isInContact) {
                const double contactZCm = double(wheel.m_raycastInfo.m_contactPointWS.z()) * kMToCm;
                v.sinkageSumCm += std::max(surfaceZCm - contactZCm, 0.0);
                ++v.sinkageSamples;
            }
            v.vehicle->updateWheelTransform(w, false);
        }
        const btVector3& at = v.chassis->getCenterOfMassPosition();
        const glm::dvec2 xy(double(at.x()) * kMToCm, double(at.y()) * kMToCm);
        v.distanceCm += glm::length(xy - v.lastXYCm);
        v.lastXYCm = xy;
    }

    std::optional<std::string> firstOverlap() {
        world->performDiscreteCollisionDetection();
        // The lowest pair of indices that overlap (the ground is -1), so the line is the same
        // whatever order the broadphase found them in.
        std::optional<std::tuple<int, int, double>> worst;
        for (int m = 0; m < dispatcher->getNumManifolds(); ++m) {
            const btPersistentManifold* manifold = dispatcher->getManifoldByIndexInternal(m);
            double deepest = 0.0;
            for (int c = 0; c < manifold->getNumContacts(); ++c)
                deepest = std::min(deepest, double(manifold->getContactPoint(c).getDistance()));
            if (deepest > -kStartOverlapM)
                continue;
            int a = manifold->getBody0()->getUserIndex(), b = manifold->getBody1()->getUserIndex();
            if (a > b)
                std::swap(a, b);
            // a < b: b is a body; report it against a (another body, or the ground).
            const auto pair = std::make_tuple(b, a, -deepest);
            if (!worst ||
                std::make_pair(b, a) < std::make_pair(std::get<0>(*worst), std::get<1>(*worst)))
                worst = pair;
        }
        if (!worst)
            return std::nullopt;
        const auto [b, a, depthM] = *worst;
        const auto [what, key] = describe(b);
        if (a < 0)
            return fmt::format("{}: {} starts {:.1f} cm into the ground under the snow "
                               "(z = {:g} cm, surface_z_cm - depth_cm)",
                               key, what, depthM * kMToCm, groundZCm());
        return fmt::format("{}: {} starts {:.1f} cm inside {}", key, what, depthM * kMToCm,
                           describe(a).first);
    }

    // The snow's drag, then one fixed step of Bullet (timed alone).
    void stepOnce() {
        const double h = 1.0 / settings.stepHz;
        // Bodies launched from this step on enter the world as built: at their start, with their
        // velocity and spin (the tolerance keeps a launch at exactly a step's start in it).
        for (std::size_t i = 0; i < bodies.size(); ++i)
            if (!launched[i] && specs[i].launchS <= double(step) * h + 1e-9) {
                world->addRigidBody(bodies[i].get());
                launched[i] = true;
            }
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            btRigidBody* body = bodies[i].get();
            if (!launched[i] || !body->isActive())
                continue;
            btVector3 low, high;
            body->getAabb(low, high);
            const double inSnowCm =
                std::clamp(surfaceZCm - double(low.z()) * kMToCm, 0.0, snowDepthCm);
            if (inSnowCm <= 0.0)
                continue;
            const btScalar keep = btScalar(snowDragFactor(settings.snowDragPerCm, inSnowCm, h));
            body->setLinearVelocity(body->getLinearVelocity() * keep);
            body->setAngularVelocity(body->getAngularVelocity() * keep);
        }
        for (auto& v : vehicles)
            drive(*v, h);
        const auto start = std::chrono::steady_clock::now();
        world->stepSimulation(btScalar(h), 0, btScalar(h)); // exactly one step of h
        stepSecondsTotal +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (auto& v : vehicles)
            measure(*v);
        ++step;
        ++stepsTotal;
    }
};

PhysicsWorld::PhysicsWorld(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PhysicsWorld::~PhysicsWorld() = default;

std::variant<std::unique_ptr<PhysicsWorld>, std::string>
PhysicsWorld::create(const Settings& settings) {
    auto impl = std::make_unique<Impl>();
    impl->specs = expandBodies(settings.bodies);
    for (std::size_t v = 0; v < settings.vehicles.size(); ++v)
        if (const std::optional<VehicleProblem> problem = vehicleProblem(settings.vehicles[v]))
            return problem->line(v);
    impl->vehicleSettings = settings.vehicles;
    impl->settings = settings.physics;
    impl->surfaceZCm = settings.snow.surfaceZCm;
    impl->snowDepthCm = settings.snow.depthCm;
    if (auto error = impl->build())
        return *error;
    return std::unique_ptr<PhysicsWorld>(new PhysicsWorld(std::move(impl)));
}

int PhysicsWorld::stepTo(double timeS) {
    // Step n ends at n / step_hz; the tolerance keeps (i + 1) / fps from falling a rounding
    // short of a step it lands on.
    const long long target =
        static_cast<long long>(std::floor(std::max(timeS, 0.0) * impl_->settings.stepHz + 1e-6));
    if (target < impl_->step)
        reset();
    int ran = 0;
    while (impl_->step < target) {
        impl_->stepOnce();
        ++ran;
    }
    return ran;
}

void PhysicsWorld::reset() {
    impl_->build(); // the same bodies that were built once: no overlap now either
}

double PhysicsWorld::timeS() const {
    return double(impl_->step) / impl_->settings.stepHz;
}

double PhysicsWorld::stepS() const {
    return 1.0 / impl_->settings.stepHz;
}

std::size_t PhysicsWorld::bodyCount() const {
    return impl_->specs.size();
}

const std::vector<BodySpec>& PhysicsWorld::bodies() const {
    return impl_->specs;
}

glm::mat4 PhysicsWorld::modelOf(std::size_t body) const {
    const glm::mat4 model = toModelCm(impl_->bodies[body]->getWorldTransform());
    if (impl_->launched[body])
        return model;
    // Not launched yet: at its start, shrunk to a point, so it neither draws nor presses.
    return glm::mat4(glm::vec4(0.0f), glm::vec4(0.0f), glm::vec4(0.0f), model[3]);
}

std::size_t PhysicsWorld::vehicleCount() const {
    return impl_->vehicleSettings.size();
}

std::size_t PhysicsWorld::poseCount() const {
    return bodyCount() + kVehicleDeformers * vehicleCount();
}

glm::mat4 PhysicsWorld::poseOf(std::size_t pose) const {
    if (pose < bodyCount())
        return modelOf(pose);
    const std::size_t k = pose - bodyCount();
    const VehicleState& v = *impl_->vehicles[k / kVehicleDeformers];
    const int part = int(k % kVehicleDeformers);
    if (part == 0)
        return toModelCm(v.chassis->getWorldTransform());
    return toModelCm(v.vehicle->getWheelInfo(part - 1).m_worldTransform);
}

glm::vec3 PhysicsWorld::vehiclePositionCm(std::size_t vehicle) const {
    return glm::vec3(toModelCm(impl_->vehicles[vehicle]->chassis->getWorldTransform())[3]);
}

double PhysicsWorld::vehicleSpeedCmS(std::size_t vehicle) const {
    const btRigidBody& chassis = *impl_->vehicles[vehicle]->chassis;
    const btVector3 forward = chassis.getWorldTransform().getBasis().getColumn(0);
    return double(chassis.getLinearVelocity().dot(forward)) * kMToCm;
}

glm::vec3 PhysicsWorld::positionCm(std::size_t body) const {
    return glm::vec3(modelOf(body)[3]);
}

glm::vec3 PhysicsWorld::velocityCmS(std::size_t body) const {
    const btVector3 v = impl_->bodies[body]->getLinearVelocity();
    return glm::vec3(v.x(), v.y(), v.z()) * float(kMToCm);
}

void PhysicsWorld::setDriverInput(glm::vec2 steerThrottle) {
    impl_->driverInput = glm::clamp(steerThrottle, glm::vec2(-1.0f), glm::vec2(1.0f));
}

const std::vector<glm::vec2>& PhysicsWorld::driverLog() const {
    return impl_->driverLog;
}

void PhysicsWorld::setDriverLog(std::vector<glm::vec2> log) {
    impl_->driverLog = std::move(log);
}

std::optional<std::size_t> PhysicsWorld::playerVehicle() const {
    for (std::size_t v = 0; v < impl_->vehicleSettings.size(); ++v)
        if (impl_->vehicleSettings[v].player)
            return v;
    return std::nullopt;
}

bool PhysicsWorld::launched(std::size_t body) const {
    return impl_->launched[body];
}

bool PhysicsWorld::resting(std::size_t body) const {
    if (!impl_->launched[body])
        return false; // waiting to be thrown
    const btRigidBody& b = *impl_->bodies[body];
    if (!b.isActive())
        return true;
    return double(b.getLinearVelocity().length()) * kMToCm < kRestingCmS &&
           double(b.getAngularVelocity().length()) < kRestingRadS;
}

double PhysicsWorld::groundZCm() const {
    return impl_->groundZCm();
}

PhysicsReport PhysicsWorld::report() const {
    PhysicsReport out;
    out.bodies = int(bodyCount());
    out.vehicles = int(vehicleCount());
    for (const auto& v : impl_->vehicles)
        out.vehicleReports.push_back(
            {v->settings.name, v->distanceCm,
             v->sinkageSamples > 0 ? v->sinkageSumCm / double(v->sinkageSamples) : 0.0});
    out.steps = impl_->stepsTotal;
    out.stepMsMean =
        impl_->stepsTotal > 0 ? impl_->stepSecondsTotal * 1000.0 / impl_->stepsTotal : 0.0;
    for (std::size_t i = 0; i < bodyCount(); ++i)
        out.restingBodies += resting(i) ? 1 : 0;
    return out;
}

} // namespace snowcap
