#version 450 core
// What crossed the budget's boundary this tick, summed into the 64-bit counters: the snowfall
// in and the drained water out of every texel (crossed, from the snowfall + melt pass), and
// when the drift ran, the flux through the region's border: in at the upwind border (the world
// beyond is taken to send what the border texel sends), out at the downwind one. Invocation i
// sums column i of crossed, and the x-face flux of row i's two border texels and the y-face
// flux of column i's; a group's sums go into the counters with one atomic add each (a carry
// into hi). Exact: the sums are of whole quanta in 64 bits.
// Reads:  crossed, the drift flux
// Writes: totals (in lo, hi, out lo, hi)
layout(local_size_x = 64) in;
#include "snowpack/snowpack_block.glsl"
#include "weather_block.glsl"

layout(binding = 3) uniform usampler2D crossedQuanta;
layout(binding = 1) uniform usampler2D driftFlux;
layout(std430, binding = 9) buffer WeatherTotals { uint totals[4]; };

shared uvec2 groupIn[64];
shared uvec2 groupOut[64];

uvec2 add64(uvec2 a, uvec2 b) {
    uint carry;
    uint lo = uaddCarry(a.x, b.x, carry);
    return uvec2(lo, a.y + b.y + carry);
}

uvec2 add64(uvec2 a, uint b) {
    return add64(a, uvec2(b, 0u));
}

void addTotal(uint index, uvec2 value) {
    if (value == uvec2(0u))
        return;
    uint before = atomicAdd(totals[index], value.x);
    uint hi = value.y + (before > 0xffffffffu - value.x ? 1u : 0u);
    if (hi != 0u)
        atomicAdd(totals[index + 1u], hi);
}

void main() {
    int n = int(sp.capture.w);
    int i = int(gl_GlobalInvocationID.x);
    uvec2 sumIn = uvec2(0u), sumOut = uvec2(0u);
    if (i < n) {
        for (int y = 0; y < n; ++y) {
            uvec2 c = texelFetch(crossedQuanta, ivec2(i, y), 0).xy;
            sumIn = add64(sumIn, c.x);
            sumOut = add64(sumOut, c.y);
        }
        if (wx.wind.z > 0.0) {
            ivec2 s = windSteps();
            int upwindX = s.x > 0 ? 0 : n - 1, upwindY = s.y > 0 ? 0 : n - 1;
            sumIn = add64(sumIn, texelFetch(driftFlux, ivec2(upwindX, i), 0).x);
            sumIn = add64(sumIn, texelFetch(driftFlux, ivec2(i, upwindY), 0).y);
            sumOut = add64(sumOut, texelFetch(driftFlux, ivec2(n - 1 - upwindX, i), 0).x);
            sumOut = add64(sumOut, texelFetch(driftFlux, ivec2(i, n - 1 - upwindY), 0).y);
        }
    }
    uint l = gl_LocalInvocationIndex;
    groupIn[l] = sumIn;
    groupOut[l] = sumOut;
    barrier();
    if (l == 0u) {
        for (int k = 1; k < 64; ++k) {
            sumIn = add64(sumIn, groupIn[k]);
            sumOut = add64(sumOut, groupOut[k]);
        }
        addTotal(0u, sumIn);
        addTotal(2u, sumOut);
    }
}
