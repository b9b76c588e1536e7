#version 450 core
// Writes one uniform value into every texel: probes how the driver stores floats in R16F.
layout(location = 0) uniform float value;
layout(location = 0) out vec4 colour;

void main() {
    colour = vec4(value, 0.0, 0.0, 1.0);
}
