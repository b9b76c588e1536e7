// The deformers' shadow map of the sun (ShadowPass, src/render/shadow_pass.hpp), sampled by the
// snow and by the deformers. C++ mirror of the block: ShadowParamsBlock.
layout(std140, binding = 2) uniform ShadowParams {
    mat4 worldToShadow; // world cm -> [0, 1]^3 (x, y: map uv; z: depth as stored)
    vec4 shadowTexel;   // 1 / map size, depth bias (stored units), texel size (cm), -
} shadowMap;

// Depth compare with bilinear filtering (2 x 2 texels a tap); border depth 1 = lit outside.
layout(binding = 5) uniform sampler2DShadow deformerShadow;

// 1 = sun visible, 0 = shadowed. PCF: four bilinear compares half a texel around the point,
// a 3 x 3-texel tent, with no branch (llvmpipe would run both sides of one).
float sunVisibility(vec3 worldCm) {
    vec3 p = (shadowMap.worldToShadow * vec4(worldCm, 1.0)).xyz;
    float reference = min(p.z - shadowMap.shadowTexel.y, 1.0);
    float h = 0.5 * shadowMap.shadowTexel.x;
    float visible = 0.25 * (texture(deformerShadow, vec3(p.xy + vec2(-h, -h), reference)) +
                            texture(deformerShadow, vec3(p.xy + vec2(h, -h), reference)) +
                            texture(deformerShadow, vec3(p.xy + vec2(-h, h), reference)) +
                            texture(deformerShadow, vec3(p.xy + vec2(h, h), reference)));
    // A shadow longer than the map (a low sun, growShadowBox's limit) fades out over the map's
    // last 1/32 instead of ending in a cut; past the map everything is lit (border depth 1).
    vec2 inside = min(p.xy, 1.0 - p.xy);
    return mix(1.0, visible, clamp(min(inside.x, inside.y) * 32.0, 0.0, 1.0));
}
