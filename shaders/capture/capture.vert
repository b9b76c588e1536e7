#version 450 core
// ContactCapture: deformers seen from below by the orthographic capture camera, depth only.
#include "../common/deformer_vertex.glsl"

layout(location = 0) flat out float vContactCode;
#if TERRAIN
// World z, for the fragment's depth above its own texel's snow top (affine under the
// orthographic camera, so interpolated exactly).
layout(location = 1) out float vWorldZ;
#endif

void main() {
    vContactCode = float(deformerInstance().contact);
    vec3 world = deformerWorldPosition();
#if TERRAIN
    vWorldZ = world.z;
#endif
    gl_Position = viewProjection * vec4(world, 1.0);
}
