#version 450 core
// PP_Depth_Snow: capture depth -> contact mask; + previous persistent value; x decay; saturate.
// Reads:  captureDepth (D32F, window depth = SceneDepth / far), previous (R16F or RGBA16F),
//         captureContact (R16F, contact type code of the nearest deformer; FORMAT_RGBA only)
// Writes: the other buffer of the sim's ping-pong pair.
// Variants: ACCUMULATE_MAX (0: add, the original; 1: max), HALF_SAFE (0: the driver rounds to
// half; 1: exact rounding + zero floor, see docs/pipeline.md), REFILL_LINEAR (0: x stepFactor;
// 1: - refillStep), FORMAT_RGBA (1: G age in seconds, B contact type code, see
// docs/improvements.md).
// The CPU reference (src/snow/cpu_reference.cpp) performs the same float operations in the
// same order; `precise` keeps the compiler from fusing them into FMAs.
#include "snow_params.glsl"
#include "half.glsl"

#ifndef REFILL_LINEAR
#define REFILL_LINEAR 0
#endif
#ifndef FORMAT_RGBA
#define FORMAT_RGBA 0
#endif

layout(binding = 0) uniform sampler2D captureDepth;
layout(binding = 1) uniform sampler2D previous;
layout(binding = 3) uniform sampler2D captureContact;

layout(location = 0) out vec4 next;

// NaN or +-Inf, decided on the bits: a compiler may fold `x != x` away, the bits it cannot.
bool notFinite(float x) {
    return (floatBitsToUint(x) & 0x7f800000u) == 0x7f800000u;
}

const float kMaxAgeS = 120.0; // AgeClock::kMaxAgeS

void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    // Containment (issue 9): a NaN/Inf depth counts as "nothing there" and a NaN/Inf or
    // out-of-range previous value as untouched snow, so one bad texel can never become a
    // persistent one.
    float windowDepth = texelFetch(captureDepth, texel, 0).r;
    if (notFinite(windowDepth))
        windowDepth = 1.0;
    vec4 previousTexel = texelFetch(previous, texel, 0);
    float previousValue = notFinite(previousTexel.r) ? 0.0 : clamp(previousTexel.r, 0.0, 1.0);

    precise float sceneDepthCm = windowDepth * snow.captureFarCm;
    precise float normalised = (sceneDepthCm + snow.captureOffsetCm) * snow.invCaptureDistance;
    precise float mask = 1.0 - clamp(normalised, 0.0, 1.0);

#if ACCUMULATE_MAX
#if REFILL_LINEAR
    precise float decayed = max(previousValue - snow.refillStep, 0.0);
#else
    precise float decayed = previousValue * snow.stepFactor;
#endif
    precise float value = max(mask, decayed);
#else
#if REFILL_LINEAR
    precise float summed = (mask + previousValue) - snow.refillStep;
#else
    precise float summed = (mask + previousValue) * snow.stepFactor;
#endif
    precise float value = clamp(summed, 0.0, 1.0);
#endif
    if (notFinite(value)) // only a NaN parameter gets here; still never store it
        value = 0.0;

#if HALF_SAFE
    value = roundToHalfNearestEven(value);
    if (value < snow.zeroFloor)
        value = 0.0;
#endif

#if FORMAT_RGBA
    float age = notFinite(previousTexel.g) ? kMaxAgeS : clamp(previousTexel.g, 0.0, kMaxAgeS);
    float type = notFinite(previousTexel.b) ? 0.0 : clamp(round(previousTexel.b), 0.0, 4.0);
    if (mask > 0.0) {
        // Under contact: age 0, and the type of what touches now (the capture's depth test kept
        // the deepest deformer of this texel).
        float code = texelFetch(captureContact, texel, 0).r;
        age = 0.0;
        type = notFinite(code) ? 4.0 : clamp(round(code), 1.0, 4.0);
    } else {
        age = min(age + snow.ageStepS, kMaxAgeS);
        if (previousValue == 0.0) {
            // Untouched (or healed) snow takes type and age from a fresher neighbour, one texel
            // a step: the material's blur draws a print past its texels, and the shaping there
            // must know whose print it is.
            ivec2 last = ivec2(snow.resolution) - 1;
            const ivec2 offsets[4] = ivec2[](ivec2(1, 0), ivec2(-1, 0), ivec2(0, 1), ivec2(0, -1));
            for (int i = 0; i < 4; ++i) {
                vec4 neighbour = texelFetch(previous, clamp(texel + offsets[i], ivec2(0), last), 0);
                if (notFinite(neighbour.g) || notFinite(neighbour.b) || neighbour.b < 0.5)
                    continue;
                float neighbourAge = min(clamp(neighbour.g, 0.0, kMaxAgeS) + snow.ageStepS, kMaxAgeS);
                if (type < 0.5 || neighbourAge < age) {
                    age = neighbourAge;
                    type = clamp(round(neighbour.b), 1.0, 4.0);
                }
            }
        }
    }
    next = vec4(value, age, type, 0.0);
#else
    next = vec4(value, 0.0, 0.0, 0.0);
#endif
}
