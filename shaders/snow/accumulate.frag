#version 450 core
// PP_Depth_Snow: capture depth -> contact mask; (x contact scale) + previous persistent value;
// x decay; saturate. The per-step amounts (contactScale, stepFactor, refillStep, ageStepS)
// come from the sim's clock (src/core/sim_clock.hpp) through SnowParams.
// Reads:  captureDepth (D32F, window depth = SceneDepth / far), previous (R16F or RGBA16F),
//         captureContact (R16F, contact type code of the nearest deformer; FORMAT_RGBA only)
// Writes: the other buffer of the sim's ping-pong pair.
// Variants: ACCUMULATE_MAX (0: add, the original; 1: max), HALF_SAFE (0: the driver rounds to
// half; 1: exact rounding + zero floor, see docs/pipeline.md), REFILL_LINEAR (0: x stepFactor;
// 1: - refillStep), FORMAT_RGBA (1: G age in seconds, B contact type code, A distance to
// the print that B belongs to; see docs/improvements.md).
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
    // Containment: a NaN/Inf depth counts as "nothing there" and a NaN/Inf or
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
    // Contact timing: what this step adds (contactScale is dt x 60 with "delta_time", exactly
    // 1 at 60 fps and with "per_frame"; max mode above never scales the mask).
    precise float added = mask * snow.contactScale;
#if REFILL_LINEAR
    precise float summed = (added + previousValue) - snow.refillStep;
#else
    precise float summed = (added + previousValue) * snow.stepFactor;
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
    // G age, B type code, A distance in texels to the print the type belongs to (0 on it).
    float age = notFinite(previousTexel.g) ? kMaxAgeS : clamp(previousTexel.g, 0.0, kMaxAgeS);
    float type = notFinite(previousTexel.b) ? 0.0 : clamp(round(previousTexel.b), 0.0, 4.0);
    float distance = 0.0;
    if (mask > 0.0) {
        // Under contact: age 0, and the type of what touches now (the capture's depth test kept
        // the deepest deformer of this texel).
        float code = texelFetch(captureContact, texel, 0).r;
        age = 0.0;
        type = notFinite(code) ? 4.0 : clamp(round(code), 1.0, 4.0);
    } else if (previousValue > 0.0) {
        age = min(age + snow.ageStepS, kMaxAgeS); // a print: keeps its type, ages
    } else {
        // Untouched (or healed) snow within a blur radius of a print takes that print's type
        // and age: the material's blur draws the print out to there, and its shaping must know
        // whose print it is. A distance transform, one texel a step: each texel takes the
        // nearest tagged neighbour (the fresher on a tie) and its distance + 1; past the blur
        // radius, or once the print has healed away, the tag lapses to 0.
        float reach = ceil(snow.rtBlurDistance * snow.resolution) + 2.0;
        ivec2 last = ivec2(snow.resolution) - 1;
        const ivec2 offsets[4] = ivec2[](ivec2(1, 0), ivec2(-1, 0), ivec2(0, 1), ivec2(0, -1));
        type = 0.0;
        age = kMaxAgeS;
        distance = reach + 1.0;
        for (int i = 0; i < 4; ++i) {
            vec4 neighbour = texelFetch(previous, clamp(texel + offsets[i], ivec2(0), last), 0);
            if (notFinite(neighbour.g) || notFinite(neighbour.b) || notFinite(neighbour.a) ||
                neighbour.b < 0.5)
                continue;
            float neighbourDistance = clamp(round(neighbour.a), 0.0, reach + 1.0) + 1.0;
            float neighbourAge = min(clamp(neighbour.g, 0.0, kMaxAgeS) + snow.ageStepS, kMaxAgeS);
            if (neighbourDistance < distance ||
                (neighbourDistance == distance && neighbourAge < age)) {
                distance = neighbourDistance;
                age = neighbourAge;
                type = clamp(round(neighbour.b), 1.0, 4.0);
            }
        }
        if (distance > reach) {
            type = 0.0;
            age = kMaxAgeS;
            distance = 0.0;
        }
    }
    next = vec4(value, age, type, distance);
#else
    next = vec4(value, 0.0, 0.0, 0.0);
#endif
}
