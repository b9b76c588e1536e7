#version 450 core
// What drifted as a picture's values: driftRecord[] (quanta, weather_block.glsl) in kg/m2, for
// the viewer's Buffers panel. Runs only when a view asks (WeatherSim::driftRecordKgM2).
// Reads:  driftRecord[]
// Writes: driftRecordView (R32F)
layout(local_size_x = 8, local_size_y = 8) in;
#include "snowpack/snowpack_block.glsl"
#include "snowpack/snowpack_laws.glsl"
#include "weather_block.glsl"
#include "weather_laws.glsl"

layout(binding = 0, r32f) uniform writeonly image2D driftRecordView;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (!inRegion(p))
        return;
    imageStore(driftRecordView, p, vec4(float(driftRecord[texelIndex(p)]) * kWeatherQuantum));
}
