#version 450 core
// A flake: a soft white disc lit by the sun and the sky, blended over the scene (no depth
// write: flakes never hide one another's depth or the snow's).
layout(location = 0) in float vCoverage;
layout(location = 1) flat in vec3 vColour;
layout(location = 0) out vec4 colour;

void main() {
    vec2 corner = gl_PointCoord * 2.0 - 1.0; // -1..1 across the sprite (a disc: its sign is moot)
    float r2 = dot(corner, corner);
    if (r2 > 1.0)
        discard;
    float alpha = 0.85 * vCoverage * (1.0 - r2 * r2);
    colour = vec4(vColour, alpha);
}
