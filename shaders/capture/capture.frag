#version 450 core
// The depth test keeps the nearest surface to the camera, i.e. the lowest point of whatever
// touches the snow; the colour attachment records what kind of deformer that point belongs to
// (contact type code, 1 + ContactType, from the instance's record), for the rgba16f format's
// B channel.
//
// TERRAIN (capture_reference = "terrain" on a [terrain] that is not flat): each texel has its
// own camera, capture_z below its own undisturbed snow top (snow.surface_z_cm + the terrain's
// height there, terrainHeight), so the depth written is what the flat capture would see over
// flat snow: the accumulate pass reads it unchanged. What lies below that texel's camera or
// beyond its far plane is dropped, as the flat camera's clipping drops it. The rasteriser's own
// depth range spans the region's relief (ContactCapture), so nothing is clipped before this.
layout(location = 0) flat in float vContactCode;
layout(location = 0) out vec4 contact;
#if TERRAIN
layout(location = 1) in float vWorldZ;
layout(location = 6) uniform float flatCameraZCm; // snow.surface_z_cm + capture_z_cm
layout(location = 7) uniform float farCm;
layout(binding = 9) uniform sampler2D terrainHeight; // cm at each texel's centre (R32F)
#endif

void main() {
#if TERRAIN
    precise float cameraZ = flatCameraZCm + texelFetch(terrainHeight, ivec2(gl_FragCoord.xy), 0).r;
    precise float aboveCamera = vWorldZ - cameraZ;
    if (aboveCamera < 0.0 || aboveCamera > farCm)
        discard;
    gl_FragDepth = aboveCamera / farCm;
#endif
    contact = vec4(vContactCode, 0.0, 0.0, 0.0);
}
