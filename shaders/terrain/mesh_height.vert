#version 450 core
// The terrain's mesh seen from straight above (snow/terrain_mesh.cpp): x and y map the height
// field's extent onto its samples, so each pixel centre is a sample's cell centre; the depth
// test keeps the highest surface, whose world z the fragment writes.

layout(location = 0) in vec3 position; // world cm, Z up

layout(location = 0) uniform mat4 worldToClip; // orthographic, looking down (-Z)

// World z, affine under the orthographic projection, so interpolated exactly.
layout(location = 0) out float vWorldZ;

void main() {
    vWorldZ = position.z;
    gl_Position = worldToClip * vec4(position, 1.0);
}
