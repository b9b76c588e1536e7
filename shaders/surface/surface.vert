#version 450 core
// SnowSurfacePass, vertex-grid geometry (as in Deformable Terrain): every vertex of a dense grid
// over the region is displaced by the material's displacement (pipeline A); vertices outside the
// region (the skirt to the horizon) stay at the surface. With TERRAIN ([terrain] not flat) every
// vertex, skirt included, stands on the ground's height at its point: the undisturbed top is
// snow.surface_z_cm + the terrain there, and a print sinks from it.
#ifndef TERRAIN
#define TERRAIN 0
#endif
#include "../snow/snow_params.glsl"
#include "../snow/region.glsl"
#include "../snow/snow_mask.glsl"
#include "../snow/displacement.glsl"
#include "../common/view_params.glsl"
#if TERRAIN
#include "../common/terrain.glsl"
#endif

layout(location = 0) in vec2 inOffsetCm; // from the region centre

layout(location = 0) out vec3 vWorldCm;

void main() {
    vec2 worldXy = snow.regionCentreCm + inOffsetCm;
    vec2 uv = worldToUv(worldXy);
    vec3 world = vec3(worldXy, displacedHeightCm(uv, snowMaskAtUv(uv)));
#if TERRAIN
    world.z += terrainHeightCm(worldXy);
#endif
    vWorldCm = world;
    gl_Position = view.viewProjection * vec4(world, 1.0);
}
