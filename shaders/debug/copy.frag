#version 450 core
// The memory-bandwidth floor: one texel read, one texel written, nothing else. Every pass is
// measured against this copy of the same buffer.
layout(binding = 0) uniform sampler2D source;
layout(location = 0) out vec4 copied;

void main() {
    copied = texelFetch(source, ivec2(gl_FragCoord.xy), 0);
}
