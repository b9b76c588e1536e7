#version 450 core
// Drift flux, per texel: what it sends downwind this tick, through its x and its y face, from
// the saltation law at its wind (gusted, weighted by its slope and curvature along the wind).
// Reads:  the weather's scratch state (the snowpack's other half), inside[]
// Writes: driftFlux[]
// Mirrors WeatherReference::driftFlux (src/snow/weather_reference.cpp).
layout(local_size_x = 8, local_size_y = 8) in;
#include "snowpack/snowpack_block.glsl"
#include "snowpack/snowpack_laws.glsl"
#include "weather_block.glsl"
#include "weather_laws.glsl"

layout(binding = 0, rgba32f) uniform readonly image2D previousState;

float depthAt(ivec2 q) {
    int last = int(sp.capture.w) - 1;
    return imageLoad(previousState, clamp(q, ivec2(0), ivec2(last))).x;
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (!inRegion(p))
        return;
    int t = texelIndex(p);
    vec4 c = imageLoad(previousState, p);
    float texel = sp.capture.z;
    precise float slopeX = (depthAt(p + ivec2(1, 0)) - depthAt(p + ivec2(-1, 0))) / (2.0 * texel);
    precise float slopeY = (depthAt(p + ivec2(0, 1)) - depthAt(p + ivec2(0, -1))) / (2.0 * texel);
    precise float slopeAlong = slopeX * wx.wind.x + slopeY * wx.wind.y;
    int e = kDriftCurvatureTexels;
    float around[8] = float[8](depthAt(p + ivec2(-e, 0)), depthAt(p + ivec2(e, 0)),
                               depthAt(p + ivec2(0, -e)), depthAt(p + ivec2(0, e)),
                               depthAt(p + ivec2(-e, -e)), depthAt(p + ivec2(e, e)),
                               depthAt(p + ivec2(-e, e)), depthAt(p + ivec2(e, -e)));
    float curvature = microMetCurvature(c.x, around, float(e) * texel);
    precise vec2 world = wx.gust.zw + (vec2(p) + 0.5) * texel;
    driftFlux[t] = driftOut(c, inside[t] != 0u, gustedWind(world), slopeAlong, curvature, texel);
}
