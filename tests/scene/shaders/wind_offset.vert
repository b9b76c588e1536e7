#version 450 core
// Test only: windOffset of vertex i of `localPositions` written to texel (i, 0), so
// FoliageWindGLTest reads the shader's bend back and holds it to the CPU reference.
#include "../../../shaders/common/wind.glsl"

layout(std430, binding = 7) readonly buffer LocalPositions {
    vec4 localPositions[];
};
layout(location = 1) uniform mat4 model;
layout(location = 2) uniform vec4 sway;
layout(location = 3) uniform int count;

out vec3 offset;

void main() {
    offset = windOffset(localPositions[gl_VertexID].xyz, sway, model);
    gl_Position = vec4((float(gl_VertexID) + 0.5) / float(count) * 2.0 - 1.0, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
