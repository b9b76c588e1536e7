#version 450 core
// A flake: a soft white disc lit by the sun and the sky, blended over the scene (no depth
// write: flakes never hide one another's depth or the snow's).
#include "../snow/snow_params.glsl"
#include "../surface/lighting.glsl"

layout(location = 0) in float vCoverage;
layout(location = 0) out vec4 colour;

void main() {
    vec2 corner = gl_PointCoord * 2.0 - 1.0; // -1..1 across the sprite (a disc: its sign is moot)
    float r2 = dot(corner, corner);
    if (r2 > 1.0)
        discard;
    float alpha = 0.85 * vCoverage * (1.0 - r2 * r2);
    vec3 lit = snow.snowColourWrap.rgb * (snow.sunColour.rgb * 0.6 + snow.skyColour.rgb * 0.8);
    colour = vec4(toDisplay(lit), alpha);
}
