// M_Snow's shading: MF_Landscape_Ground layers and the fake-shadow normals (pipeline B).
// Needs snow_params.glsl, region.glsl, snow_mask.glsl first.
#include "lighting.glsl"
#include "detail_noise.glsl"

// The baked detail (detail_bake.frag; tiling): R fbm, GB its gradient, A a second fbm. One
// bilinear tap a pixel at kDetailCellsPerCm serves every layer: on a CPU rasteriser each tap
// costs about as much as the 8 fbm evaluations it replaces did.
layout(binding = 4) uniform sampler2D landscapeDetail;
const float kDetailCellsPerCm = 0.04;

vec4 landscapeDetailAt(vec2 worldCm) {
    return texture(landscapeDetail, worldCm * (kDetailCellsPerCm / kDetailPeriod));
}

// The landscape's own normal: gentle bumps in the snow layer, scaled by detail strength
// (groundColour.w). With strength 0 it is exactly +Z. The slope is the fbm's change over 2 cm
// either side (its gradient, baked in GB).
vec3 groundNormal(vec4 detail) {
    float strength = snow.groundColour.w;
    if (strength <= 0.0)
        return vec3(0.0, 0.0, 1.0);
    const float e = 2.0 * kDetailCellsPerCm; // 2 cm in lattice cells
    vec2 gradient = (detail.gb - 0.5) * 6.0;  // kGradientRange of detail_bake.frag
    vec2 d = 2.0 * e * gradient;
    return normalize(vec3(-d * strength * 4.0, 1.0));
}

// ---- pipeline B: Snow_Mask -> HeightToNormal (or Sobel) -> BlendAngleCorrectedNormals -> Lerp

// Print height in cm at uv: 0 on untouched snow, -(TGH - TGL) x displacement in a full print,
// plus the rim (rims = "on") so berms shade like the geometry they raise.
float printHeightCm(vec2 uv) {
#if GROUND_PRINTS
    // The snow's relief on the ground's own: the print in the mud under it.
    return snowpackDepthCm(uv) - sp.settle.w - groundPrintCm(uv);
#elif SNOWPACK
    return snowpackDepthCm(uv) - sp.settle.w; // the snow's own relief, rims included
#endif
    float snowMask = snowMaskAtUv(uv);
    return -snowMask * (snow.tgh - snow.tgl) * snow.displacementCm + rimHeightCm(uv, snowMask);
}

// The normal of the print's height field, intensity-scaled, in the surface's frame (Z up).
// `blurred`: the baked blur and its slope (BLUR_SLOPE), else unused. `crevice` (0..1): how far
// the pixel lies below the mean of the filter's neighbours, per unit of their distance: the
// height field's concavity from the taps the normal already takes, highest at the foot of a
// wall and at the bottom of a print narrow enough for both walls to reach it.
vec3 printNormal(vec2 uv, vec3 blurred, float snowMask, out float crevice) {
    float texelUv = 1.0 / snow.resolution;
    float texelCm = snow.orthoWidthCm / snow.resolution;
    float depthCm = (snow.tgh - snow.tgl) * snow.displacementCm;
    vec2 slope;
    float concavityCm;
    float spacingCm;
#if BLUR_SLOPE && !NORMALS_SOBEL
    // HeightToNormalSmooth without its four taps: the blurred value 1.5 texels either side is
    // continued linearly from the baked slope, then saturated and differenced as the taps
    // would be (exact wherever the blur is linear over 3 texels).
    float k = snow.maskMulti;
    vec2 ahead = clamp((blurred.x + 1.5 * blurred.yz) * k, 0.0, 1.0);
    vec2 behind = clamp((blurred.x - 1.5 * blurred.yz) * k, 0.0, 1.0);
    float fade = edgeFade(uv);
    slope = -(ahead - behind) * (snow.tgh - snow.tgl) * snow.displacementCm * fade;
    concavityCm = (snowMask - 0.25 * fade * (ahead.x + ahead.y + behind.x + behind.y)) * depthCm;
    spacingCm = 1.5 * texelCm;
#if RIMS
    float e = 1.5 * texelUv;
    slope.x += rimHeightCm(uv + vec2(e, 0), ahead.x * fade) -
               rimHeightCm(uv - vec2(e, 0), behind.x * fade);
    slope.y += rimHeightCm(uv + vec2(0, e), ahead.y * fade) -
               rimHeightCm(uv - vec2(0, e), behind.y * fade);
#endif
    slope /= 2.0 * 1.5 * texelCm;
#elif !NORMALS_SOBEL
        // HeightToNormalSmooth: central differences 1.5 texels either side of the pixel.
        float e = 1.5 * texelUv;
        float east = printHeightCm(uv + vec2(e, 0)), west = printHeightCm(uv - vec2(e, 0));
        float north = printHeightCm(uv + vec2(0, e)), south = printHeightCm(uv - vec2(0, e));
        slope = vec2(east - west, north - south) / (2.0 * 1.5 * texelCm);
#if SNOWPACK
        float centre = printHeightCm(uv);
#else
        float centre = -snowMask * depthCm;
#endif
#if RIMS
        centre += rimHeightCm(uv, snowMask);
#endif
        concavityCm = 0.25 * (east + west + north + south) - centre;
        spacingCm = 1.5 * texelCm;
#else
        // Sobel on the 3 x 3 texel neighbourhood.
        float h[9];
        for (int j = -1; j <= 1; ++j)
            for (int i = -1; i <= 1; ++i)
                h[(j + 1) * 3 + (i + 1)] = printHeightCm(uv + vec2(i, j) * texelUv);
        slope.x = (h[2] + 2.0 * h[5] + h[8]) - (h[0] + 2.0 * h[3] + h[6]);
        slope.y = (h[6] + 2.0 * h[7] + h[8]) - (h[0] + 2.0 * h[1] + h[2]);
        slope /= 8.0 * texelCm;
        concavityCm = 0.25 * (h[1] + h[3] + h[5] + h[7]) - h[4];
        spacingCm = texelCm;
#endif
    crevice = clamp(concavityCm / spacingCm, 0.0, 1.0);
    return normalize(vec3(-slope * snow.normalIntensity, 1.0));
}

// BlendAngleCorrectedNormals: reoriented normal mapping of `detail` onto `base` (both Z up).
vec3 blendAngleCorrected(vec3 base, vec3 detail) {
    vec3 t = base + vec3(0.0, 0.0, 1.0);
    vec3 u = detail * vec3(-1.0, -1.0, 1.0);
    return normalize(t * dot(t, u) / t.z - u);
}

// The landscape's normal MF_Landscape_Ground starts from: on a terrain (TERRAIN) the ground's
// slope with the snow's bumps blended onto it, angle-corrected (blendAngleCorrected), as
// the write-up's ground layer blends the Landscape's normal with its detail; else the bumps.
vec3 landscapeNormal(vec4 detail, vec2 uv) {
#if TERRAIN
    vec2 worldCm = snow.regionCentreCm + (uv - 0.5) * snow.orthoWidthCm;
    return blendAngleCorrected(terrainNormal(worldCm), groundNormal(detail));
#else
    return groundNormal(detail);
#endif
}

// The normal M_Snow outputs: Lerp(ground, blended, Alpha = Snow_Mask). A rim (rims = "on")
// stands on untouched snow, where Snow_Mask is 0, so it brings its own alpha: full where it
// is more than a few percent of its crest high.
// `crevice`: printNormal's concavity (0 where the filter is skipped).
vec3 snowNormal(vec4 detail, vec2 uv, float snowMask, vec3 blurred, out float crevice) {
    crevice = 0.0;
    vec3 ground = landscapeNormal(detail, uv);
    float alpha = snowMask;
#if SNOWPACK
    alpha = insideRegion(uv) ? edgeFade(uv) : 0.0; // the relief is everywhere, rims too
#endif
#if RIMS
    if (snowMask < 1.0)
        alpha = max(alpha, smoothstep(0.0, 0.05 * snow.rimHeightCm, rimHeightCm(uv, snowMask)));
#endif
    if (alpha <= 0.0)
        return ground;
    vec3 blended = blendAngleCorrected(ground, printNormal(uv, blurred, snowMask, crevice));
    return normalize(mix(ground, blended, alpha));
}


// ---- layers ---------------------------------------------------------------------------------

#ifndef GROUND_TEXTURE
#define GROUND_TEXTURE 0
#endif
#if GROUND_TEXTURE
// [ground] kind = "texture" (snow/ground_texture.hpp): the ground layer's albedo is its file's
// colour (sRGB, sampled linear, mipmapped), one repeat every texture_tile_cm from the world
// origin (groundOrCrevice.w: repeats per cm). The texture is the ground's detail: the baked
// noise does not vary it.
layout(binding = 8) uniform sampler2D groundTexture;
vec3 groundAlbedo(vec4 detail, vec2 worldCm) {
    return texture(groundTexture, worldCm * snow.groundOrCrevice.w).rgb;
}
#else
vec3 groundAlbedo(vec4 detail, vec2 worldCm) {
    return snow.groundColour.rgb * (0.75 + 0.5 * detail.r);
}
#endif

// What every layer set shares once its albedo is chosen: subsurface colour, occlusion and
// roughness of fresh snow, packed snow (packedAlpha) and ground (reveal), from the detail taps.
void layerFinish(inout Layers layers, vec4 detail, float packedAlpha, float reveal,
                 float crevice) {
    layers.subsurface = mix(snow.ssSnow.rgb, snow.ssGround.rgb, reveal);
    float hollow = 1.0 - smoothstep(0.25, 0.75, detail.r);
    vec3 occlusion = mix(vec3(1.0), vec3(snow.snowPackedOr.x, snow.snowPackedOr.z,
                                         snow.groundOrCrevice.x), hollow);
    vec3 roughness = vec3(snow.snowPackedOr.y, snow.snowPackedOr.w, snow.groundOrCrevice.y) *
                     (0.9 + 0.2 * detail.a);
    layers.occlusion = mix(mix(occlusion.x, occlusion.y, packedAlpha), occlusion.z, reveal) *
                       (1.0 - snow.groundOrCrevice.z * crevice);
    layers.roughness = mix(mix(roughness.x, roughness.y, packedAlpha), roughness.z, reveal);
}

// MF_Landscape_Ground: fresh snow, packed snow in prints, ground where a deep print reaches it.
// Each layer's OR comes from the same baked tap as its colour: occlusion reaches the layer's
// value (look.*_or[0]) in the detail's hollows (low R) and 1 on its crests; roughness is the
// layer's value varied by +-10 % with the second fbm (A). `crevice` darkens the ambient at the
// print's concave feet by up to look.crevice_occlusion.
Layers landscapeLayers(vec4 detail, vec2 worldCm, float snowMask, float crevice) {
    vec3 fresh = snow.snowColourWrap.rgb * (0.95 + 0.08 * detail.r);
    vec3 packedSnow = snow.packedColourReveal.rgb * (0.94 + 0.1 * detail.a);
    vec3 ground = groundAlbedo(detail, worldCm);
    float packedAlpha = smoothstep(0.0, 0.7, snowMask);
    // The ground shows only in patches at the bottom of full prints, where the layer height
    // noise says the snow was thinnest.
    float thinSnow = smoothstep(0.55, 0.75, detail.a);
    float reveal = snow.packedColourReveal.w < 1.0
                       ? smoothstep(snow.packedColourReveal.w, 1.0, snowMask) * thinSnow
                       : 0.0;
    Layers layers;
    layers.albedo = mix(mix(fresh, packedSnow, packedAlpha), ground, reveal);
    layerFinish(layers, detail, packedAlpha, reveal, crevice);
    return layers;
}

#if GROUND_PRINTS
// How much of the pixel is a puddle: water held in a print in the mud (at most the print's
// volume, 10 kg/m2 a cm; weather_laws.glsl printHoldsKgM2) where the snow over it is gone,
// full from 3 kg/m2 (3 mm standing). `state`: snowpackStateAt(uv), so the taps are shared.
float puddleShare(vec4 state) {
    float held = min(state.b, 10.0 * state.a);
    return smoothstep(0.0, 3.0, held) * (1.0 - smoothstep(0.0, 1.0, state.r));
}
// The puddle's surface is water, level: the normal goes to +Z with its share.
vec3 puddleNormal(vec3 normal, vec2 uv) {
    float puddle = insideRegion(uv) ? puddleShare(snowpackStateAt(uv)) * edgeFade(uv) : 0.0;
    return normalize(mix(normal, vec3(0.0, 0.0, 1.0), puddle));
}
#endif

#if SNOWPACK
// The snowpack's layers, from its state: snow packed from the initial density towards
// max_density takes the packed layer (look.packed_colour: bluer; look.packed_or: smoother, a
// little glossier); liquid water darkens it (wet snow, up to 40 % at 5 kg/m2 and more); the
// ground shows as the depth goes to 0 over the last 3 cm.
Layers snowpackLayers(vec4 detail, vec2 worldCm, vec2 uv, float crevice) {
    vec4 state = snowpackStateAt(uv);
    float depth = snowpackDepthCm(uv);
    float density = state.r > 0.01 ? state.g / (0.01 * state.r) : sp.density.x; // mass / depth
    float packedAlpha = insideRegion(uv)
                            ? smoothstep(sp.density.x, sp.density.y, density) * edgeFade(uv)
                            : 0.0;
    float wet = clamp(state.b / 5.0, 0.0, 1.0);
    float reveal = 1.0 - smoothstep(0.0, 3.0, depth);
    vec3 fresh = snow.snowColourWrap.rgb * (0.95 + 0.08 * detail.r);
    vec3 packedSnow = snow.packedColourReveal.rgb * (0.94 + 0.1 * detail.a);
    // The ground ([ground]): water left in the column darkens it by its kind's share (0 for
    // "colour": the layer as it always was).
    vec3 ground = groundAlbedo(detail, worldCm) * (1.0 - snow.ssGround.w * wet);
    Layers layers;
    vec3 snowAlbedo = mix(fresh, packedSnow, packedAlpha) * (1.0 - 0.4 * wet);
    layers.albedo = mix(snowAlbedo, ground, reveal);
    layerFinish(layers, detail, packedAlpha, reveal, crevice);
#if GROUND_PRINTS
    // Water standing in a print: darker than the wet mud under it and glossy (water's
    // roughness; its F0, 0.02, is about the snow's that the lobe takes).
    float puddle = insideRegion(uv) ? puddleShare(state) * edgeFade(uv) : 0.0;
    layers.albedo = mix(layers.albedo, ground * 0.4, puddle);
    layers.roughness = mix(layers.roughness, 0.06, puddle);
    layers.occlusion = mix(layers.occlusion, 1.0, puddle); // a level surface: no hollows
#endif
    return layers;
}
#endif
