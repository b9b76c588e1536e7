#version 450 core
// Deformers lit by the same sun and sky as the snow; with DEFORMER_SHADOWS they also receive
// the deformers' shadow map (their own and each other's).
#include "../snow/snow_params.glsl"
#include "../surface/lighting.glsl"
#if DEFORMER_SHADOWS
#include "../common/shadow_map.glsl"
#endif

layout(location = 0) in vec3 vNormal;
layout(location = 1) in vec3 vWorldCm;
layout(location = 2) flat in uint vColour;
layout(location = 0) out vec4 colour;

// Distinct, muted colours so deformers read as objects against white snow (by the instance's
// index in the frame, so neighbours differ).
const vec3 kAlbedo[5] = vec3[5](vec3(0.45, 0.28, 0.16), vec3(0.62, 0.16, 0.12),
                                vec3(0.18, 0.30, 0.52), vec3(0.25, 0.42, 0.22),
                                vec3(0.50, 0.45, 0.38));

void main() {
    vec3 albedo = kAlbedo[vColour % 5u];
    vec3 normal = normalize(vNormal) * (gl_FrontFacing ? 1.0 : -1.0);
    float lambert = max(dot(normal, snow.sunDirection.xyz), 0.0);
#if DEFORMER_SHADOWS
    // Pushed off the surface along its normal by two shadow texels, so that a lit face does not
    // shadow itself through the map's depth steps (acne).
    float texelCm = 2.0 * shadowMap.shadowTexel.z;
    lambert *= sunVisibility(vWorldCm + normal * texelCm);
#endif
    vec3 lit = albedo * (snow.sunColour.rgb * lambert + snow.skyColour.rgb * (0.5 + 0.5 * normal.z));
    colour = vec4(toDisplay(lit), 1.0);
}
