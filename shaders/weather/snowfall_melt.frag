#version 450 core
// Snowfall, melt and drainage, per texel (the first weather pass of a tick), drawn over the
// region into the snowpack's other half.
// Reads:  the state (RGBA32F: depth cm, mass kg/m2, water kg/m2, ground print cm), inside[] (the
//         step's contact flags)
// Writes: the other half (the state when no wind blows, else the drift's scratch); crossed
//         (the snowfall counted in, the drained water counted out, in quanta)
// Mirrors WeatherReference::snowfallAndMelt (src/snow/weather_reference.cpp).
// A program per sky (WeatherSim::step picks it per tick): llvmpipe runs both sides of every
// branch, even one no texel takes, so what a tick cannot do is left out of its program:
//   SNOWFALL  the tick's snowfall quanta are not 0 (else snowfallOnto keeps the column)
//   MELT      its degree-day quanta are not 0, or the sun melts (else meltColumn keeps it)
//   SUN       the sun melts (wx.fall.y > 0: the surface's normal, from the four neighbours)
//   TERRAIN   with SUN over [terrain]: the tops stand on the ground's heights (groundHeight,
//             the snowpack's ground image), so the normal is the terrain's and the snow's
#include "snowpack/snowpack_block.glsl"
#include "snowpack/snowpack_laws.glsl"
#include "weather_block.glsl"
#include "weather_laws.glsl"

layout(binding = 0) uniform sampler2D weatherState;
layout(location = 0) out vec4 next;
layout(location = 1) out uvec2 crossed;

// The surface's top (over the ground's prints, surfaceTopCm) at q, or the texel's own outside.
#ifdef TERRAIN
layout(binding = 2, r32f) uniform readonly image2D groundHeight;
// Mirrors snowTopCm (core/snowpack_laws.hpp).
float topOf(ivec2 q, vec4 c) {
    precise float top = imageLoad(groundHeight, q).x + surfaceTopCm(c);
    return top;
}
#else
float topOf(ivec2 q, vec4 c) {
    return surfaceTopCm(c);
}
#endif
float topAt(ivec2 q, float self) {
    return inRegion(q) ? topOf(q, texelFetch(weatherState, q, 0)) : self;
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int t = texelIndex(p);
    vec4 before = texelFetch(weatherState, p, 0);
    vec4 c = before;
    uvec2 counted = uvec2(0u);
#ifdef SNOWFALL
    if (inside[t] == 0u) {
        c = snowfallOnto(c, wx.quanta.x, wx.fall.x);
        counted.x = wx.quanta.x;
    }
#endif
#ifdef MELT
    uint melt = wx.quanta.y;
#ifdef SUN
    float self = topOf(p, before);
    vec3 normal = surfaceNormal(topAt(p + ivec2(-1, 0), self), topAt(p + ivec2(1, 0), self),
                                topAt(p + ivec2(0, -1), self), topAt(p + ivec2(0, 1), self),
                                sp.capture.z);
    melt += sunMeltQuanta(normal);
#endif
    c = meltColumn(c, melt);
#endif
    float drained = drainedWater(c.z, wx.fall.z, printHoldsKgM2(c.w));
    if (drained > 0.0) {
        precise float water = c.z - drained;
        c.z = water;
        counted.y = uint(floor(drained * kWeatherQuanta + 0.5));
    }
    next = c;
    crossed = counted;
}
