#version 450 core
// Drift apply, per texel: the scratch state less what it sends, plus what its upwind
// neighbours send it, into the state. At the upwind border the world beyond is taken to send
// what the texel sends; what crosses the border in and out is summed from the flux by
// weather_totals.comp.
// Reads:  the weather's scratch state (the snowpack's other half), the drift flux, the drift
//         record so far
// Writes: the state; the drift record (its other half: so far + arrived - sent)
// Mirrors WeatherReference::driftApply (src/snow/weather_reference.cpp).
#include "snowpack/snowpack_block.glsl"
#include "snowpack/snowpack_laws.glsl"
#include "weather_block.glsl"
#include "weather_laws.glsl"

layout(binding = 0) uniform sampler2D weatherState;
layout(binding = 1) uniform usampler2D driftFlux;
layout(binding = 2) uniform isampler2D driftRecord;
layout(location = 0) out vec4 next;
layout(location = 1) out int record;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 c = texelFetch(weatherState, p, 0);
    int n = int(sp.capture.w);
    ivec2 s = windSteps();
    uvec2 own = texelFetch(driftFlux, p, 0).xy;
    uint arriving = 0u;
    ivec2 ux = p - ivec2(s.x, 0), uy = p - ivec2(0, s.y);
    arriving += ux.x >= 0 && ux.x < n ? texelFetch(driftFlux, ux, 0).x : own.x;
    arriving += uy.y >= 0 && uy.y < n ? texelFetch(driftFlux, uy, 0).y : own.y;
    next = driftColumn(c, own.x + own.y, arriving);
    record = texelFetch(driftRecord, p, 0).x + (int(arriving) - int(own.x + own.y));
}
