#version 450 core
// SnowSurfacePass, tessellation geometry: patch corners pass through undisplaced.
#include "../snow/snow_params.glsl"

layout(location = 0) in vec2 inOffsetCm;
layout(location = 0) out vec2 vWorldXy;

void main() {
    vWorldXy = snow.regionCentreCm + inOffsetCm;
}
