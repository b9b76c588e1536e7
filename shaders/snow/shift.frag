#version 450 core
// RegionShift: a following region (sim.X.region) moved; re-express the sim's buffer in the new
// window so every print stays at its world position.
// Reads:  shiftSource (the sim's current buffer, any format: all four channels move together).
// Writes: the other buffer of the pair; texel t shows old texel t + offsetTexels.
// Variants: SHIFT_BILINEAR 0 (follow_snapped: whole-texel offsets, an exact copy) or 1
// (follow_naive: the fractional offset is resampled bilinearly and smears, the failure the
// switch exists to show). Texels that come from outside the old window read 0, untouched snow:
// nothing wraps around. The CPU reference is shiftBufferCpu() in src/snow/region_shift.cpp.
#include "half.glsl"

layout(binding = 1) uniform sampler2D shiftSource;
layout(location = 0) uniform vec2 offsetTexels;

layout(location = 0) out vec4 shifted;

vec4 fetchOrSnow(ivec2 texel) {
    ivec2 size = textureSize(shiftSource, 0);
    if (any(lessThan(texel, ivec2(0))) || any(greaterThanEqual(texel, size)))
        return vec4(0.0);
    return texelFetch(shiftSource, texel, 0);
}

void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy);
#if SHIFT_BILINEAR
    precise vec2 source = vec2(texel) + offsetTexels;
    vec2 base = floor(source);
    precise vec2 f = source - base;
    ivec2 b = ivec2(base);
    precise vec4 bottom = fetchOrSnow(b) * (1.0 - f.x) + fetchOrSnow(b + ivec2(1, 0)) * f.x;
    precise vec4 top = fetchOrSnow(b + ivec2(0, 1)) * (1.0 - f.x) + fetchOrSnow(b + ivec2(1, 1)) * f.x;
    precise vec4 value = bottom * (1.0 - f.y) + top * f.y;
    // Exact half rounding, so the stored value does not depend on the driver's conversion.
    shifted = vec4(roundToHalfNearestEven(value.r), roundToHalfNearestEven(value.g),
                   roundToHalfNearestEven(value.b), roundToHalfNearestEven(value.a));
#else
    shifted = fetchOrSnow(texel + ivec2(round(offsetTexels)));
#endif
}
