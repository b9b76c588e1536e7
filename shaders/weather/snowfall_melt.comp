#version 450 core
// Snowfall, melt and drainage, per texel (the first weather pass of a tick).
// Reads:  the state (RGBA32F: depth cm, mass kg/m2, water kg/m2, free), inside[] (the step's
//         contact flags)
// Writes: the snowpack's other half (the state when no wind blows, else the drift's scratch);
//         totals (snowfall in, drained water out)
// Mirrors WeatherReference::snowfallAndMelt (src/snow/weather_reference.cpp).
layout(local_size_x = 8, local_size_y = 8) in;
#include "snowpack/snowpack_block.glsl"
#include "snowpack/snowpack_laws.glsl"
#include "weather_block.glsl"
#include "weather_laws.glsl"

layout(binding = 0, rgba32f) uniform readonly image2D previousState;
layout(binding = 1, rgba32f) uniform writeonly image2D nextState;

float depthAt(ivec2 q, float self) {
    return inRegion(q) ? imageLoad(previousState, q).x : self;
}

void main() {
    beginTotals();
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (inRegion(p)) {
        int t = texelIndex(p);
        vec4 before = imageLoad(previousState, p);
        vec4 c = before;
        if (inside[t] == 0u) {
            c = snowfallOnto(c, wx.quanta.x, wx.fall.x);
            atomicAdd(groupIn, wx.quanta.x);
        }
        uint melt = wx.quanta.y;
        if (wx.fall.y > 0.0) {
            float self = before.x;
            vec3 normal = surfaceNormal(depthAt(p + ivec2(-1, 0), self),
                                        depthAt(p + ivec2(1, 0), self),
                                        depthAt(p + ivec2(0, -1), self),
                                        depthAt(p + ivec2(0, 1), self), sp.capture.z);
            melt += sunMeltQuanta(normal);
        }
        c = meltColumn(c, melt);
        float drained = drainedWater(c.z, wx.fall.z, printHoldsKgM2(c.w));
        if (drained > 0.0) {
            precise float water = c.z - drained;
            c.z = water;
            atomicAdd(groupOut, uint(floor(drained * kWeatherQuanta + 0.5)));
        }
        imageStore(nextState, p, c);
    }
    endTotals();
}
