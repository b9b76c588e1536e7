#version 450 core
// ContactCapture: deformers seen from below by the orthographic capture camera, depth only.
#include "../common/deformer_vertex.glsl"

layout(location = 0) flat out float vContactCode;

void main() {
    vContactCode = float(deformerInstance().contact);
    gl_Position = viewProjection * vec4(deformerWorldPosition(), 1.0);
}
