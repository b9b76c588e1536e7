#version 450 core
// What leaves a following window (SnowpackSim::shift, before the move): the mass of the texels
// in `rect` of the state (snow and water, kg/m2), summed in double and added to the running
// total the budget reads. One group of 256 invocations: each sums a strided share, then a tree
// in shared memory, always in the same order, so the same run gives the same sum.
// Reads:  the state (image)      Writes: carriedOut
// Mirrors shiftGrid (src/snow/snowpack_reference.cpp), which sums the same floats in double.
layout(local_size_x = 256) in;

layout(binding = 0, rgba32f) uniform readonly image2D previousState;
layout(std430, binding = 10) buffer CarriedOut { double carriedOutKgM2; };
layout(location = 0) uniform ivec4 rect; // origin x, y; width, height

shared double sums[256];

void main() {
    uint i = gl_LocalInvocationIndex;
    int count = rect.z * rect.w;
    double sum = 0.0lf;
    for (int k = int(i); k < count; k += 256) {
        vec4 column = imageLoad(previousState, rect.xy + ivec2(k % rect.z, k / rect.z));
        sum += double(column.g) + double(column.b);
    }
    sums[i] = sum;
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1u) {
        if (i < stride)
            sums[i] += sums[i + stride];
        barrier();
    }
    if (i == 0u)
        carriedOutKgM2 += sums[0];
}
