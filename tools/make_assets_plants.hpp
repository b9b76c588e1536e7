#pragma once
// The bundled plants of assets/meshes/ (docs/crowds.md, foliage): built in snowcap's world
// (centimetres, Z up, the root at the origin on z = 0), static meshes that [[foliage]] scatters
// and the wind sways (shaders/common/wind.glsl bends them by height above the root).

#include "scene/mesh.hpp"

namespace snowcap::assets {

// A tuft of 14 grass blades, 42 cm tall, arching out from a small clump; the outer blades'
// tips droop to 20-30 cm, where a gust or a passing foot lowers them into the snow.
Mesh grassTuft();
// A small bush, 60 cm tall and 70 cm across: five branches from one stem, each ending in a
// leaf cluster, the lowest clusters 15 cm above the ground.
Mesh bush();

} // namespace snowcap::assets
