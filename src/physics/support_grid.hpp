#pragma once
// What the physics world's snowpack support is made from (docs/physics.md, section 2): a
// snowpack sim's state as plain arrays, read back from the GPU by the lab (the physics module
// sees no GL). No Bullet.

#include "core/snow_math.hpp"

#include <vector>

namespace snowcap {

// One snowpack state: per texel of `region`, row 0 first (world y rising), x fastest, its depth
// above the ground (cm) and its mass (kg/m2), interleaved: depthMass[2 k], depthMass[2 k + 1].
struct SupportColumns {
    Region region{};
    std::vector<float> depthMass;
};

} // namespace snowcap
