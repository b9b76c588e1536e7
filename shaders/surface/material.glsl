// M_Snow's shading: MF_Landscape_Ground layers and the fake-shadow normals (pipeline B).
// Needs snow_params.glsl, region.glsl, snow_mask.glsl first.
#include "lighting.glsl"

// The landscape's own normal: gentle bumps in the snow layer, scaled by detail strength
// (groundColour.w). With strength 0 it is exactly +Z.
vec3 groundNormal(vec2 worldCm) {
    float strength = snow.groundColour.w;
    if (strength <= 0.0)
        return vec3(0.0, 0.0, 1.0);
    const float e = 2.0; // cm
    vec2 p = worldCm * 0.03;
    float dx = fbm(p + vec2(e * 0.03, 0.0)) - fbm(p - vec2(e * 0.03, 0.0));
    float dy = fbm(p + vec2(0.0, e * 0.03)) - fbm(p - vec2(0.0, e * 0.03));
    return normalize(vec3(-dx * strength * 4.0, -dy * strength * 4.0, 1.0));
}

// ---- pipeline B: Snow_Mask -> HeightToNormal (or Sobel) -> BlendAngleCorrectedNormals -> Lerp

// Print height in cm at uv: 0 on untouched snow, -(TGH - TGL) x displacement in a full print,
// plus the rim (rims = "on") so berms shade like the geometry they raise.
float printHeightCm(vec2 uv) {
    float snowMask = snowMaskAtUv(uv);
    return -snowMask * (snow.tgh - snow.tgl) * snow.displacementCm + rimHeightCm(uv, snowMask);
}

// The normal of the print's height field, intensity-scaled, in the surface's frame (Z up).
vec3 printNormal(vec2 uv) {
    float texelUv = 1.0 / snow.resolution;
    float texelCm = snow.orthoWidthCm / snow.resolution;
    vec2 slope;
#if !NORMALS_SOBEL
        // HeightToNormalSmooth: central differences 1.5 texels either side of the pixel.
        float e = 1.5 * texelUv;
        slope.x = printHeightCm(uv + vec2(e, 0)) - printHeightCm(uv - vec2(e, 0));
        slope.y = printHeightCm(uv + vec2(0, e)) - printHeightCm(uv - vec2(0, e));
        slope /= 2.0 * 1.5 * texelCm;
#else
        // Sobel on the 3 x 3 texel neighbourhood.
        float h[9];
        for (int j = -1; j <= 1; ++j)
            for (int i = -1; i <= 1; ++i)
                h[(j + 1) * 3 + (i + 1)] = printHeightCm(uv + vec2(i, j) * texelUv);
        slope.x = (h[2] + 2.0 * h[5] + h[8]) - (h[0] + 2.0 * h[3] + h[6]);
        slope.y = (h[6] + 2.0 * h[7] + h[8]) - (h[0] + 2.0 * h[1] + h[2]);
        slope /= 8.0 * texelCm;
#endif
    return normalize(vec3(-slope * snow.normalIntensity, 1.0));
}

// BlendAngleCorrectedNormals: reoriented normal mapping of `detail` onto `base` (both Z up).
vec3 blendAngleCorrected(vec3 base, vec3 detail) {
    vec3 t = base + vec3(0.0, 0.0, 1.0);
    vec3 u = detail * vec3(-1.0, -1.0, 1.0);
    return normalize(t * dot(t, u) / t.z - u);
}

// The normal M_Snow outputs: Lerp(ground, blended, Alpha = Snow_Mask). A rim (rims = "on")
// stands on untouched snow, where Snow_Mask is 0, so it brings its own alpha: full where it
// is more than a few percent of its crest high.
vec3 snowNormal(vec2 worldCm, vec2 uv, float snowMask) {
    vec3 ground = groundNormal(worldCm);
    float alpha = snowMask;
#if RIMS
    if (snowMask < 1.0)
        alpha = max(alpha, smoothstep(0.0, 0.05 * snow.rimHeightCm, rimHeightCm(uv, snowMask)));
#endif
    if (alpha <= 0.0)
        return ground;
    vec3 blended = blendAngleCorrected(ground, printNormal(uv));
    return normalize(mix(ground, blended, alpha));
}


// ---- layers ---------------------------------------------------------------------------------

// MF_Landscape_Ground: fresh snow, packed snow in prints, ground where a deep print reaches it.
Layers landscapeLayers(vec2 worldCm, float snowMask) {
    float grain = fbm(worldCm * 0.05);
    vec3 fresh = snow.snowColourWrap.rgb * (0.95 + 0.08 * grain);
    vec3 packedSnow = snow.packedColourReveal.rgb * (0.94 + 0.1 * fbm(worldCm * 0.11 + 3.0));
    vec3 ground = snow.groundColour.rgb * (0.75 + 0.5 * fbm(worldCm * 0.07 - 8.0));
    float packedAlpha = smoothstep(0.0, 0.7, snowMask);
    // The ground shows only in patches at the bottom of full prints, where the layer height
    // noise says the snow was thinnest.
    float thinSnow = smoothstep(0.55, 0.75, fbm(worldCm * 0.04 + 11.0));
    float reveal = snow.packedColourReveal.w < 1.0
                       ? smoothstep(snow.packedColourReveal.w, 1.0, snowMask) * thinSnow
                       : 0.0;
    Layers layers;
    layers.albedo = mix(mix(fresh, packedSnow, packedAlpha), ground, reveal);
    layers.subsurface = mix(snow.ssSnow.rgb, snow.ssGround.rgb, reveal);
    return layers;
}

