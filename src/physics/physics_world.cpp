#include "physics/physics_world.hpp"

#include "core/ground.hpp"
#include "core/paths.hpp"
#include "core/vehicle_rules.hpp"
#include "physics/body_hull.hpp"
#include "physics/bullet_units.hpp"
#include "physics/physics_world_impl.hpp"
#include "physics/raycast_vehicle.hpp"
#include "physics/snow_support.hpp"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <algorithm>
#include <btBulletDynamicsCommon.h>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <glm/common.hpp>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

namespace snowcap {

namespace {

using bullet::kCmToM;
using bullet::kMToCm;
using bullet::toMetres;
using bullet::toModelCm;
using bullet::toTransform;

// A box's collision margin (Bullet's default of 4 cm would round the corners of a small crate).
constexpr btScalar kBoxMarginM = 0.004f;
// Resting: slower than this (and not spinning faster than kRestingRadS), or asleep.
constexpr double kRestingCmS = 1.0;
constexpr double kRestingRadS = 0.1;

std::unique_ptr<btCollisionShape> shapeOf(const BodySpec& body) {
    const glm::vec3 m = body.sizeCm * float(kCmToM);
    switch (body.shape) {
    case BodyShape::Sphere:
        return std::make_unique<btSphereShape>(btScalar(m.x));
    case BodyShape::Mesh:
        // The same margin as a box's, kept inside the hull as a box keeps it inside its sides.
        return bullet::meshBodyShape(*body.mesh, kBoxMarginM);
    case BodyShape::Box: {
        auto box = std::make_unique<btBoxShape>(btVector3(m.x, m.y, m.z));
        box->setMargin(std::min(
            {kBoxMarginM, btScalar(m.x * 0.5f), btScalar(m.y * 0.5f), btScalar(m.z * 0.5f)}));
        return box;
    }
    case BodyShape::Capsule:
        return std::make_unique<btCapsuleShapeX>(btScalar(m.x), btScalar(2.0f * m.y));
    }
    return nullptr;
}

btTransform startTransform(const BodySpec& body) {
    return toTransform(bodyStartModel(body));
}

} // namespace

double snowDragFactor(double dragPerCm, double depthInSnowCm, double stepS) {
    return std::exp(-dragPerCm * std::max(depthInSnowCm, 0.0) * stepS);
}

void PhysicsWorld::Impl::tearDown() {
    if (world) {
        for (auto& v : vehicles)
            removeVehicle(*v, *world);
        for (std::size_t i = 0; i < bodies.size(); ++i)
            if (launched[i])
                world->removeRigidBody(bodies[i].get());
        if (ground)
            world->removeRigidBody(ground.get());
        if (frame)
            world->removeRigidBody(frame.get());
        if (support)
            world->removeRigidBody(&support->body());
    }
    vehicles.clear();
    bodies.clear();
    launched.clear();
    shapes.clear();
    ground.reset();
    groundShape.reset();
    frame.reset();
    frameShape.reset();
    frameBoxes.clear();
    floor.reset();
    floorShape.reset();
    world.reset();
    solver.reset();
    broadphase.reset();
    dispatcher.reset();
    configuration.reset();
}

void PhysicsWorld::Impl::buildFrame() {
    // Four boxes about the support's region, their tops at the ground, kFrameReachCm out from
    // its edges (beyond them the plane, a print's depth lower) and as deep below: a body outside
    // the region stands on the ground as it does where no print can be.
    constexpr double kFrameReachCm = 10000.0;
    const Region& region = plan.region;
    const glm::dvec2 low = region.centreCm - 0.5 * region.widthCm;
    const glm::dvec2 high = region.centreCm + 0.5 * region.widthCm;
    const double r = kFrameReachCm;
    // [x0, x1] x [y0, y1] each (cm).
    const double pieces[4][4] = {{low.x - r, low.x, low.y - r, high.y + r},
                                 {high.x, high.x + r, low.y - r, high.y + r},
                                 {low.x, high.x, low.y - r, low.y},
                                 {low.x, high.x, high.y, high.y + r}};
    frameShape = std::make_unique<btCompoundShape>();
    for (const auto& p : pieces) {
        const btVector3 half(btScalar(0.5 * (p[1] - p[0]) * kCmToM),
                             btScalar(0.5 * (p[3] - p[2]) * kCmToM), btScalar(0.5 * r * kCmToM));
        frameBoxes.push_back(std::make_unique<btBoxShape>(half));
        btTransform at;
        at.setIdentity();
        at.setOrigin(btVector3(btScalar(0.5 * (p[0] + p[1]) * kCmToM),
                               btScalar(0.5 * (p[2] + p[3]) * kCmToM),
                               btScalar((groundZCm() - 0.5 * r) * kCmToM)));
        frameShape->addChildShape(at, frameBoxes.back().get());
    }
    frame = std::make_unique<btRigidBody>(
        btRigidBody::btRigidBodyConstructionInfo(0, nullptr, frameShape.get()));
    frame->setRestitution(1);
    frame->setFriction(1);
    frame->setUserIndex(-1); // the ground
    world->addRigidBody(frame.get());
}

void PhysicsWorld::Impl::buildTerrainGround() {
    // Bullet lays a heightfield's rows from -Y up and centres its samples on the body's origin,
    // their heights on (lowest + highest) / 2: the rows turned (the field's row 0 is north),
    // the origin at the field's centre and the ground's height plus that middle.
    const int columns = terrain->columns(), rows = terrain->rows();
    const std::vector<float>& heights = terrain->heightsM();
    terrainHeightsM.resize(heights.size());
    for (int row = 0; row < rows; ++row)
        std::copy_n(heights.begin() + std::ptrdiff_t(row) * columns, columns,
                    terrainHeightsM.begin() + std::ptrdiff_t(rows - 1 - row) * columns);
    const HeightSpan span = terrain->spanCm();
    const btScalar lowM = btScalar(span.lowCm * kCmToM), highM = btScalar(span.highCm * kCmToM);
    auto field = std::make_unique<btHeightfieldTerrainShape>(
        columns, rows, terrainHeightsM.data(), btScalar(1), lowM, highM, 2, PHY_FLOAT, false);
    const glm::dvec2 cell = terrain->cellCm() * kCmToM;
    field->setLocalScaling(btVector3(btScalar(cell.x), btScalar(cell.y), 1));
    groundShape = std::move(field);
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, groundShape.get());
    info.m_startWorldTransform.setIdentity();
    info.m_startWorldTransform.setOrigin(btVector3(
        btScalar(terrain->centreCm().x * kCmToM), btScalar(terrain->centreCm().y * kCmToM),
        btScalar(groundZCm() * kCmToM) + 0.5f * (lowM + highM)));
    ground = std::make_unique<btRigidBody>(info);
    // Beyond the samples' extent: a plane at the lowest height, so nothing falls for ever.
    floorShape = std::make_unique<btStaticPlaneShape>(
        btVector3(0, 0, 1), btScalar((groundZCm() + span.lowCm) * kCmToM));
    floor = std::make_unique<btRigidBody>(
        btRigidBody::btRigidBodyConstructionInfo(0, nullptr, floorShape.get()));
    floor->setRestitution(1);
    floor->setFriction(1);
    floor->setUserIndex(-1);
    world->addRigidBody(floor.get());
}

std::optional<std::string> PhysicsWorld::Impl::build() {
    tearDown();
    step = 0;
    supportWantsWhole = true;
    configuration = std::make_unique<btDefaultCollisionConfiguration>();
    dispatcher = std::make_unique<btCollisionDispatcher>(configuration.get());
    broadphase = std::make_unique<btDbvtBroadphase>();
    solver = std::make_unique<btSequentialImpulseConstraintSolver>();
    world = std::make_unique<btDiscreteDynamicsWorld>(dispatcher.get(), broadphase.get(),
                                                      solver.get(), configuration.get());
    world->setGravity(btVector3(0, 0, btScalar(-settings.gravityCmS2 * kCmToM)));

    // The ground: its restitution and friction are 1, so a contact with it has the body's
    // own (Bullet multiplies the pair's).
    // On a terrain, the terrain (a print in the ground under it is not modelled).
    if (onTerrain()) {
        buildTerrainGround();
    } else {
        groundShape =
            std::make_unique<btStaticPlaneShape>(btVector3(0, 0, 1), btScalar(planeZCm() * kCmToM));
        ground = std::make_unique<btRigidBody>(
            btRigidBody::btRigidBodyConstructionInfo(0, nullptr, groundShape.get()));
    }
    ground->setRestitution(1);
    ground->setFriction(1);
    ground->setUserIndex(-1);
    world->addRigidBody(ground.get());
    if (groundPrintMaxCm > 0.0f && !onTerrain())
        buildFrame();
    // Over it, in the snowpack sim's region, the snow's bearing surface.
    if (support)
        world->addRigidBody(&support->body());

    // The members of one mesh entry share its hull (Bullet shapes may be shared).
    std::map<const BodyMesh*, btCollisionShape*> hulls;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const BodySpec& spec = specs[i];
        btCollisionShape*& shape = hulls[spec.mesh.get()];
        if (!spec.mesh || !shape) {
            shapes.push_back(shapeOf(spec));
            shape = shapes.back().get();
        }
        btVector3 inertia(0, 0, 0);
        shape->calculateLocalInertia(btScalar(spec.massKg), inertia);
        btRigidBody::btRigidBodyConstructionInfo info(btScalar(spec.massKg), nullptr, shape,
                                                      inertia);
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
    }
    if (auto overlap = firstBodyOverlap()) { // before any enters the world (the pairs it makes)
        std::fill(launched.begin(), launched.end(), false); // none is in the world to take out
        return overlapLine(std::get<0>(*overlap), std::get<1>(*overlap), std::get<2>(*overlap));
    }
    for (std::size_t i = 0; i < bodies.size(); ++i)
        if (launched[i])
            world->addRigidBody(bodies[i].get());
    for (std::size_t v = 0; v < vehicleSettings.size(); ++v)
        vehicles.push_back(addVehicle(vehicleSettings[v], *world, int(specs.size() + v),
                                      plan.startZCm(), settings.gravityCmS2,
                                      onTerrain() ? terrain.get() : nullptr));
    return firstOverlap();
}

void PhysicsWorld::Impl::stepOnce() {
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
        const glm::dvec2 under(0.5 * double(low.x() + high.x()) * kMToCm,
                               0.5 * double(low.y() + high.y()) * kMToCm);
        const double inSnowCm =
            std::clamp(surfaceZCmAt(under) - double(low.z()) * kMToCm, 0.0, plan.snowDepthCm);
        if (inSnowCm <= 0.0)
            continue;
        const btScalar keep = btScalar(snowDragFactor(settings.snowDragPerCm, inSnowCm, h));
        body->setLinearVelocity(body->getLinearVelocity() * keep);
        body->setAngularVelocity(body->getAngularVelocity() * keep);
    }
    for (auto& v : vehicles) {
        if (!v->settings.player) {
            driveVehicle(*v, h);
            continue;
        }
        // The player's input for this step: the log's, else the current one, logged.
        if (std::size_t(step) >= driverLog.size())
            driverLog.push_back(driverInput);
        drivePlayerVehicle(*v, driverLog[std::size_t(step)]);
    }
    const auto start = std::chrono::steady_clock::now();
    world->stepSimulation(btScalar(h), 0, btScalar(h)); // exactly one step of h
    stepSecondsTotal +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const SnowTopAt surfaceAt = [this](glm::dvec2 xy) {
        return surfaceZCmAt(xy);
    };
    const SnowTopAt topAt = [this](glm::dvec2 xy) {
        return support ? support->topZCmAt(xy) : surfaceZCmAt(xy);
    };
    for (auto& v : vehicles)
        measureVehicle(*v, surfaceAt, topAt);
    ++step;
    ++stepsTotal;
}

PhysicsWorld::PhysicsWorld(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PhysicsWorld::~PhysicsWorld() = default;

std::variant<std::unique_ptr<PhysicsWorld>, std::string>
PhysicsWorld::create(const Settings& settings) {
    // The bodies' rules and their mesh files first: a bad one is its line, before any world.
    auto placed = placeBodies(settings.bodies, resourceRoot(), settings.import);
    if (auto* error = std::get_if<std::string>(&placed))
        return *error;
    return create(settings, std::move(std::get<std::vector<BodySpec>>(placed)));
}

std::variant<std::unique_ptr<PhysicsWorld>, std::string>
PhysicsWorld::create(const Settings& settings, std::vector<BodySpec> bodies,
                     std::shared_ptr<const HeightField> terrain) {
    auto impl = std::make_unique<Impl>();
    impl->terrain = std::move(terrain);
    impl->specs = std::move(bodies);
    for (std::size_t v = 0; v < settings.vehicles.size(); ++v)
        if (const std::optional<VehicleProblem> problem = vehicleProblem(settings.vehicles[v]))
            return problem->line(v);
    auto plan = snowcap::supportPlan(settings);
    if (auto* error = std::get_if<std::string>(&plan))
        return *error;
    impl->vehicleSettings = settings.vehicles;
    impl->settings = settings.physics;
    impl->surfaceZCm = settings.snow.surfaceZCm;
    impl->plan = std::get<SupportPlan>(plan);
    if (impl->plan.sim >= 0) {
        impl->groundPrintMaxCm = groundPrintMaxCm(settings.ground);
        impl->support =
            std::make_unique<SnowSupport>(impl->plan, impl->groundPrintMaxCm, impl->terrain);
    }
    if (auto error = impl->build())
        return *error;
    return std::unique_ptr<PhysicsWorld>(new PhysicsWorld(std::move(impl)));
}

int PhysicsWorld::stepTo(double timeS) {
    const long long target = lastStepBy(timeS, impl_->settings.stepHz);
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

const SupportPlan& PhysicsWorld::supportPlan() const {
    return impl_->plan;
}

PhysicsReport PhysicsWorld::report() const {
    PhysicsReport out;
    out.bodies = int(bodyCount());
    out.vehicles = int(vehicleCount());
    out.support = impl_->plan.name();
    out.supportUpdates = impl_->support ? impl_->support->updates() : 0;
    for (const auto& v : impl_->vehicles) {
        VehicleReport vehicle{v->settings.name,
                              v->distanceCm,
                              v->sinkageSamples > 0 ? v->sinkageSumCm / double(v->sinkageSamples)
                                                    : 0.0,
                              {}};
        for (const PassSinkage& pass : v->passes) {
            const double n = double(std::max(pass.samples, 1LL));
            vehicle.passes.push_back(
                {pass.intoSnowSumCm / n, pass.belowSurfaceSumCm / n, pass.samples});
        }
        out.vehicleReports.push_back(std::move(vehicle));
    }
    out.steps = impl_->stepsTotal;
    out.stepMsMean =
        impl_->stepsTotal > 0 ? impl_->stepSecondsTotal * 1000.0 / impl_->stepsTotal : 0.0;
    for (std::size_t i = 0; i < bodyCount(); ++i)
        out.restingBodies += resting(i) ? 1 : 0;
    return out;
}

} // namespace snowcap
