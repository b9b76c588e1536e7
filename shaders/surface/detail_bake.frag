#version 450 core
// Bakes the landscape detail texture once (SnowSurfacePass::create): one period of the fbm
// over the whole texture, so it tiles with GL_REPEAT.
// R: fbm(p). G, B: its gradient d fbm / dp, stored as 0.5 + g / kGradientRange (the largest
// slope three octaves can reach is 0.5 x 1.5 + 0.3 x 3 + 0.2 x 6 = 2.85). A: a second fbm,
// shifted by half a period, for a layer that must not line up with the first.
#include "detail_noise.glsl"

const float kGradientRange = 6.0;

layout(location = 0) uniform float bakeSize; // texels per side
layout(location = 0) out vec4 detail;

void main() {
    vec2 p = gl_FragCoord.xy / bakeSize * kDetailPeriod;
    const float e = 0.06; // the step of the former per-pixel central difference
    vec2 gradient = vec2(fbm(p + vec2(e, 0.0)) - fbm(p - vec2(e, 0.0)),
                         fbm(p + vec2(0.0, e)) - fbm(p - vec2(0.0, e))) / (2.0 * e);
    detail = vec4(fbm(p), 0.5 + gradient / kGradientRange, fbm(p + 0.5 * kDetailPeriod));
}
