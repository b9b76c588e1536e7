#version 450 core
// Settle + compact, per texel (the first snowpack pass of a step).
// Reads:  previous state (RGBA32F), capture depth (window depth, 1 = nothing)
// Writes: next state; quanta[] (what cannot compact, to plough) and inside[] (the contact
//         reaches below the snow top here); clears received[] for the scatter.
// Mirrors SnowpackReference::settleAndCompact (src/snow/snowpack_reference.cpp).
layout(local_size_x = 8, local_size_y = 8) in;
#include "snowpack_block.glsl"
#include "snowpack_laws.glsl"

layout(binding = 0, rgba32f) uniform readonly image2D previousState;
layout(binding = 1, rgba32f) uniform writeonly image2D nextState;
layout(binding = 0) uniform sampler2D captureDepth;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (!inRegion(p))
        return;
    int t = texelIndex(p);
    vec4 c = imageLoad(previousState, p);
    if (sp.settle.x > 0.0)
        c = settleColumn(c, sp.settle.x, sp.settle.y);
    float contact = contactHeightCm(texelFetch(captureDepth, p, 0).r);
    uint q = 0u;
    uint isInside = 0u;
    if (contact < c.x + kContactSlackCm)
        isInside = 1u; // resting on the top: nothing slumps in under it
    if (contact < c.x) {
        float maxDensity = sp.density.y;
        float mass = c.y;
        float depth = max(contact, 0.0);
        precise float capacity = depth * 0.01 * maxDensity;
        if (mass <= capacity) {
            if (depth > 0.0)
                c.x = depth; // the same mass in less depth: denser
        } else {
            precise float excess = mass - capacity;
            precise float quanta = floor(excess * kPloughQuanta);
            precise float kept = mass - quanta * kPloughQuantum;
            q = uint(quanta);
            precise float keptDepth = kept / (0.01 * maxDensity);
            c.x = keptDepth;
            c.y = kept;
        }
    }
    imageStore(nextState, p, c);
    quanta[t] = q;
    inside[t] = isInside;
    received[t] = 0u;
}
