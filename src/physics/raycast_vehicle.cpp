#include "physics/raycast_vehicle.hpp"

#include "physics/bullet_units.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>

namespace snowcap {

using bullet::kCmToM;
using bullet::kMToCm;
using bullet::toMetres;

namespace {

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

} // namespace

std::size_t VehicleState::passNow() const {
    if (settings.laps <= 0 || path.lapCm() <= 0.0)
        return 0;
    const double lap = std::floor(std::max(progressS, 0.0) / path.lapCm());
    return std::size_t(std::clamp(lap, 0.0, double(settings.laps - 1)));
}

// A raycast vehicle: a box chassis carrying the whole mass, four wheels on suspension rays
// mounted on its bottom face; +X forward, +Y left, +Z up. Bullet's right, up and forward axes
// are the chassis' Y, Z and X; its wheels roll forward along normal x axle, so the axle points
// to the right (-Y) for a positive engine force to drive +X, and a positive steering angle
// turns left (about +Z). A wheel's pose then has the chassis' axes.
std::unique_ptr<VehicleState> addVehicle(const VehicleSettings& s, btDynamicsWorld& world,
                                         int userIndex, double startZCm, double gravityCmS2,
                                         const HeightField* terrain) {
    auto state = std::make_unique<VehicleState>(s);
    state->passes.resize(std::size_t(std::max(s.laps, 1)));
    state->shape = std::make_unique<btBoxShape>(toMetres(s.chassisSizeCm));
    btVector3 inertia(0, 0, 0);
    state->shape->calculateLocalInertia(btScalar(s.massKg), inertia);
    btRigidBody::btRigidBodyConstructionInfo info(btScalar(s.massKg), nullptr, state->shape.get(),
                                                  inertia);
    const glm::mat4 start = vehicleStartModel(s, startZCm, gravityCmS2, terrain);
    info.m_startWorldTransform = bullet::toTransform(start);
    state->chassis = std::make_unique<btRigidBody>(info);
    state->chassis->setUserIndex(userIndex);
    // A vehicle never sleeps: its controller drives it every step.
    state->chassis->setActivationState(DISABLE_DEACTIVATION);
    world.addRigidBody(state->chassis.get());

    btRaycastVehicle::btVehicleTuning tuning;
    tuning.m_suspensionStiffness = btScalar(s.suspensionStiffness);
    tuning.m_suspensionCompression = btScalar(s.dampingCompression);
    tuning.m_suspensionDamping = btScalar(s.dampingRelaxation);
    tuning.m_maxSuspensionTravelCm = btScalar(s.suspensionTravelCm); // world m: cm as cm
    tuning.m_frictionSlip = btScalar(s.wheelFriction);
    // Any one wheel may carry the whole vehicle four times over before Bullet clips it.
    tuning.m_maxSuspensionForce = btScalar(4.0 * s.massKg * gravityCmS2 * kCmToM);
    state->raycaster = std::make_unique<ChassisBlindRaycaster>(world, *state->chassis);
    state->vehicle =
        std::make_unique<btRaycastVehicle>(tuning, state->chassis.get(), state->raycaster.get());
    state->vehicle->setCoordinateSystem(1, 2, 0);
    for (int w = 0; w < kVehicleWheels; ++w) {
        btWheelInfo& wheel =
            state->vehicle->addWheel(toMetres(wheelMountCm(s, w)), btVector3(0, 0, -1),
                                     btVector3(0, -1, 0), btScalar(s.suspensionRestCm * kCmToM),
                                     btScalar(s.wheelRadiusCm * kCmToM), tuning, w < 2);
        wheel.m_rollInfluence = kRollInfluence;
        // Where the start put it (the static sag) until the first step's ray finds it.
        wheel.m_raycastInfo.m_suspensionLength =
            btScalar((s.suspensionRestCm - staticSagCm(s, gravityCmS2)) * kCmToM);
    }
    for (int w = 0; w < kVehicleWheels; ++w)
        state->vehicle->updateWheelTransform(w, false);
    world.addVehicle(state->vehicle.get());
    state->lastXYCm = glm::dvec2(start[3].x, start[3].y);
    return state;
}

void removeVehicle(VehicleState& v, btDynamicsWorld& world) {
    world.removeVehicle(v.vehicle.get());
    world.removeRigidBody(v.chassis.get());
}

void driveVehicle(VehicleState& v, double h) {
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

void drivePlayerVehicle(VehicleState& v, glm::vec2 input) {
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

void measureVehicle(VehicleState& v, const SnowTopAt& surfaceAt, const SnowTopAt& topAt) {
    PassSinkage& pass = v.passes[v.passNow()];
    const btVector3 forward = v.chassis->getCenterOfMassTransform().getBasis().getColumn(0);
    const glm::dvec2 ahead = glm::normalize(glm::dvec2(double(forward.x()), double(forward.y())));
    for (int w = 0; w < kVehicleWheels; ++w) {
        // The step's contact first: moving the wheel's pose to the chassis' new place clears
        // it (Bullet casts the rays again at the next step).
        const btWheelInfo& wheel = v.vehicle->getWheelInfo(w);
        if (wheel.m_raycastInfo.m_isInContact) {
            const btVector3& contact = wheel.m_raycastInfo.m_contactPointWS;
            const double contactZCm = double(contact.z()) * kMToCm;
            // What the wheel meets: the snow one radius ahead of its contact, beyond the front
            // of its own print (a wheel sinking less than its radius touches less than that).
            const glm::dvec2 front = glm::dvec2(double(contact.x()), double(contact.y())) * kMToCm +
                                     ahead * v.settings.wheelRadiusCm;
            pass.intoSnowSumCm += std::max(topAt(front) - contactZCm, 0.0);
            const glm::dvec2 contactCm =
                glm::dvec2(double(contact.x()), double(contact.y())) * kMToCm;
            const double below = std::max(surfaceAt(contactCm) - contactZCm, 0.0);
            pass.belowSurfaceSumCm += below;
            ++pass.samples;
            v.sinkageSumCm += below;
            ++v.sinkageSamples;
        }
        v.vehicle->updateWheelTransform(w, false);
    }
    const btVector3& at = v.chassis->getCenterOfMassPosition();
    const glm::dvec2 xy(double(at.x()) * kMToCm, double(at.y()) * kMToCm);
    v.distanceCm += glm::length(xy - v.lastXYCm);
    v.lastXYCm = xy;
}

} // namespace snowcap
