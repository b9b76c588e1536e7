#version 450 core
// One slump iteration over its tiles (slump_tiles.comp's list): between 4-neighbours, a fifth
// of their surfaces' step (surfaceTopCm: over a print, its bottom) past the angle of repose (of
// the higher column's density) flows down, at most a fifth of the higher column's snow; the
// same flow computed on both sides, so what one loses the other gains. Nothing flows into or
// out of a texel under a contact. Every texel of a listed tile is written (the pair's halves
// agree everywhere else); a tile where one changed is marked `touchedOut`.
// Over [terrain] (SNOWPACK_TERRAIN) the surfaces stand on the ground's height at each texel
// (groundHeight, cm), so snow on ground steeper than its repose slides at any depth.
// Reads:  previous state, inside[] (groundHeight)      Writes: next state, tileState[]
// Mirrors SnowpackReference::slump (src/snow/snowpack_reference.cpp).
layout(local_size_x = 16, local_size_y = 16) in;
#include "snowpack_block.glsl"
#include "snowpack_laws.glsl"
#include "snowpack_tiles.glsl"

layout(binding = 0, rgba32f) uniform readonly image2D previousState;
layout(binding = 1, rgba32f) uniform writeonly image2D nextState;
layout(location = 1) uniform uint touchedOut;

#ifdef SNOWPACK_TERRAIN
layout(binding = 2, r32f) uniform readonly image2D groundHeight;
// Mirrors snowTopCm (core/snowpack_laws.hpp).
float topAt(ivec2 p, vec4 c) {
    precise float top = imageLoad(groundHeight, p).x + surfaceTopCm(c);
    return top;
}
// A bare column gives nothing (as SnowpackReference::slump over terrain).
float givingDepth(float depthCm) {
    return depthCm >= kBareDepthCm ? depthCm : 0.0;
}
#else
float topAt(ivec2 p, vec4 c) {
    return surfaceTopCm(c);
}
float givingDepth(float depthCm) {
    return depthCm;
}
#endif

void main() {
    ivec2 p = listedTexel(kSlumpList);
    if (!inRegion(p))
        return;
    vec4 self = imageLoad(previousState, p);
    if (inside[texelIndex(p)] != 0u) {
        imageStore(nextState, p, self);
        return;
    }
    float selfDensity = densityOf(self);
    float selfHolds = reposeStepCm(selfDensity);
    float selfTop = topAt(p, self); // the surfaces' step, over the ground's prints too
    // The flows are summed apart and added once, as the CPU reference does.
    precise float depthIn = 0.0;
    precise float massIn = 0.0;
    const ivec2 offsets[4] = ivec2[4](ivec2(-1, 0), ivec2(1, 0), ivec2(0, -1), ivec2(0, 1));
    for (int i = 0; i < 4; ++i) {
        ivec2 q = p + offsets[i];
        if (!inRegion(q) || inside[texelIndex(q)] != 0u)
            continue;
        vec4 other = imageLoad(previousState, q);
        float otherTop = topAt(q, other);
        if (otherTop > selfTop) {
            float otherDensity = densityOf(other);
            precise float flow =
                slumpFlowCm(otherTop, reposeStepCm(otherDensity), selfTop, givingDepth(other.x));
            depthIn = depthIn + flow;
            massIn = massIn + flow * 0.01 * otherDensity;
        } else if (otherTop < selfTop) {
            precise float flow = slumpFlowCm(selfTop, selfHolds, otherTop, givingDepth(self.x));
            depthIn = depthIn - flow;
            massIn = massIn - flow * 0.01 * selfDensity;
        }
    }
    precise float depth = self.x + depthIn;
    precise float mass = self.y + massIn;
    // Flows in and out can cancel in depth and not in mass (their densities differ).
    bool moved = depthIn != 0.0 || massIn != 0.0;
    vec4 next = moved ? withMass(self, depth, mass) : self;
    imageStore(nextState, p, next);
    if (any(notEqual(floatBitsToUint(next), floatBitsToUint(self))))
        atomicOr(tileState[tileOfTexel(p)], touchedOut);
}
