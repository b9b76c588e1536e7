// The start's overlap check (PhysicsWorld::Impl, physics/physics_world_impl.hpp): the first
// body laid inside the ground, the frame, the snow's bearing surface or another body, found by
// a broad phase of its own before the bodies enter the world, and what Bullet's own pass finds
// of the vehicles after; each as the one line that names the key that placed it.
#include "physics/bullet_units.hpp"
#include "physics/physics_world_impl.hpp"

#include <algorithm>
#include <btBulletDynamicsCommon.h>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace snowcap {

namespace {

using bullet::kMToCm;

// Overlap at the start that counts as "inside": more than 1 mm (bodies laid touching are fine).
constexpr double kStartOverlapM = 0.001;

// The deepest contact Bullet's narrow phase finds between two objects (metres; negative is
// inside), from the world's own collision algorithms.
struct DeepestContact : btCollisionWorld::ContactResultCallback {
    double deepestM = 0.0;
    btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper*, int, int,
                             const btCollisionObjectWrapper*, int, int) override {
        deepestM = std::min(deepestM, double(point.getDistance()));
        return 0;
    }
};

} // namespace

std::pair<std::string, std::string> PhysicsWorld::Impl::describe(int index) const {
    if (std::size_t(index) < specs.size()) {
        const BodySpec& body = specs[std::size_t(index)];
        return {"body '" + body.name + "'", fmt::format("key 'body[{}].position_cm'", body.entry)};
    }
    const std::size_t v = std::size_t(index) - specs.size();
    return {"vehicle '" + vehicleSettings[v].name + "'",
            fmt::format("key 'vehicle[{}].waypoints_cm'", v)};
}

std::optional<std::tuple<int, int, double>> PhysicsWorld::Impl::firstBodyOverlap() {
    // Before the bodies enter the world: there Bullet's broadphase pairs every two whose boxes
    // meet at once, and 3,000 spheres laid on one spot are 4.5 million pairs (3 GiB, 22 s to
    // make and to take apart). Here each body is tested against the ground, its frame and the
    // snow's bearing surface (in index order, so the line names the same body however they
    // lie), then pairs whose boxes meet are found by sort-and-sweep along x and tested one at a
    // time, stopping at the first more than a millimetre inside each other.
    struct Box {
        btCollisionObject* object;
        int index;
        btVector3 low, high;
    };
    std::vector<Box> boxes, grounds;
    const auto boxOf = [](btCollisionObject* object) {
        Box box{object, object->getUserIndex(), {}, {}};
        object->getCollisionShape()->getAabb(object->getWorldTransform(), box.low, box.high);
        return box;
    };
    const btCollisionObjectArray& objects = world->getCollisionObjectArray();
    for (int k = 0; k < objects.size(); ++k)
        if (objects[k]->getUserIndex() < 0)
            grounds.push_back(boxOf(objects[k]));
    std::sort(grounds.begin(), grounds.end(),
              [](const Box& a, const Box& b) { return a.index < b.index; });
    for (std::size_t i = 0; i < bodies.size(); ++i)
        if (launched[i])
            boxes.push_back(boxOf(bodies[i].get()));
    const auto depthOf = [&](const Box& one, const Box& other) -> std::optional<double> {
        DeepestContact contact;
        world->contactPairTest(one.object, other.object, contact);
        if (contact.deepestM > -kStartOverlapM)
            return std::nullopt;
        return -contact.deepestM;
    };
    for (const Box& body : boxes)
        for (const Box& ground : grounds)
            if (auto depth = depthOf(body, ground))
                return std::make_tuple(body.index, ground.index, *depth);
    std::sort(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) {
        return a.low.x() != b.low.x() ? a.low.x() < b.low.x() : a.index < b.index;
    });
    std::vector<const Box*> active; // boxes whose x span may still reach the next ones
    for (const Box& box : boxes) {
        std::erase_if(active, [&](const Box* other) { return other->high.x() < box.low.x(); });
        for (const Box* other : active) {
            if (other->high.y() < box.low.y() || box.high.y() < other->low.y() ||
                other->high.z() < box.low.z() || box.high.z() < other->low.z())
                continue;
            if (auto depth = depthOf(box, *other))
                return std::make_tuple(std::max(box.index, other->index),
                                       std::min(box.index, other->index), *depth);
        }
        active.push_back(&box);
    }
    return std::nullopt;
}

std::string PhysicsWorld::Impl::overlapLine(int b, int a, double depthM) const {
    const auto [what, key] = describe(b);
    if (a == kSnowSupportIndex)
        return fmt::format("{}: {} starts {:.1f} cm into the snow's bearing surface ({}, z "
                           "= {:g} cm at the start)",
                           key, what, depthM * kMToCm, plan.name(), plan.initialBearingZCm);
    if (a < 0 && onTerrain())
        return fmt::format("{}: {} starts {:.1f} cm into the ground under the snow (the terrain, "
                           "surface_z_cm - depth_cm + its height)",
                           key, what, depthM * kMToCm);
    if (a < 0)
        return fmt::format("{}: {} starts {:.1f} cm into the ground under the snow "
                           "(z = {:g} cm, surface_z_cm - depth_cm)",
                           key, what, depthM * kMToCm, groundZCm());
    return fmt::format("{}: {} starts {:.1f} cm inside {}", key, what, depthM * kMToCm,
                       describe(a).first);
}

std::optional<std::string> PhysicsWorld::Impl::firstOverlap() {
    // The bodies are apart (firstBodyOverlap): what is left is a vehicle's chassis against a
    // body, another chassis or the ground, from Bullet's own pass (whose contacts also
    // warm-start the first step).
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
    return overlapLine(b, a, depthM);
}

} // namespace snowcap
