#version 450 core
// Distance-adaptive tessellation levels. Each edge's level depends only on that edge's
// midpoint, so two patches sharing an edge pick the same level and no cracks open.
#ifndef TERRAIN
#define TERRAIN 0
#endif
#include "../common/view_params.glsl"
#include "../snow/snow_params.glsl"
#include "../snow/region.glsl"
#if TERRAIN
#include "../common/terrain.glsl"
#endif

layout(vertices = 4) out;
layout(location = 0) in vec2 vWorldXy[];
layout(location = 0) out vec2 tcWorldXy[];

bool onRegionBorder(vec2 a, vec2 b) {
    vec2 ua = worldToUv(a), ub = worldToUv(b);
    const float e = 1e-4;
    return (abs(ua.x - ub.x) < e && (abs(ua.x) < e || abs(ua.x - 1.0) < e)) ||
           (abs(ua.y - ub.y) < e && (abs(ua.y) < e || abs(ua.y - 1.0) < e));
}

float edgeLevel(vec2 a, vec2 b) {
    // The border is flat (Snow Edge Control fades prints out before it) and the skirt meets it
    // at the patch corners only: one segment there, so both sides share the same vertices.
    if (onRegionBorder(a, b))
        return 1.0;
    vec3 midpoint = vec3(0.5 * (a + b), snow.surfaceZCm);
#if TERRAIN
    midpoint.z += terrainHeightCm(midpoint.xy); // where the edge is on the hill
#endif
    float distanceCm = max(length(midpoint - view.eyeCm.xyz), 1.0);
    // Full detail within the reference distance, falling off as 1 / distance beyond it.
    float level = view.tessellationMaxLevel * view.tessellationReferenceCm / distanceCm;
    return clamp(level, 1.0, view.tessellationMaxLevel);
}

void main() {
    tcWorldXy[gl_InvocationID] = vWorldXy[gl_InvocationID];
    if (gl_InvocationID == 0) {
        // Quad corners: 0 (u0,v0), 1 (u1,v0), 2 (u1,v1), 3 (u0,v1).
        gl_TessLevelOuter[0] = edgeLevel(vWorldXy[3], vWorldXy[0]); // u = 0
        gl_TessLevelOuter[1] = edgeLevel(vWorldXy[0], vWorldXy[1]); // v = 0
        gl_TessLevelOuter[2] = edgeLevel(vWorldXy[1], vWorldXy[2]); // u = 1
        gl_TessLevelOuter[3] = edgeLevel(vWorldXy[2], vWorldXy[3]); // v = 1
        float inner = max(max(gl_TessLevelOuter[0], gl_TessLevelOuter[1]),
                          max(gl_TessLevelOuter[2], gl_TessLevelOuter[3]));
        gl_TessLevelInner[0] = inner;
        gl_TessLevelInner[1] = inner;
    }
}
