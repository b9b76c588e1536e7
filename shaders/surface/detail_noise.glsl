// The landscape's procedural detail: value noise summed over three octaves (fbm), periodic
// with kDetailPeriod lattice cells so that it can be baked once into a tiling texture
// (detail_bake.frag) instead of being evaluated 24 times a pixel. Deterministic: no files.
const float kDetailPeriod = 32.0;

float hash12(vec2 p) {
    vec3 p3 = fract(vec3(p.xyx) * 0.1031);
    p3 += dot(p3, p3.yzx + 33.33);
    return fract((p3.x + p3.y) * p3.z);
}

// Value noise whose lattice repeats every `period` cells.
float valueNoise(vec2 p, float period) {
    vec2 i = floor(p), f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    vec2 i0 = mod(i, period), i1 = mod(i + 1.0, period);
    return mix(mix(hash12(i0), hash12(vec2(i1.x, i0.y)), u.x),
               mix(hash12(vec2(i0.x, i1.y)), hash12(i1), u.x), u.y);
}

// Octaves at 1, 2 and 4 times the base frequency (whole multiples keep the period).
float fbm(vec2 p) {
    return 0.5 * valueNoise(p, kDetailPeriod) +
           0.3 * valueNoise(p * 2.0 + 17.0, 2.0 * kDetailPeriod) +
           0.2 * valueNoise(p * 4.0 - 5.0, 4.0 * kDetailPeriod);
}
