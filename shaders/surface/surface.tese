#version 450 core
// Tessellated vertices get the same displacement as the vertex grid, on the same terrain.
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

layout(quads, equal_spacing, ccw) in;
layout(location = 0) in vec2 tcWorldXy[];
layout(location = 0) out vec3 vWorldCm;

void main() {
    vec2 bottom = mix(tcWorldXy[0], tcWorldXy[1], gl_TessCoord.x);
    vec2 top = mix(tcWorldXy[3], tcWorldXy[2], gl_TessCoord.x);
    vec2 worldXy = mix(bottom, top, gl_TessCoord.y);
    vec2 uv = worldToUv(worldXy);
    vec3 world = vec3(worldXy, displacedHeightCm(uv, snowMaskAtUv(uv)));
#if TERRAIN
    world.z += terrainHeightCm(worldXy);
#endif
    vWorldCm = world;
    gl_Position = view.viewProjection * vec4(world, 1.0);
}
