// The weather passes' uniforms and buffers. C++ mirror: WeatherBlock in
// src/snow/weather_sim.cpp. One tick's amounts (core/weather_laws.hpp, WeatherTick).
layout(std140, binding = 4) uniform Weather {
    uvec4 quanta; // x: snowfall quanta per texel no contact covers, y: degree-day melt quanta
    vec4 fall;    // x: snowfall density kg/m3, y: sun melt kg/m2 per unit cos, z: drain fraction,
                  // w: weather dt s
    vec4 sun;     // xyz: unit, towards the sun; w: the substance's drift threshold m/s (0: snow's)
    vec4 wind;    // xy: unit direction it blows towards, z: wind m/s at 10 m, w: gust phase rad
    vec4 gust;    // x: gust amount, y: gust wave number 1/cm, zw: region origin cm
} wx;

// What each texel sends downwind this tick (quanta through its x face, its y face), and what
// crossed the budget's boundary: in (lo, hi), out (lo, hi), 64-bit counts of quanta.
layout(std430, binding = 8) buffer DriftFlux { uvec2 driftFlux[]; };
layout(std430, binding = 9) buffer WeatherTotals { uint totals[4]; };
// What drifted, per texel since the weather's start or reset: quanta arrived minus quanta sent
// (positive: deposit, negative: erosion). Over the region it sums to the drift's in minus out at
// the border (drift moves mass and never makes or loses it).
layout(std430, binding = 11) buffer DriftRecord { int driftRecord[]; };

// One atomic add per workgroup of its texels' sums into the 64-bit counters (carry into hi).
shared uint groupIn;
shared uint groupOut;

void beginTotals() {
    if (gl_LocalInvocationIndex == 0u) {
        groupIn = 0u;
        groupOut = 0u;
    }
    barrier();
}

void addTotal(uint index, uint value) {
    if (value == 0u)
        return;
    uint before = atomicAdd(totals[index], value);
    if (before > 0xffffffffu - value)
        atomicAdd(totals[index + 1u], 1u);
}

void endTotals() {
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        addTotal(0u, groupIn);
        addTotal(2u, groupOut);
    }
}
