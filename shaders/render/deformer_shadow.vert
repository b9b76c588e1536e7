#version 450 core
// Deformers into the sun's shadow map: the same vertex transform as the capture and the colour
// pass (viewProjection is the light's matrix here).
#include "../common/deformer_vertex.glsl"

void main() {
    gl_Position = viewProjection * vec4(deformerWorldPosition(), 1.0);
}
