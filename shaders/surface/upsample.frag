#version 450 core
// SnowSurfacePass's upsample variant (src/render/surface_upsample.hpp): the surface's own
// geometry at full resolution, coloured from the lit surface shaded at a lower rate. The
// pixel's depth is exact (gl_FragCoord.z); the colour comes from the four nearest shaded
// pixels. Where their depths continue the pixel's own (a plane's window depth is affine in
// screen space, so their bilinear mix predicts it exactly on a smooth surface), the colour is
// their bilinear mix; where the prediction misses by a good part of their spread, a depth edge
// runs between them and the colour is the tap whose depth is nearest. Three texture reads and
// selects, no branches: a CPU rasteriser would run both sides of one.
layout(binding = 0) uniform sampler2D lowColour;
layout(binding = 1) uniform sampler2D lowDepth;
layout(location = 0) uniform vec4 pane; // xy: the pane's lower-left pixel; zw: low / full size
layout(location = 1) uniform ivec2 lowSize;

layout(location = 0) in vec3 vWorldCm; // unused: the vertex stages are the lit variant's
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
    vec4 bilinear = w.x * c00 + w.y * c10 + w.z * c01 + w.w * c11;

    float depth = gl_FragCoord.z;
    vec4 miss = abs(d - depth);
    vec4 nearest = c00;
    float best = miss.x;
    nearest = miss.y < best ? c10 : nearest;
    best = min(best, miss.y);
    nearest = miss.z < best ? c01 : nearest;
    best = min(best, miss.z);
    nearest = miss.w < best ? c11 : nearest;

    float spread = max(max(d.x, d.y), max(d.z, d.w)) - min(min(d.x, d.y), min(d.z, d.w));
    float edge = smoothstep(0.2, 0.4, abs(dot(w, d) - depth) / max(spread, 1e-7));
    colour = mix(bilinear, nearest, edge);
}
