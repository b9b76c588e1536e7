#version 450 core
// One triangle covering the viewport; uv in [0, 1] over the visible part.
layout(location = 0) out vec2 vUv;

void main() {
    vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    vUv = corner;
#ifdef FAR_PLANE
    // At the far plane (window depth 1): drawn last with GL_LEQUAL, it shades only the pixels
    // nothing else covered.
    gl_Position = vec4(corner * 2.0 - 1.0, 1.0, 1.0);
#else
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
#endif
}
