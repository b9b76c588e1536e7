// Light and display shared by every lit pass (snow, deformers, sky): the layer struct,
// wrap/subsurface lighting, the GGX lobe and the tone curve. Needs snow_params.glsl first.
// Compiled switches (SurfaceVariant): SPECULAR (the GGX lobe and the Fresnel split it needs).

#ifndef SPECULAR
#define SPECULAR 0
#endif

struct Layers {
    vec3 albedo;
    vec3 subsurface;
    float occlusion; // ambient light left (1 = none occluded): baked hollows x crevice
    float roughness; // GGX (perceptual; alpha = roughness^2)
};

// Fresh and packed snow are ice, about 1.31: F0 = ((n - 1) / (n + 1))^2 = 0.018.
const float kSnowF0 = 0.018;

float fresnelSchlick(float cosTheta) {
    float m = 1.0 - clamp(cosTheta, 0.0, 1.0);
    float m2 = m * m;
    return kSnowF0 + (1.0 - kSnowF0) * m2 * m2 * m;
}

// The sun's GGX lobe (Trowbridge-Reitz D, height-correlated Smith visibility, Schlick F),
// multiplied by n.l: the light it reflects towards the eye per unit sun colour.
float ggxSun(vec3 n, vec3 toEye, vec3 toSun, float roughness) {
    float nDotL = max(dot(n, toSun), 0.0);
    float nDotV = max(dot(n, toEye), 1e-4);
    vec3 h = normalize(toSun + toEye);
    float nDotH = max(dot(n, h), 0.0);
    float a = max(roughness * roughness, 0.002);
    float a2 = a * a;
    float d = nDotH * nDotH * (a2 - 1.0) + 1.0;
    float distribution = a2 / (3.14159265 * d * d);
    float lambdaV = nDotL * sqrt(nDotV * nDotV * (1.0 - a2) + a2);
    float lambdaL = nDotV * sqrt(nDotL * nDotL * (1.0 - a2) + a2);
    float visibility = 0.5 / max(lambdaV + lambdaL, 1e-5);
    return distribution * visibility * fresnelSchlick(dot(h, toEye)) * nDotL;
}

// Sun with wrap lighting (the light that wraps past the terminator is tinted by the layer's
// subsurface colour: SS_Snow / SS_Ground), plus sky ambient from above. `sunVisible` is the
// deformers' shadow (1 = lit; the snow casts none). With SPECULAR the sun and the sky also
// reflect off the surface, and what they reflect is taken from the diffuse and the wrap
// (1 - F at the eye), so the sum never exceeds what arrives.
vec3 shade(Layers layers, vec3 normal, vec3 toEye, float sunVisible) {
    vec3 toSun = snow.sunDirection.xyz;
    float wrap = snow.snowColourWrap.w;
    float nDotL = dot(normal, toSun);
    float lambert = max(nDotL, 0.0);
    float wrapped = max((nDotL + wrap) / (1.0 + wrap), 0.0);
    vec3 sun = snow.sunColour.rgb * sunVisible;
    vec3 direct = layers.albedo * sun * lambert;
    vec3 scattered = layers.albedo * layers.subsurface * sun * max(wrapped - lambert, 0.0);
    vec3 ambient = layers.albedo * snow.skyColour.rgb * (0.6 + 0.4 * normal.z) *
                   layers.occlusion;
#if SPECULAR
    float fresnelEye = fresnelSchlick(dot(normal, toEye));
    vec3 specular = sun * ggxSun(normal, toEye, toSun, layers.roughness);
    // The sky in the mirror direction, dimmed by roughness (a rough lobe sees the darker
    // horizon too) and by the occlusion.
    vec3 skySpecular = snow.skyColour.rgb * fresnelEye * layers.occlusion *
                       (1.0 - 0.5 * layers.roughness);
    return (direct + scattered + ambient) * (1.0 - fresnelEye) + specular + skySpecular;
#else
    return direct + scattered + ambient;
#endif
}

// Filmic tone curve (Narkowicz's ACES fit) and sRGB encoding: the PNGs are 8-bit sRGB.
vec3 toDisplay(vec3 linear) {
    vec3 x = linear * 0.8;
    vec3 mapped = clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
    return mix(12.92 * mapped, 1.055 * pow(mapped, vec3(1.0 / 2.4)) - 0.055,
               step(0.0031308, mapped));
}
