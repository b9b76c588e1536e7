#version 450 core
// Deformers in the colour pass: the same vertex transform as the capture.
#include "../common/deformer_vertex.glsl"

layout(location = 0) out vec3 vNormal;
layout(location = 1) out vec3 vWorldCm;
layout(location = 2) flat out uint vColour;

void main() {
    vNormal = deformerWorldNormal();
    vWorldCm = deformerWorldPosition();
    vColour = deformerInstance().colour;
    gl_Position = viewProjection * vec4(vWorldCm, 1.0);
}
