#version 450 core
// SurfaceUpsample (src/render/surface_upsample.hpp): the lit snow, shaded at a lower rate, into
// the view's pane at full resolution, colour and depth. Each pixel mixes its four nearest shaded
// pixels bilinearly, leaving out those the snow did not cover (depth 1: the clear), so the snow's
// edge against the sky takes no black from the clear; the depth written is the same mix of the
// covered taps' window depths (exact on a plane: window depth is affine in screen space), so the
// deformers drawn after it meet the snow where they would at full resolution. Uncovered
// everywhere: depth 1, which the depth test rejects, and the sky fills the pixel.
// texelFetch and arithmetic only: on llvmpipe a filtered RGBA8 tap cost more than four fetches.
layout(binding = 0) uniform sampler2D lowColour;
layout(binding = 1) uniform sampler2D lowDepth;
layout(location = 0) uniform vec4 pane; // xy: the pane's lower-left pixel; zw: low / full size
layout(location = 1) uniform ivec2 lowSize;

layout(location = 0) out vec4 colour;

void main() {
    // In low-rate texel units, texel centres at integers (as bilinear filtering sees them).
    vec2 q = (gl_FragCoord.xy - pane.xy) * pane.zw - 0.5;
    vec2 base = floor(q);
    vec2 f = q - base;
    ivec2 hi = lowSize - 1;
    ivec2 p00 = clamp(ivec2(base), ivec2(0), hi);
    ivec2 p11 = clamp(ivec2(base) + 1, ivec2(0), hi);
    ivec2 p10 = ivec2(p11.x, p00.y), p01 = ivec2(p00.x, p11.y);
    vec4 c00 = texelFetch(lowColour, p00, 0), c10 = texelFetch(lowColour, p10, 0);
    vec4 c01 = texelFetch(lowColour, p01, 0), c11 = texelFetch(lowColour, p11, 0);
    vec4 d = vec4(texelFetch(lowDepth, p00, 0).r, texelFetch(lowDepth, p10, 0).r,
                  texelFetch(lowDepth, p01, 0).r, texelFetch(lowDepth, p11, 0).r);
    vec4 w = vec4((1.0 - f.x) * (1.0 - f.y), f.x * (1.0 - f.y), (1.0 - f.x) * f.y, f.x * f.y);
    w *= vec4(lessThan(d, vec4(1.0)));
    float covered = dot(w, vec4(1.0));
    float total = max(covered, 1e-6);
    colour = (w.x * c00 + w.y * c10 + w.z * c01 + w.w * c11) / total;
    gl_FragDepth = covered > 0.0 ? dot(w, d) / total : 1.0;
}
