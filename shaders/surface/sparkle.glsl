// Snow sparkle: glints of single ice facets, seeded in world space. Each 1 cm cell of the
// snow holds a facet with probability kSparkleDensity, its place in the cell and its tilt taken
// from a hash of the cell, so a glint stays on its world point as the camera moves (no crawl);
// only its brightness follows the half vector, as a real facet's does. Needs detail_noise.glsl
// (hash12) and snow_params.glsl first. One hash per pixel, no texture.
const float kSparkleCellCm = 1.0;
const float kSparkleDensity = 0.15;

// 1 where a facet sits, 0 elsewhere: a function of the world point only.
float sparkleSeed(vec2 worldCm) {
    vec2 cell = floor(worldCm / kSparkleCellCm);
    float present = step(1.0 - kSparkleDensity, hash12(cell));
    vec2 centre = vec2(hash12(cell + 71.3), hash12(cell + 19.7)) * 0.6 + 0.2;
    return present * step(length(fract(worldCm / kSparkleCellCm) - centre), 0.25);
}

// How much of the glints a pixel keeps for its footprint on the snow: all of them while a
// pixel spans at most half a cell, none from two cells on. A pixel that spans several cells
// point-samples one of them, and which one changes as the camera moves: far glints would
// flicker from frame to frame, so they fade out instead. The footprint is the pixel's step in
// world space (fwidth), the same at any rate the snow is shaded at.
float sparkleFootprintFade(vec2 worldCm) {
    vec2 step = fwidth(worldCm);
    float footprint = max(step.x, step.y);
    return 1.0 - smoothstep(0.5 * kSparkleCellCm, 2.0 * kSparkleCellCm, footprint);
}

// The facet's mirror glint of the sun (per unit sun colour): facets point anywhere in the
// hemisphere around the surface normal, and shine within about 5 degrees of the half vector.
// Packed snow in prints has fewer facets left (x 0.3 at Snow_Mask 1).
vec3 sparkle(vec2 worldCm, vec3 normal, vec3 toEye, float snowMask) {
    vec2 cell = floor(worldCm / kSparkleCellCm);
    vec3 tilt = vec3(hash12(cell + 3.1), hash12(cell + 5.9), hash12(cell + 8.3)) * 2.0 - 1.0;
    vec3 facet = normalize(normal + 1.2 * tilt);
    vec3 h = normalize(snow.sunDirection.xyz + toEye);
    float lobe = pow(max(dot(facet, h), 0.0), 200.0);
    return vec3(sparkleSeed(worldCm) * lobe * 20.0 * (1.0 - 0.7 * snowMask) *
                sparkleFootprintFade(worldCm));
}
