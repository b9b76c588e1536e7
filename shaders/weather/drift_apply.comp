#version 450 core
// Drift apply, per texel: the scratch state less what it sends, plus what its upwind
// neighbours send it, into the state. At the upwind border the world beyond is taken to send
// what the texel sends (counted in); what leaves through the downwind border is counted out.
// Reads:  the weather's scratch state (the snowpack's other half), driftFlux[]
// Writes: the state; totals; driftRecord[] (what arrived minus what left)
// Mirrors WeatherReference::driftApply (src/snow/weather_reference.cpp).
layout(local_size_x = 8, local_size_y = 8) in;
#include "snowpack/snowpack_block.glsl"
#include "snowpack/snowpack_laws.glsl"
#include "weather_block.glsl"
#include "weather_laws.glsl"

layout(binding = 0, rgba32f) uniform readonly image2D previousState;
layout(binding = 1, rgba32f) uniform writeonly image2D nextState;

void main() {
    beginTotals();
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (inRegion(p)) {
        vec4 c = imageLoad(previousState, p);
        int n = int(sp.capture.w);
        int sx = wx.wind.x >= 0.0 ? 1 : -1;
        int sy = wx.wind.y >= 0.0 ? 1 : -1;
        int t = texelIndex(p);
        uvec2 own = driftFlux[t];
        uint arriving = 0u;
        ivec2 ux = p - ivec2(sx, 0), uy = p - ivec2(0, sy);
        if (ux.x >= 0 && ux.x < n) {
            arriving += driftFlux[texelIndex(ux)].x;
        } else {
            arriving += own.x;
            atomicAdd(groupIn, own.x);
        }
        if (uy.y >= 0 && uy.y < n) {
            arriving += driftFlux[texelIndex(uy)].y;
        } else {
            arriving += own.y;
            atomicAdd(groupIn, own.y);
        }
        int dx = p.x + sx, dy = p.y + sy;
        if (dx < 0 || dx >= n)
            atomicAdd(groupOut, own.x);
        if (dy < 0 || dy >= n)
            atomicAdd(groupOut, own.y);
        c = driftColumn(c, own.x + own.y, arriving);
        driftRecord[t] += int(arriving) - int(own.x + own.y);
        imageStore(nextState, p, c);
    }
    endTotals();
}
