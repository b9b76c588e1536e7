#version 450 core
// Drift flux, per texel: what it sends downwind this tick, through its x and its y face, from
// the saltation law at its wind (gusted, weighted by its slope and curvature along the wind).
// Reads:  the weather's scratch state (the snowpack's other half), inside[]
// Writes: the drift flux (RG32UI, quanta)
// Mirrors WeatherReference::driftFlux (src/snow/weather_reference.cpp).
//   TERRAIN  over [terrain]: the ground's slope and curvature (windTerrain: WindTerrain of
//            core/weather_laws.hpp, the snowpack's wind_terrain image) add to the snow's.
#include "snowpack/snowpack_block.glsl"
#include "snowpack/snowpack_laws.glsl"
#include "weather_block.glsl"
#include "weather_laws.glsl"

layout(binding = 0) uniform sampler2D weatherState;
layout(location = 0) out uvec2 flux;
#ifdef TERRAIN
layout(binding = 4) uniform sampler2D windTerrain;
#endif

// The surface's top (over the ground's prints, surfaceTopCm) at q, clamped to the region.
float topAt(ivec2 q) {
    int last = int(sp.capture.w) - 1;
    return surfaceTopCm(texelFetch(weatherState, clamp(q, ivec2(0), ivec2(last)), 0));
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int t = texelIndex(p);
    vec4 c = texelFetch(weatherState, p, 0);
    float texel = sp.capture.z;
    precise float slopeX = (topAt(p + ivec2(1, 0)) - topAt(p + ivec2(-1, 0))) / (2.0 * texel);
    precise float slopeY = (topAt(p + ivec2(0, 1)) - topAt(p + ivec2(0, -1))) / (2.0 * texel);
    precise float slopeAlong = slopeX * wx.wind.x + slopeY * wx.wind.y;
    int e = kDriftCurvatureTexels;
    float around[8] = float[8](topAt(p + ivec2(-e, 0)), topAt(p + ivec2(e, 0)),
                               topAt(p + ivec2(0, -e)), topAt(p + ivec2(0, e)),
                               topAt(p + ivec2(-e, -e)), topAt(p + ivec2(e, e)),
                               topAt(p + ivec2(-e, e)), topAt(p + ivec2(e, -e)));
    float curvature = microMetCurvature(surfaceTopCm(c), around, float(e) * texel);
#ifdef TERRAIN
    // Mirrors slopeAlongWind (core/weather_laws.cpp).
    vec4 ground = texelFetch(windTerrain, p, 0);
    precise float groundAlong = ground.x * wx.wind.x + ground.y * wx.wind.y;
    slopeAlong = slopeAlong + groundAlong;
    curvature = curvature + ground.z;
#endif
    precise vec2 world = wx.gust.zw + (vec2(p) + 0.5) * texel;
    flux = driftOut(c, inside[t] != 0u, gustedWind(world), slopeAlong, curvature, texel);
}
