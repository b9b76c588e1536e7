// Light and display shared by every lit pass (snow, deformers, sky): the layer struct,
// wrap/subsurface lighting and the tone curve. Needs snow_params.glsl first.

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
