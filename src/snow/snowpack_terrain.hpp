#pragma once
// The ground under a snowpack sim over [terrain] (docs/snowpack.md, "Slopes"): its height at
// every texel centre of the sim's region, texel-aligned with the state (row 0 first, as the
// state is read back and uploaded), and the initial cover that follows it. SnowpackSim keeps
// the heights as an R32F image that slump reads (shaders/snowpack/slump.comp, built with
// SNOWPACK_TERRAIN); SnowpackReference keeps them as floats. Over flat ground there are none:
// slump and the initial column are what they were without terrain.

#include "core/snow_math.hpp"
#include "core/snowpack_laws.hpp"
#include "core/weather_laws.hpp"

#include <span>
#include <vector>

namespace snowcap {

class HeightField;

// The terrain's height (cm) at each texel centre of `region`, as the capture samples it
// (texelCentreToWorld, bilinear): size x size floats, row 0 first.
std::vector<float> snowpackGroundCm(const HeightField& terrain, const Region& region);

// The ground's steepest rise at texel (x, y) as a tangent: the larger of its gradient (central
// differences, one-sided on the border) and its steepest step to a 4-neighbour, over texelCm.
// The step catches a cliff between two texels that the gradient averages away; the gradient
// catches a face diagonal to the grid, which the steps see shallower by up to sqrt 2.
float groundSlopeTan(std::span<const float> groundCm, int size, float texelCm, int x, int y);

// The ground's part of the wind's terrain weighting at each texel centre of `region`
// (WindTerrain, core/weather_laws.hpp; MicroMet's Omega_s and Omega_c of the ground), size x size,
// row 0 first. The slope is the field's gradient by central differences half a texel either
// side; the curvature MicroMet's four-direction form over `curvatureLengthCm` (eta), from the
// field itself, so it reaches past the region's border as the wind does. Each is scaled by the
// largest over the region (MicroMet scales by its domain's largest): every term 0 on ground
// without slope or curvature.
std::vector<WindTerrain> windTerrainTerms(const HeightField& terrain, const Region& region,
                                          double curvatureLengthCm);

// The state a region starts with: the initial column everywhere, or with `followsSlope` each
// texel's depth from coverDepthCm (the holding depth of its slope, 0 above the angle of repose
// of the initial density) at the initial density. `groundCm` empty: flat, the initial column.
std::vector<SnowColumn> initialCover(std::span<const float> groundCm, int size,
                                     const SnowpackConstants& c, bool followsSlope);

} // namespace snowcap
