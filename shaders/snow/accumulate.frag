#version 450 core
// PP_Depth_Snow: capture depth -> contact mask; + previous persistent value; x decay; saturate.
// Reads:  captureDepth (D32F, window depth = SceneDepth / far), previous (R16F or RGBA16F)
// Writes: the other buffer of the sim's ping-pong pair.
// Variants: ACCUMULATE_MAX (0: add, the original; 1: max), HALF_SAFE (0: the driver rounds to
// half; 1: exact rounding + zero floor, see docs/pipeline.md).
// The CPU reference (src/snow/cpu_reference.cpp) performs the same float operations in the
// same order; `precise` keeps the compiler from fusing them into FMAs.
#include "snow_params.glsl"
#include "half.glsl"

layout(binding = 0) uniform sampler2D captureDepth;
layout(binding = 1) uniform sampler2D previous;

layout(location = 0) out vec4 next;

void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    float windowDepth = texelFetch(captureDepth, texel, 0).r;
    float previousValue = texelFetch(previous, texel, 0).r;

    precise float sceneDepthCm = windowDepth * snow.captureFarCm;
    precise float normalised = (sceneDepthCm + snow.captureOffsetCm) * snow.invCaptureDistance;
    precise float mask = 1.0 - clamp(normalised, 0.0, 1.0);

#if ACCUMULATE_MAX
    precise float decayed = previousValue * snow.stepFactor;
    precise float value = max(mask, decayed);
#else
    precise float summed = (mask + previousValue) * snow.stepFactor;
    precise float value = clamp(summed, 0.0, 1.0);
#endif

#if HALF_SAFE
    value = roundToHalfNearestEven(value);
    if (value < snow.zeroFloor)
        value = 0.0;
#endif
    next = vec4(value, 0.0, 0.0, 0.0);
}
