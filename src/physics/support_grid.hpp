#pragma once
// What the physics world's snowpack support is made from (docs/physics.md, section 2): a
// snowpack sim's state as plain arrays, read back from the GPU by the lab (the physics module
// sees no GL), whole or the window of it around the bodies and wheels. No Bullet.

#include "core/snow_math.hpp"

#include <glm/vec2.hpp>
#include <optional>
#include <vector>

namespace snowcap {

// A rectangle of a region's texels: [origin, origin + size), row 0 = lowest y. Empty when
// either side is 0 (nothing can touch the support).
struct SupportWindow {
    glm::ivec2 origin{0};
    glm::ivec2 size{0};

    long long texels() const { return size.x <= 0 || size.y <= 0 ? 0 : (long long)size.x * size.y; }
    // Whether every texel of `other` is one of these (an empty one is in any).
    bool contains(const SupportWindow& other) const {
        return other.texels() == 0 ||
               (texels() > 0 && origin.x <= other.origin.x && origin.y <= other.origin.y &&
                other.origin.x + other.size.x <= origin.x + size.x &&
                other.origin.y + other.size.y <= origin.y + size.y);
    }
    bool operator==(const SupportWindow&) const = default;
};

// Every texel of `region`.
inline SupportWindow wholeWindow(const Region& region) {
    return {{0, 0}, {region.resolution, region.resolution}};
}

// One snowpack state, or a window of it: per texel of `window` (row 0 first, world y rising, x
// fastest), its depth above the ground (cm) and its mass (kg/m2), interleaved: depthMass[2 k],
// depthMass[2 k + 1].
struct SupportColumns {
    Region region{};
    std::optional<SupportWindow> window; // none: the whole region
    std::vector<float> depthMass;
    // Where the sim's ground takes prints ([ground] kind = "mud"), per texel of `window` in the
    // same order, the print under the column (cm below the ground, >= 0): the column stands on
    // its bottom. Empty: no print anywhere (the ground is flat).
    std::vector<float> printCm;
};

} // namespace snowcap
