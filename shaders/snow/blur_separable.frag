#version 450 core
// BlurSeparable (blur = "separable"): the spiral blur's cheap stand-in. A Gaussian with the
// spiral kernel's spread, in two 1-D passes, written at half the buffer's resolution.
// AXIS 0: reads the persistent buffer (binding 2, bilinear, border 0), blurs along x, writes
//         the half-resolution intermediate.
// AXIS 1: reads that intermediate (binding 2), blurs along y, writes the sim's blurred copy,
//         which the material then reads with one bilinear tap, as with the prepass.
// WITH_SLOPE (r16f buffers, whose copy has channels to spare): the passes also carry the
// blurred field's derivative, from derivative-of-Gaussian weights on the same taps, so the
// material gets Snow_Mask's slope from the one tap it reads (shaders/surface/material.glsl).
// AXIS 0 then writes (blur, d blur / dx); AXIS 1 writes (blur, d/dx, d/dy, 0), per texel of
// the full buffer.
// The CPU mirror of the weights is separableBlurSigmaTexels() in src/core/snow_math.hpp; the
// test SeparableBlur.MatchesItsCpuReference mirrors the passes.
#include "snow_params.glsl"

#ifndef AXIS
#define AXIS 0
#endif
#ifndef WITH_SLOPE
#define WITH_SLOPE 0
#endif

layout(binding = 2) uniform sampler2D blurSource;
layout(location = 0) out vec4 blurred;

// The spiral's per-axis variance, in texels^2 of the full buffer: the centre tap and
// `rings` rings of `taps` taps at radii R k / rings, each of weight 1 / (1 + rings taps), give
// sum_k (R k / rings)^2 taps / 2 / N = R^2 taps (rings + 1)(2 rings + 1) / (12 rings N).
// Each output texel also averages 2 x 2 input texels (a bilinear tap halfway between them),
// whose variance, 1/4 per axis, is taken off.
float sigmaTexels() {
    float rings = max(snow.distanceSteps, 1.0);
    float taps = max(snow.radialSteps, 1.0);
    float radius = snow.rtBlurDistance * snow.resolution;
    float variance = radius * radius * taps * (rings + 1.0) * (2.0 * rings + 1.0) /
                     (12.0 * rings * (1.0 + rings * taps));
    return sqrt(max(variance - 0.25, 0.0025));
}

void main() {
    vec2 outputSize = vec2(max(floor(snow.resolution * 0.5), 1.0));
    vec2 uv = gl_FragCoord.xy / outputSize;
    // Taps 2 full-resolution texels apart (one output texel), out to 3 sigma.
    float sigma = sigmaTexels();
    int reach = int(ceil(1.5 * sigma));
#if AXIS == 0
    vec2 stepUv = vec2(2.0 / snow.resolution, 0.0);
#else
    vec2 stepUv = vec2(0.0, 1.0 / outputSize.y);
#endif
    vec2 centre = textureLod(blurSource, uv, 0.0).rg;
    float sum = centre.x;
    float weights = 1.0;
    float falloff = -2.0 / (sigma * sigma); // exp(-(2m)^2 / (2 sigma^2)) = exp(m^2 falloff)
#if WITH_SLOPE
    // d/dx sum G(x_i - x) f_i = sum (d_i / sigma^2) G f_i, d_i = x_i - x = 2m texels.
    float slope = 0.0;   // along this pass's axis
    float carried = centre.y; // AXIS 1: the x slope from pass 0, blurred along y like the value
#endif
    for (int m = 1; m <= reach; ++m) {
        float w = exp(float(m * m) * falloff);
        vec2 ahead = textureLod(blurSource, uv + float(m) * stepUv, 0.0).rg;
        vec2 behind = textureLod(blurSource, uv - float(m) * stepUv, 0.0).rg;
        sum += w * (ahead.x + behind.x);
        weights += 2.0 * w;
#if WITH_SLOPE
        slope += w * (2.0 * float(m) / (sigma * sigma)) * (ahead.x - behind.x);
        carried += w * (ahead.y + behind.y);
#endif
    }
#if WITH_SLOPE
#if AXIS == 0
    blurred = vec4(sum / weights, slope / weights, 0.0, 0.0);
#else
    blurred = vec4(sum / weights, carried / weights, slope / weights, 0.0);
#endif
#else
    // rgba16f: age and contact type are per texel, not blurred: the nearest texel's pass
    // through (the material reads them at the blurred copy's own resolution).
    ivec2 nearest = clamp(ivec2(uv * vec2(textureSize(blurSource, 0))), ivec2(0),
                          textureSize(blurSource, 0) - 1);
    blurred = vec4(sum / weights, texelFetch(blurSource, nearest, 0).gba);
#endif
}
