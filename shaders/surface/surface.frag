#version 450 core
// SnowSurfacePass, per pixel: Snow_Mask (per-pixel spiral blur, the UE-faithful reference),
// fake-shadow normals, layers, light.
// view.outputMode: 0 lit colour; debug outputs for tests and docs: 1 persistent value
// (nearest texel), 2 Snow_Mask, 3 height above the surface (cm), 4 normal (xyz), 5 albedo,
// 6 occlusion, 7 roughness, 8 the sun's specular lobe (with the sparkle), 9 the deformers'
// shadow (1 lit), 10 the sparkle's world-space seed (which points can glint).
// Compiled switches besides the snow's: SPECULAR, SPARKLE, SHADOWS, GROUND_TEXTURE,
// GROUND_PRINTS, TERRAIN (SurfaceVariant). With TERRAIN the height output (3) includes the
// terrain's height: it is the point's height above snow.surface_z_cm.
#ifndef DEFERRED
#define DEFERRED 0
#endif
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
#include "material.glsl"
#if SHADOWS
#include "../common/shadow_map.glsl"
#endif
#if SPARKLE
#include "sparkle.glsl"
#endif

#if DEFERRED
// The Shade stage (SnowSurfacePass, SurfaceStage): a full-screen triangle over the low-rate
// target, each pixel's world point taken back from the depth its geometry pass left there.
layout(binding = 6) uniform sampler2D surfaceDepth;

vec3 worldFromDepth() {
    vec2 size = vec2(textureSize(surfaceDepth, 0));
    float depth = texelFetch(surfaceDepth, ivec2(gl_FragCoord.xy), 0).r;
    vec4 ndc = vec4(gl_FragCoord.xy / size * 2.0 - 1.0, depth * 2.0 - 1.0, 1.0);
    vec4 world = view.inverseViewProjection * ndc;
    return world.xyz / world.w;
}
#else
layout(location = 0) in vec3 vWorldCm;
#endif
layout(location = 0) out vec4 colour;

void main() {
#if DEFERRED
    vec3 vWorldCm = worldFromDepth();
#endif
    vec2 uv = worldToUv(vWorldCm.xy);
#if BLUR_SLOPE
    // One tap for Snow_Mask and its slope (r16f: no contact shaping).
    vec3 blurred = blurWithSlope(uv);
    float snowMask = clamp(blurred.x * snow.maskMulti, 0.0, 1.0) * edgeFade(uv);
#else
    vec3 blurred = vec3(0.0);
    float snowMask = snowMaskAtUv(uv);
#endif
    int mode = int(view.outputMode + 0.5);
    if (mode == 1) {
#if NO_SNOW
        colour = vec4(0.0);
        return;
#endif
        ivec2 size = textureSize(persistentBuffer, 0);
        ivec2 texel = clamp(ivec2(uv * vec2(size)), ivec2(0), size - 1);
        colour = vec4(insideRegion(uv) ? texelFetch(persistentBuffer, texel, 0).r : 0.0);
        return;
    }
    if (mode == 2) {
        colour = vec4(snowMask);
        return;
    }
    if (mode == 3) {
        colour = vec4(vWorldCm.z - snow.surfaceZCm);
        return;
    }
    vec4 detail = landscapeDetailAt(vWorldCm.xy);
    float crevice;
    vec3 normal = snowNormal(detail, uv, snowMask, blurred, crevice);
#if GROUND_PRINTS
    normal = puddleNormal(normal, uv);
#endif
    if (mode == 4) {
        colour = vec4(normal, 1.0);
        return;
    }
#if SNOWPACK
    Layers layers = snowpackLayers(detail, vWorldCm.xy, uv, crevice);
#else
    Layers layers = landscapeLayers(detail, vWorldCm.xy, snowMask, crevice);
#endif
    if (mode == 5) {
        colour = vec4(layers.albedo, 1.0);
        return;
    }
    if (mode == 6) {
        colour = vec4(layers.occlusion);
        return;
    }
    if (mode == 7) {
        colour = vec4(layers.roughness);
        return;
    }
#if SHADOWS
    float sunVisible = sunVisibility(vWorldCm);
#else
    float sunVisible = 1.0;
#endif
    if (mode == 9) {
        colour = vec4(sunVisible);
        return;
    }
    vec3 toEye = normalize(view.eyeCm.xyz - vWorldCm);
    vec3 lit = shade(layers, normal, toEye, sunVisible);
#if SPARKLE
    if (mode == 10) {
        colour = vec4(sparkleSeed(vWorldCm.xy));
        return;
    }
    vec3 glints = sparkle(vWorldCm.xy, normal, toEye, snowMask) * snow.sunColour.rgb * sunVisible;
    lit += glints;
#else
    vec3 glints = vec3(0.0);
    if (mode == 10) {
        colour = vec4(0.0);
        return;
    }
#endif
    if (mode == 8) {
#if SPECULAR
        vec3 lobe = snow.sunColour.rgb * sunVisible *
                    ggxSun(normal, toEye, snow.sunDirection.xyz, layers.roughness);
#else
        vec3 lobe = vec3(0.0);
#endif
        colour = vec4(toDisplay(lobe + glints), 1.0);
        return;
    }
    colour = vec4(toDisplay(lit), 1.0);
}
