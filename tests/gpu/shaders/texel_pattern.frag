#version 450 core
// Test pattern: every texel gets x / 16 + y / 256, exactly representable in half precision.
layout(location = 0) out vec4 colour;

void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    colour = vec4(float(texel.x) / 16.0 + float(texel.y) / 256.0, 0.0, 0.0, 1.0);
}
