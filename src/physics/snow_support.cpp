#include "physics/snow_support.hpp"

#include "physics/bullet_units.hpp"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <algorithm>
#include <cmath>

namespace snowcap {

using bullet::kCmToM;
using bullet::kMToCm;

SnowSupport::SnowSupport(const SupportPlan& plan, float groundPrintMaxCm,
                         std::shared_ptr<const HeightField> terrain)
    : plan_(plan), groundPrintMaxCm_(std::max(groundPrintMaxCm, 0.0f)) {
    if (terrain && !terrain->flat())
        terrain_ = std::move(terrain);
    const HeightSpan span = terrain_ ? terrain_->spanCm() : HeightSpan{};
    // The heights may range from the deepest print's bottom to well above the untouched top
    // (ploughed rims, snowfall): the shape's bounds are fixed when it is made, so they are wide.
    minM_ = float((plan.groundZCm + span.lowCm - double(groundPrintMaxCm_) - 1.0) * kCmToM);
    maxM_ = float((plan.groundZCm + span.highCm +
                   std::max(4.0 * plan.snowDepthCm, plan.snowDepthCm + 200.0)) *
                  kCmToM);
    const std::size_t texels = std::size_t(plan.region.resolution) * plan.region.resolution;
    heightsM_.assign(texels, float(plan.initialBearingZCm * kCmToM));
    topCm_.assign(texels, float(plan.groundZCm + plan.snowDepthCm));
    if (terrain_) {
        liftOnTerrain(plan.region);
        for (std::size_t k = 0; k < texels; ++k) {
            heightsM_[k] = float((plan.initialBearingZCm + terrainCm_[k]) * kCmToM);
            topCm_[k] = float(plan.groundZCm + plan.snowDepthCm + terrainCm_[k]);
        }
    }
    build(plan.region);
}

void SnowSupport::liftOnTerrain(const Region& region) {
    const int n = region.resolution;
    terrainCm_.resize(std::size_t(n) * std::size_t(n));
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            terrainCm_[std::size_t(y) * std::size_t(n) + std::size_t(x)] =
                float(terrainCm(texelCentreToWorld({x, y}, region)));
}

SnowSupport::~SnowSupport() = default;

void SnowSupport::build(const Region& region) {
    region_ = region;
    const int n = region.resolution;
    // One vertex per texel centre: they span (n - 1) texels about the region's centre, as
    // Bullet centres its heightfields on their local origin ((min + max) / 2 in z).
    shape_ =
        std::make_unique<btHeightfieldTerrainShape>(n, n, heightsM_.data(), minM_, maxM_, 2, false);
    const btScalar texelM = btScalar(region.texelCm() * kCmToM);
    shape_->setLocalScaling(btVector3(texelM, texelM, 1));
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, shape_.get());
    info.m_startWorldTransform.setIdentity();
    info.m_startWorldTransform.setOrigin(btVector3(btScalar(region.centreCm.x * kCmToM),
                                                   btScalar(region.centreCm.y * kCmToM),
                                                   btScalar(0.5f * (minM_ + maxM_))));
    // As the ground: a contact with it has the body's own restitution and friction.
    info.m_restitution = 1;
    info.m_friction = 1;
    body_ = std::make_unique<btRigidBody>(info);
    body_->setUserIndex(kSnowSupportIndex);
}

bool SnowSupport::update(const SupportColumns& columns, btDynamicsWorld* world) {
    const Region& region = columns.region;
    const SupportWindow whole = wholeWindow(region);
    const SupportWindow window = columns.window.value_or(whole);
    const bool rebuild = !(region == region_);
    const bool prints = !columns.printCm.empty();
    if (region.resolution < 2 || !whole.contains(window) || (rebuild && !(window == whole)) ||
        columns.depthMass.size() != 2 * std::size_t(window.texels()) ||
        (prints && columns.printCm.size() != std::size_t(window.texels())))
        return false;
    if (rebuild && world)
        world->removeRigidBody(body_.get());
    if (rebuild && terrain_)
        liftOnTerrain(region);
    const std::size_t n = std::size_t(region.resolution);
    heightsM_.resize(n * n);
    topCm_.resize(n * n);
    // Row by row into the window's texels; the others keep the heights they last took.
    const float ground = float(plan_.groundZCm), rhoF = float(plan_.finalDensityKgM3);
    std::size_t from = 0;
    for (int y = 0; y < window.size.y; ++y) {
        const std::size_t row = std::size_t(window.origin.y + y) * n + std::size_t(window.origin.x);
        for (int x = 0; x < window.size.x; ++x, ++from) {
            const std::size_t k = row + std::size_t(x);
            const float depth = columns.depthMass[2 * from], mass = columns.depthMass[2 * from + 1];
            // The column stands on the print's bottom (docs/ground.md section 5).
            float base = prints ? ground - columns.printCm[from] : ground;
            if (terrain_)
                base += terrainCm_[k];
            const float bearing = base + bearingHeightCm(depth, mass, rhoF) + kSupportLiftCm;
            heightsM_[k] = std::clamp(float(bearing * kCmToM), minM_, maxM_);
            topCm_[k] = base + depth;
        }
    }
    ++updates_;
    if (rebuild) {
        build(region);
        if (world)
            world->addRigidBody(body_.get());
    }
    return true;
}

int SnowSupport::texelIndex(glm::dvec2 xyCm) const {
    const glm::ivec2 texel = worldToTexel(xyCm, region_);
    const int n = region_.resolution;
    if (texel.x < 0 || texel.y < 0 || texel.x >= n || texel.y >= n)
        return -1;
    return texel.y * n + texel.x;
}

double SnowSupport::topZCmAt(glm::dvec2 xyCm) const {
    const int k = texelIndex(xyCm);
    return k < 0 ? plan_.groundZCm + plan_.snowDepthCm + terrainCm(xyCm)
                 : double(topCm_[std::size_t(k)]);
}

double SnowSupport::bearingZCmAt(glm::dvec2 xyCm) const {
    const int k = texelIndex(xyCm);
    return k < 0 ? plan_.groundZCm + terrainCm(xyCm) : double(heightsM_[std::size_t(k)]) * kMToCm;
}

} // namespace snowcap
