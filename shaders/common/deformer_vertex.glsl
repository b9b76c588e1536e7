// The one vertex transform every deformer pass uses (capture, colour, any pre-pass), so all
// passes agree on where the geometry is (seeds/003).
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;

layout(location = 0) uniform mat4 viewProjection;
layout(location = 1) uniform mat4 model;

vec3 deformerWorldPosition() {
    return (model * vec4(inPosition, 1.0)).xyz;
}

vec3 deformerWorldNormal() {
    return normalize(mat3(model) * inNormal);
}
