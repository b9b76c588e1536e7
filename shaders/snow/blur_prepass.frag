#version 450 core
// BlurPrepass: the spiral blur of a sim's persistent buffer, once per step at every texel
// centre, so the material can read Snow_Mask's blurred input with one tap (blur = "prepass").
// Reads: the persistent buffer (binding 2, bilinear, border 0). Writes: the sim's blurred copy
// (same format as the buffer).
#define BLUR_PREPASS 0
#include "snow_params.glsl"
#include "region.glsl"
#include "snow_mask.glsl"

layout(location = 0) out vec4 blurred;

void main() {
    vec2 uv = gl_FragCoord.xy / snow.resolution;
    // rgba16f: age and contact type are per texel, not blurred; they pass through.
    vec3 attributes = texelFetch(persistentBuffer, ivec2(gl_FragCoord.xy), 0).gba;
    blurred = vec4(spiralBlurTaps(uv), attributes);
}
