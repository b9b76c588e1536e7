// The camera of one view. C++ mirror: src/render/view_params.hpp.
layout(std140, binding = 1) uniform ViewParams {
    mat4 viewProjection;
    mat4 inverseViewProjection;
    vec4 eyeCm;            // xyz
    vec4 viewportPx;       // x, y, width, height
    float tessellationMaxLevel;
    float tessellationReferenceCm; // full detail nearer than this
    float outputMode;      // see surface.frag
    float viewPadding0;
} view;
