// PhysicsWorld's snowpack support (declared in physics_world.hpp): the heights it takes from the
// sim's state, the window of the state the next read needs (the box around everything that can
// touch the snow by then), and the bearing surface under a point.
#include "physics/bullet_units.hpp"
#include "physics/physics_world_impl.hpp"

#include <glm/common.hpp>
#include <limits>

namespace snowcap {

using bullet::kCmToM;
using bullet::kMToCm;

void PhysicsWorld::setSupport(const SupportColumns& columns) {
    if (!impl_->support || !impl_->support->update(columns, impl_->world.get()))
        return;
    if (columns.window.value_or(wholeWindow(columns.region)) == wholeWindow(columns.region))
        impl_->supportWantsWhole = false;
}

SupportWindow PhysicsWorld::supportWindow(const Region& region, double untilS) const {
    const Impl& w = *impl_;
    if (!w.support)
        return {};
    if (w.supportWantsWhole || !(region == w.support->region()) ||
        lastStepBy(untilS, w.settings.stepHz) < w.step)
        return wholeWindow(region);
    // The boxes (world xy, cm) of what can touch the heightfield, and the fastest point's speed.
    glm::dvec2 low(std::numeric_limits<double>::max()), high(-std::numeric_limits<double>::max());
    double fastestCmS = 0.0;
    const auto add = [&](const btVector3& a, const btVector3& b) {
        low = glm::min(low, glm::dvec2(std::min(a.x(), b.x()), std::min(a.y(), b.y())) * kMToCm);
        high = glm::max(high, glm::dvec2(std::max(a.x(), b.x()), std::max(a.y(), b.y())) * kMToCm);
    };
    const auto speedOf = [](const btRigidBody& body, double reachM) {
        return (double(body.getLinearVelocity().length()) +
                double(body.getAngularVelocity().length()) * reachM) *
               kMToCm;
    };
    for (std::size_t i = 0; i < w.bodies.size(); ++i) {
        if (!w.launched[i] && w.specs[i].launchS > untilS + 1e-9)
            continue; // not in the world by then
        const btRigidBody& body = *w.bodies[i];
        btVector3 a, b, centre;
        body.getAabb(a, b);
        add(a, b);
        btScalar radius = 0;
        body.getCollisionShape()->getBoundingSphere(centre, radius);
        fastestCmS = std::max(fastestCmS, speedOf(body, double(radius + centre.length())));
    }
    for (const auto& v : w.vehicles) {
        btVector3 a, b;
        v->chassis->getAabb(a, b);
        add(a, b);
        // Each suspension ray, from its hard point down its full length, and the wheel about
        // its end (its width; the snow one radius ahead that measureVehicle reads).
        const VehicleSettings& s = v->settings;
        const double rayM = (s.suspensionRestCm + s.suspensionTravelCm + s.wheelRadiusCm) * kCmToM;
        const btScalar aroundM = btScalar((s.wheelRadiusCm + s.wheelWidthCm) * kCmToM);
        const btVector3 around(aroundM, aroundM, aroundM);
        const btVector3 com = v->chassis->getCenterOfMassPosition();
        double reachM = 0.0;
        for (int k = 0; k < v->vehicle->getNumWheels(); ++k) {
            const btWheelInfo::RaycastInfo& ray = v->vehicle->getWheelInfo(k).m_raycastInfo;
            const btVector3 from = ray.m_hardPointWS;
            const btVector3 to = from + ray.m_wheelDirectionWS * btScalar(rayM);
            add(from - around, from + around);
            add(to - around, to + around);
            reachM = std::max(reachM, double((to - com).length() + aroundM));
        }
        fastestCmS = std::max(fastestCmS, speedOf(*v->chassis, reachM));
    }
    if (!(low.x <= high.x))
        return {}; // nothing over the snow
    const double aheadS = std::max(untilS - timeS(), 0.0);
    const double padCm = kSupportPadTexels * region.texelCm() + kSupportPadCm +
                         (2.0 * fastestCmS + w.settings.gravityCmS2 * aheadS) * aheadS;
    const glm::ivec2 first = glm::max(worldToTexel(low - padCm, region), glm::ivec2(0));
    const glm::ivec2 last =
        glm::min(worldToTexel(high + padCm, region), glm::ivec2(region.resolution - 1));
    if (first.x > last.x || first.y > last.y)
        return {}; // all of it beside the region
    return {first, last - first + 1};
}

double PhysicsWorld::supportZCmAt(glm::dvec2 xyCm) const {
    return impl_->support ? impl_->support->bearingZCmAt(xyCm)
                          : impl_->groundZCm() + impl_->terrainCm(xyCm);
}

} // namespace snowcap
