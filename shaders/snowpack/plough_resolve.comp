#version 450 core
// Plough resolve, over the resolve's tiles: what each texel received lands on it (mass
// exactly, depth at its density), and its count goes back to 0 for the next step.
// Reads/writes: the state (in place), received[]
layout(local_size_x = 16, local_size_y = 16) in;
#include "snowpack_block.glsl"
#include "snowpack_laws.glsl"
#include "snowpack_tiles.glsl"

layout(binding = 0, rgba32f) uniform image2D state;

void main() {
    ivec2 p = listedTexel(kResolveList);
    if (!inRegion(p))
        return;
    int t = texelIndex(p);
    uint r = received[t];
    if (r == 0u)
        return;
    received[t] = 0u;
    precise float mass = float(r) * kPloughQuantum;
    imageStore(state, p, depositOnto(imageLoad(state, p), mass));
}
