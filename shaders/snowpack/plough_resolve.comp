#version 450 core
// Plough resolve: what each texel received lands on it (mass exactly, depth at its density).
// Reads/writes: the state (in place)      Reads: received[]
layout(local_size_x = 8, local_size_y = 8) in;
#include "snowpack_block.glsl"
#include "snowpack_laws.glsl"

layout(binding = 0, rgba32f) uniform image2D state;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (!inRegion(p))
        return;
    uint r = received[texelIndex(p)];
    if (r == 0u)
        return;
    precise float mass = float(r) * kPloughQuantum;
    imageStore(state, p, depositOnto(imageLoad(state, p), mass));
}
