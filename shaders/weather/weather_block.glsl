// The weather passes' uniforms. C++ mirror: WeatherBlock in src/snow/weather_sim.cpp. One
// tick's amounts (core/weather_laws.hpp, WeatherTick).
layout(std140, binding = 4) uniform Weather {
    uvec4 quanta; // x: snowfall quanta per texel no contact covers, y: degree-day melt quanta
    vec4 fall;    // x: snowfall density kg/m3, y: sun melt kg/m2 per unit cos, z: drain fraction,
                  // w: weather dt s
    vec4 sun;     // xyz: unit, towards the sun; w: the substance's drift threshold m/s (0: snow's)
    vec4 wind;    // xy: unit direction it blows towards, z: wind m/s at 10 m, w: gust phase rad
    vec4 gust;    // x: gust amount, y: gust wave number 1/cm, zw: region origin cm
} wx;

// The textures the passes hand on (src/snow/weather_sim.cpp), all the region's size:
//   crossed (RG32UI): per texel, the quanta the snowfall + melt pass counted in (snowfall) and
//                     out (drained water) this tick, summed by weather_totals.comp;
//   drift flux (RG32UI): per texel, the quanta it sends downwind through its x face, its y face;
//   drift record (R32I, a ping-pong pair): per texel since the weather's start or reset, quanta
//                     arrived minus quanta sent (positive: deposit, negative: erosion). Over the
//                     region it sums to the drift's in minus out at the border (drift moves mass
//                     and never makes or loses it).

// The direction each axis of the wind blows along: +1 or -1.
ivec2 windSteps() {
    return ivec2(wx.wind.x >= 0.0 ? 1 : -1, wx.wind.y >= 0.0 ? 1 : -1);
}
