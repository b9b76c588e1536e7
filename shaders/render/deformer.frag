#version 450 core
// Deformers lit by the same sun and sky as the snow (no shadows anywhere).
#include "../snow/snow_params.glsl"
#include "../surface/lighting.glsl"

layout(location = 0) in vec3 vNormal;
layout(location = 2) uniform vec3 albedo;
layout(location = 0) out vec4 colour;

void main() {
    vec3 normal = normalize(vNormal) * (gl_FrontFacing ? 1.0 : -1.0);
    float lambert = max(dot(normal, snow.sunDirection.xyz), 0.0);
    vec3 lit = albedo * (snow.sunColour.rgb * lambert + snow.skyColour.rgb * (0.5 + 0.5 * normal.z));
    colour = vec4(toDisplay(lit), 1.0);
}
