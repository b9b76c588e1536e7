// The one vertex transform every deformer pass uses (capture, colour, shadow), so all passes
// agree on where the geometry is (Deformable Terrain). Deformers are drawn instanced, one draw
// per mesh: each instance reads its record (snow/deformer_batch.hpp) through this pass's list
// of record indices, and a skinned one its pose from the frame's joint palette (up to four
// joints per vertex, linear blend skinning), so the capture sees exactly the feet the colour
// pass draws.
#define DEFORMER_WIND 1
#include "wind.glsl"
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in uvec4 inJoints;
layout(location = 3) in vec4 inWeights;

layout(location = 0) uniform mat4 viewProjection;
layout(location = 5) uniform uint deformerBase; // this draw's first entry in deformerRecords

struct DeformerInstanceGpu {
    mat4 model;
    uint jointBase; // first matrix of its pose in joints[]
    uint flags;     // bit 0: skinned, bit 1: sway (foliage's wind)
    uint contact;   // contact type code, 1 + ContactType
    uint colour;    // the colour pass's albedo index
    vec4 sway;      // foliage's wind parameters; zero for everything else
};

layout(std430, binding = 3) readonly buffer JointPalette {
    mat4 joints[];
};
layout(std430, binding = 4) readonly buffer DeformerInstances {
    DeformerInstanceGpu instances[];
};
layout(std430, binding = 5) readonly buffer DeformerRecordList {
    uint deformerRecords[];
};

// kInstanceSkinned, kInstanceSway: the instance flags of snow/deformer_batch.hpp, generated.
#include "shared_constants.glsl"

DeformerInstanceGpu deformerInstance() {
    return instances[deformerRecords[deformerBase + uint(gl_InstanceID)]];
}

mat4 skinMatrix(DeformerInstanceGpu d) {
    if ((d.flags & kInstanceSkinned) == 0u)
        return mat4(1.0);
    uvec4 j = inJoints + uvec4(d.jointBase);
    return joints[j.x] * inWeights.x + joints[j.y] * inWeights.y + joints[j.z] * inWeights.z +
           joints[j.w] * inWeights.w;
}

vec3 deformerWorldPosition() {
    DeformerInstanceGpu d = deformerInstance();
#ifdef DEFORMER_WIND
    // Foliage's sway (shaders/common/wind.glsl): a world offset of the posed vertex, added after
    // the model transform.
    if ((d.flags & kInstanceSway) != 0u) {
        vec3 local = (skinMatrix(d) * vec4(inPosition, 1.0)).xyz;
        return (d.model * vec4(local, 1.0)).xyz + windOffset(local, d.sway, d.model);
    }
#endif
    return (d.model * skinMatrix(d) * vec4(inPosition, 1.0)).xyz;
}

vec3 deformerWorldNormal() {
    DeformerInstanceGpu d = deformerInstance();
    return normalize(mat3(d.model) * mat3(skinMatrix(d)) * inNormal);
}
