#pragma once
// Inside the physics module only (Bullet's headers): a snowpack sim's bearing surface as a
// static Bullet heightfield (btHeightfieldTerrainShape), one vertex per texel centre of the
// sim's region, at the bearing law's height (core/support_law.hpp) plus kSupportLiftCm. It
// starts as the untouched snow and takes each state the lab reads back (update); outside the
// region the ground plane holds the bodies. It outlives the Bullet world it is added to (a
// reset builds a fresh world and adds it again, with the heights it last took).

#include "core/support_law.hpp"
#include "physics/support_grid.hpp"
#include "terrain/height_field.hpp"

#include <btBulletDynamicsCommon.h>
#include <glm/vec2.hpp>
#include <memory>
#include <vector>

class btHeightfieldTerrainShape;

namespace snowcap {

// The heightfield's user index on its collision object (the ground plane's is -1, bodies and
// vehicles count from 0).
constexpr int kSnowSupportIndex = -2;

class SnowSupport {
public:
    // `groundPrintMaxCm`: the deepest print the sim's ground takes (groundPrintMaxCm of
    // [ground]; 0: none), how far below the ground a bearing height may lie. On a `terrain`
    // that is not flat the ground under each texel is plan.groundZCm plus the terrain's height
    // at the texel's centre.
    explicit SnowSupport(const SupportPlan& plan, float groundPrintMaxCm = 0.0f,
                         std::shared_ptr<const HeightField> terrain = nullptr);
    ~SnowSupport();
    SnowSupport(const SnowSupport&) = delete;
    SnowSupport& operator=(const SnowSupport&) = delete;

    // The columns of one state: the heights of its window replaced, the others kept (the
    // shape and body made again over the new region if the region or its resolution changed,
    // swapped in `world` if it holds the body; that takes the whole region). Columns of the
    // wrong size, a window outside the region, or a part of another region are ignored: false.
    bool update(const SupportColumns& columns, btDynamicsWorld* world);
    btRigidBody& body() { return *body_; }
    const Region& region() const { return region_; } // of the heights
    // The snow's top (world z, cm) at the texel holding `xyCm`, from the last state taken
    // (the ground's surface, the print's bottom, where the snow has gone); outside the region
    // the untouched top.
    double topZCmAt(glm::dvec2 xyCm) const;
    double bearingZCmAt(glm::dvec2 xyCm) const; // the heightfield's vertex there (cm)
    long long updates() const { return updates_; }

private:
    void build(const Region& region);         // a shape and body over `region`, heights as they are
    void liftOnTerrain(const Region& region); // terrainCm_ at `region`'s texel centres
    double terrainCm(glm::dvec2 xyCm) const {
        return terrain_ ? terrain_->heightCm(xyCm.x, xyCm.y) : 0.0;
    }
    int texelIndex(glm::dvec2 xyCm) const; // -1 outside

    SupportPlan plan_;
    float groundPrintMaxCm_ = 0.0f;
    Region region_{};
    std::vector<float> heightsM_; // the shape reads these (world z, metres)
    std::vector<float> topCm_;    // the snow's top (world z, cm)
    float minM_ = 0.0f, maxM_ = 0.0f;
    std::shared_ptr<const HeightField> terrain_; // null when flat
    std::vector<float> terrainCm_;               // its height at each texel centre
    std::unique_ptr<btHeightfieldTerrainShape> shape_;
    std::unique_ptr<btRigidBody> body_;
    long long updates_ = 0;
};

} // namespace snowcap
