#version 450 core
// SnowSurfacePass, vertex-grid geometry (as in Deformable Terrain): every vertex of a dense grid
// over the region is displaced by the material's displacement (pipeline A); vertices outside the
// region (the flat skirt to the horizon) stay at the surface.
#include "../snow/snow_params.glsl"
#include "../snow/region.glsl"
#include "../snow/snow_mask.glsl"
#include "../snow/displacement.glsl"
#include "../common/view_params.glsl"

layout(location = 0) in vec2 inOffsetCm; // from the region centre

layout(location = 0) out vec3 vWorldCm;

void main() {
    vec2 worldXy = snow.regionCentreCm + inOffsetCm;
    vec2 uv = worldToUv(worldXy);
    vec3 world = vec3(worldXy, displacedHeightCm(uv, snowMaskAtUv(uv)));
    vWorldCm = world;
    gl_Position = view.viewProjection * vec4(world, 1.0);
}
