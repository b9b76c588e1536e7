#version 450 core
// PP_Depth_Snow for every sim that shares one capture, in one pass: capture depth -> contact
// mask (once); then per sim (x contact scale) + previous value; x decay; saturate. The capture
// is fetched once whatever the number of sims; each sim has its own output, its own previous
// buffer and its own amounts and switches (acc.outputs[i]).
// Reads:  captureDepth (D32F or D16, window depth = SceneDepth / far), previous[i] (R16F, or
//         RGBA16F with FORMAT_RGBA), captureContact (R16F, contact type code of the nearest
//         deformer; FORMAT_RGBA only)
// Writes: next[i], the other buffer of sim i's ping-pong pair.
// Compiled in: OUTPUTS (1..8) and FORMAT_RGBA (1: G age in seconds, B contact type code, A
// distance to the print that B belongs to; see docs/improvements.md), one format a pass: a CPU
// rasteriser runs a uniform branch's both sides, and the rgba16f tags would cost every r16f
// output their neighbour fetches. Per sim, uniforms, so sims whose modes differ share the pass:
// mode x accumulate max (0: add, the original), y refill linear (0: x stepFactor; 1: -
// refillStep), z half safe (0: the driver rounds to half; 1: exact rounding + zero floor, see
// docs/pipeline.md). A pass of one output has its modes compiled in instead (FIXED_MODE with
// FIXED_MAX, FIXED_LINEAR, FIXED_HALF_SAFE): a lone sim pays for no branch it does not take.
// The per-step amounts (contactScale, stepFactor, refillStep, ageStepS) come from each sim's
// clock (src/core/sim_clock.hpp). The CPU reference (src/snow/cpu_reference.cpp) performs the
// same float operations in the same order; `precise` keeps the compiler from fusing them into
// FMAs.
#include "../common/finite.glsl"
#include "../common/shared_constants.glsl"
#include "half.glsl"

#ifndef OUTPUTS
#define OUTPUTS 1
#endif
#ifndef FORMAT_RGBA
#define FORMAT_RGBA 0
#endif
#if defined(FIXED_MODE) && FIXED_MODE
#define IS_MAX(o) (FIXED_MAX != 0)
#define IS_LINEAR(o) (FIXED_LINEAR != 0)
#define IS_HALF_SAFE(o) (FIXED_HALF_SAFE != 0)
#else
#define IS_MAX(o) (o.mode.x != 0u)
#define IS_LINEAR(o) (o.mode.y != 0u)
#define IS_HALF_SAFE(o) (o.mode.z != 0u)
#endif

struct AccumulateOutput {
    vec4 amounts; // contactScale, stepFactor, refillStep, zeroFloor
    vec4 tags;    // ageStepS, rtBlurDistance (uv), -, -
    uvec4 mode;   // max, refill linear, half safe, -
};

// C++ mirror: AccumulateBlock in src/snow/snow_sim_group.cpp.
layout(std140, binding = 1) uniform Accumulate {
    vec4 capture; // far cm, offset cm, 1 / capture distance, resolution
    AccumulateOutput outputs[8];
} acc;

layout(binding = 0) uniform sampler2D captureDepth;
layout(binding = 3) uniform sampler2D captureContact;
layout(binding = 4) uniform sampler2D previous[OUTPUTS];

layout(location = 0) out vec4 next[OUTPUTS];



#if FORMAT_RGBA
// G, B, A of an rgba16f texel: age, contact type, distance to the print the type belongs to.
vec3 tagsOf(sampler2D previousBuffer, ivec2 texel, vec4 previousTexel, float previousValue,
            float mask, AccumulateOutput o) {
    float age = notFinite(previousTexel.g) ? kMaxAgeS : clamp(previousTexel.g, 0.0, kMaxAgeS);
    float type = notFinite(previousTexel.b) ? 0.0 : clamp(round(previousTexel.b), 0.0, 4.0);
    float distance = 0.0;
    float ageStepS = o.tags.x;
    if (mask > 0.0) {
        // Under contact: age 0, and the type of what touches now (the capture's depth test kept
        // the deepest deformer of this texel).
        float code = texelFetch(captureContact, texel, 0).r;
        age = 0.0;
        type = notFinite(code) ? 4.0 : clamp(round(code), 1.0, 4.0);
    } else if (previousValue > 0.0) {
        age = min(age + ageStepS, kMaxAgeS); // a print: keeps its type, ages
    } else {
        // Untouched (or healed) snow within a blur radius of a print takes that print's type
        // and age: the material's blur draws the print out to there, and its shaping must know
        // whose print it is. A distance transform, one texel a step: each texel takes the
        // nearest tagged neighbour (the fresher on a tie) and its distance + 1; past the blur
        // radius, or once the print has healed away, the tag lapses to 0.
        float resolution = acc.capture.w;
        float reach = ceil(o.tags.y * resolution) + 2.0;
        ivec2 last = ivec2(resolution) - 1;
        const ivec2 offsets[4] = ivec2[](ivec2(1, 0), ivec2(-1, 0), ivec2(0, 1), ivec2(0, -1));
        type = 0.0;
        age = kMaxAgeS;
        distance = reach + 1.0;
        for (int i = 0; i < 4; ++i) {
            vec4 neighbour = texelFetch(previousBuffer, clamp(texel + offsets[i], ivec2(0), last), 0);
            if (notFinite(neighbour.g) || notFinite(neighbour.b) || notFinite(neighbour.a) ||
                neighbour.b < 0.5)
                continue;
            float neighbourDistance = clamp(round(neighbour.a), 0.0, reach + 1.0) + 1.0;
            float neighbourAge = min(clamp(neighbour.g, 0.0, kMaxAgeS) + ageStepS, kMaxAgeS);
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
    return vec3(age, type, distance);
}
#endif

// One sim's texel from the shared mask.
vec4 accumulateOne(sampler2D previousBuffer, ivec2 texel, float mask, AccumulateOutput o) {
    // Containment: a NaN/Inf or out-of-range previous value counts as untouched snow, so one
    // bad texel can never become a persistent one.
    vec4 previousTexel = texelFetch(previousBuffer, texel, 0);
    float previousValue = notFinite(previousTexel.r) ? 0.0 : clamp(previousTexel.r, 0.0, 1.0);
    float contactScale = o.amounts.x;
    float stepFactor = o.amounts.y;
    float refillStep = o.amounts.z;

    precise float value;
    if (IS_MAX(o)) {
        precise float decayed;
        if (IS_LINEAR(o))
            decayed = max(previousValue - refillStep, 0.0);
        else
            decayed = previousValue * stepFactor;
        value = max(mask, decayed);
    } else {
        // Contact timing: what this step adds (contactScale is dt x 60 with "delta_time",
        // exactly 1 at 60 fps and with "per_frame"; max mode above never scales the mask).
        precise float added = mask * contactScale;
        precise float summed;
        if (IS_LINEAR(o))
            summed = (added + previousValue) - refillStep;
        else
            summed = (added + previousValue) * stepFactor;
        value = clamp(summed, 0.0, 1.0);
    }
    if (notFinite(value)) // only a NaN parameter gets here; still never store it
        value = 0.0;
    if (IS_HALF_SAFE(o)) {
        value = roundToHalfNearestEven(value);
        if (value < o.amounts.w)
            value = 0.0;
    }
#if FORMAT_RGBA
    return vec4(value, tagsOf(previousBuffer, texel, previousTexel, previousValue, mask, o));
#else
    return vec4(value, 0.0, 0.0, 0.0);
#endif
}

void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    // A NaN/Inf depth counts as "nothing there".
    float windowDepth = texelFetch(captureDepth, texel, 0).r;
    if (notFinite(windowDepth))
        windowDepth = 1.0;
    precise float sceneDepthCm = windowDepth * acc.capture.x;
    precise float normalised = (sceneDepthCm + acc.capture.y) * acc.capture.z;
    precise float mask = 1.0 - clamp(normalised, 0.0, 1.0);

    // Fragment outputs take constant indices only: one line per output.
    next[0] = accumulateOne(previous[0], texel, mask, acc.outputs[0]);
#if OUTPUTS > 1
    next[1] = accumulateOne(previous[1], texel, mask, acc.outputs[1]);
#endif
#if OUTPUTS > 2
    next[2] = accumulateOne(previous[2], texel, mask, acc.outputs[2]);
#endif
#if OUTPUTS > 3
    next[3] = accumulateOne(previous[3], texel, mask, acc.outputs[3]);
#endif
#if OUTPUTS > 4
    next[4] = accumulateOne(previous[4], texel, mask, acc.outputs[4]);
#endif
#if OUTPUTS > 5
    next[5] = accumulateOne(previous[5], texel, mask, acc.outputs[5]);
#endif
#if OUTPUTS > 6
    next[6] = accumulateOne(previous[6], texel, mask, acc.outputs[6]);
#endif
#if OUTPUTS > 7
    next[7] = accumulateOne(previous[7], texel, mask, acc.outputs[7]);
#endif
}
