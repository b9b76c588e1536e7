#version 450 core
// Deformers in the colour pass: the same vertex transform as the capture.
#include "../common/deformer_vertex.glsl"

layout(location = 0) out vec3 vNormal;

void main() {
    vNormal = deformerWorldNormal();
    gl_Position = viewProjection * vec4(deformerWorldPosition(), 1.0);
}
