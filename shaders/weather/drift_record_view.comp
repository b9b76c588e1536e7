#version 450 core
// What drifted as a picture's values: the drift record (quanta, weather_block.glsl) in kg/m2,
// for the viewer's Buffers panel. Runs only when a view asks (WeatherSim::driftRecordKgM2).
// Reads:  the drift record (R32I)
// Writes: driftRecordView (R32F)
layout(local_size_x = 8, local_size_y = 8) in;
#include "snowpack/snowpack_block.glsl"
#include "snowpack/snowpack_laws.glsl"
#include "weather_block.glsl"
#include "weather_laws.glsl"

layout(binding = 2) uniform isampler2D driftRecord;
layout(binding = 0, r32f) uniform writeonly image2D driftRecordView;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (!inRegion(p))
        return;
    imageStore(driftRecordView, p, vec4(float(texelFetch(driftRecord, p, 0).x) * kWeatherQuantum));
}
