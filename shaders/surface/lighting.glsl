// Light and display shared by every lit pass (snow, deformers, sky): value noise for the
// procedural layers, the layer struct, wrap/subsurface lighting and the tone curve.
// Needs snow_params.glsl first.

// ---- procedural layer detail (deterministic value noise; no texture files) ----------------
float hash12(vec2 p) {
    vec3 p3 = fract(vec3(p.xyx) * 0.1031);
    p3 += dot(p3, p3.yzx + 33.33);
    return fract((p3.x + p3.y) * p3.z);
}

float valueNoise(vec2 p) {
    vec2 i = floor(p), f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    return mix(mix(hash12(i), hash12(i + vec2(1, 0)), u.x),
               mix(hash12(i + vec2(0, 1)), hash12(i + vec2(1, 1)), u.x), u.y);
}

float fbm(vec2 p) {
    return 0.5 * valueNoise(p) + 0.3 * valueNoise(p * 2.13 + 17.0) + 0.2 * valueNoise(p * 4.37 - 5.0);
}

struct Layers {
    vec3 albedo;
    vec3 subsurface;
};

// Sun with wrap lighting (the light that wraps past the terminator is tinted by the layer's
// subsurface colour: SS_Snow / SS_Ground), plus sky ambient from above. No shadows: the snow
// casts none, the normals carry the print's shading.
vec3 shade(Layers layers, vec3 normal) {
    vec3 toSun = snow.sunDirection.xyz;
    float wrap = snow.snowColourWrap.w;
    float nDotL = dot(normal, toSun);
    float lambert = max(nDotL, 0.0);
    float wrapped = max((nDotL + wrap) / (1.0 + wrap), 0.0);
    vec3 sun = snow.sunColour.rgb;
    vec3 direct = layers.albedo * sun * lambert;
    vec3 scattered = layers.albedo * layers.subsurface * sun * max(wrapped - lambert, 0.0);
    vec3 ambient = layers.albedo * snow.skyColour.rgb * (0.6 + 0.4 * normal.z);
    return direct + scattered + ambient;
}

// Filmic tone curve (Narkowicz's ACES fit) and sRGB encoding: the PNGs are 8-bit sRGB.
vec3 toDisplay(vec3 linear) {
    vec3 x = linear * 0.8;
    vec3 mapped = clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
    return mix(12.92 * mapped, 1.055 * pow(mapped, vec3(1.0 / 2.4)) - 0.055,
               step(0.0031308, mapped));
}
