#pragma once
// The bundled plants of assets/meshes/ (docs/crowds.md, foliage): built in snowcap's world
// (centimetres, Z up, the root at the origin on z = 0), static meshes that [[foliage]] scatters
// and the wind sways (shaders/common/wind.glsl bends them by height above the root).

#include "scene/mesh.hpp"

namespace snowcap::assets {

// A tuft of 14 grass blades, 38 cm tall, arching out from a small clump; the outer blades
// tips droop to 10-27 cm (10 of the 14), where a gust or a passing foot lowers them into snow.
Mesh grassTuft();
// A small bush, 58 cm tall and 63 x 66 cm across: five branches from one stem, each ending in a
// leaf cluster, the lowest one 16 cm above the ground.
Mesh bush();

} // namespace snowcap::assets
