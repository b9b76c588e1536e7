// The one vertex transform every deformer pass uses (capture, colour, any pre-pass), so all
// passes agree on where the geometry is (Deformable Terrain).
// Skinned meshes are posed here (up to four joints per vertex, linear blend skinning), so the
// capture sees exactly the feet the colour pass draws.
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in uvec4 inJoints;
layout(location = 3) in vec4 inWeights;

layout(location = 0) uniform mat4 viewProjection;
layout(location = 1) uniform mat4 model;
layout(location = 3) uniform int skinned;

layout(std430, binding = 3) readonly buffer JointMatrices {
    mat4 joints[];
};

mat4 skinMatrix() {
    if (skinned == 0)
        return mat4(1.0);
    return joints[inJoints.x] * inWeights.x + joints[inJoints.y] * inWeights.y +
           joints[inJoints.z] * inWeights.z + joints[inJoints.w] * inWeights.w;
}

vec3 deformerWorldPosition() {
    return (model * skinMatrix() * vec4(inPosition, 1.0)).xyz;
}

vec3 deformerWorldNormal() {
    return normalize(mat3(model) * mat3(skinMatrix()) * inNormal);
}
