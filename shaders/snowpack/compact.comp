#version 450 core
// Settle + compact, per texel, in place, over the compaction's tiles (classify.comp's list).
// Reads/writes: the state (RGBA32F: depth cm, mass kg/m2, water kg/m2, ground print cm)
// Reads:  capture depth (window depth, 1 = nothing)
// Writes: quanta[] (what cannot compact, to plough) and inside[] (the contact reaches below the
//         snow top here) for every texel of the tile; `touchedIn` on the tile where a column or
//         its inside flag changed.
// Mirrors SnowpackReference::settleAndCompact (src/snow/snowpack_reference.cpp).
layout(local_size_x = 16, local_size_y = 16) in;
#include "snowpack_block.glsl"
#include "snowpack_laws.glsl"
#include "snowpack_tiles.glsl"

layout(binding = 0, rgba32f) uniform image2D state;
layout(binding = 0) uniform sampler2D captureDepth;
layout(location = 0) uniform uint touchedIn;

void main() {
    ivec2 p = listedTexel(kCompactList);
    if (!inRegion(p))
        return;
    int t = texelIndex(p);
    vec4 before = imageLoad(state, p);
    vec4 c = before;
    if (sp.settle.x > 0.0)
        c = settleColumn(c, sp.settle.x, sp.settle.y);
    float contact = contactHeightCm(texelFetch(captureDepth, p, 0).r);
    if (sp.ground.x > 0.0) {
        // Frozen, the ground is a floor at the print's bottom; else it takes the print. Heights
        // from here on are above the print's bottom.
        if (sp.ground.y > 0.0)
            contact = frozenGroundContactCm(contact, c.w);
        c.w = pressedGroundPrintCm(c.w, contact, sp.ground.x);
        precise float aboveBase = contact + c.w;
        contact = aboveBase;
    }
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
    bool columnChanged = any(notEqual(floatBitsToUint(c), floatBitsToUint(before)));
    if (columnChanged)
        imageStore(state, p, c);
    if (columnChanged || inside[t] != isInside)
        atomicOr(tileState[tileOfTexel(p)], touchedIn);
    quanta[t] = q;
    inside[t] = isInside;
}
