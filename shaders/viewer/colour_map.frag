#version 450 core
// The viewer's colour maps (src/app/viewer_views.cpp):
//  mode 0: one channel of a buffer (persistent buffer, capture depth) through inferno;
//  mode 1: the difference of two views' persistent values, A - B, through a diverging map
//          (blue: B holds more print, white: equal, red: A holds more); pixels where the
//          surface was not drawn (depth = 1) stay dark;
//  mode 2: a snowpack state's density, mass (G, kg/m2) / depth (R, cm, as m), through inferno;
//          bare texels (depth below kBareDepthCm, no density of their own) in slate grey;
//  mode 3: the legend's colour bar: t = u, so a bar drawn with this mode is the exact ramp the
//          other modes map their range onto;
//  mode 4: the difference view's key: mode 1's map with A - B = (2u - 1) x range;
//  mode 5: one signed channel through mode 1's map, -valueRange.y (blue) .. 0 (white) ..
//          +valueRange.y (red): what drifted (deposit red, erosion blue).
#include "../common/finite.glsl"
#include "../common/shared_constants.glsl"

layout(location = 0) in vec2 vUv;
layout(location = 0) out vec4 colour;

layout(binding = 0) uniform sampler2D source;
layout(binding = 1) uniform sampler2D other;
layout(binding = 2) uniform sampler2D sourceDepth;
layout(location = 0) uniform vec2 valueRange; // value at t = 0, at t = 1 (mode 1: y = |A - B| at full colour)
layout(location = 1) uniform int channel;
layout(location = 2) uniform int mode;

// A compact inferno approximation (polynomial fit), dark to bright.
vec3 inferno(float t) {
    const vec3 c0 = vec3(0.0002189, 0.0016510, -0.0194809);
    const vec3 c1 = vec3(0.1065134, 0.5639564, 3.9327123);
    const vec3 c2 = vec3(11.6024930, -3.9728538, -15.9423940);
    const vec3 c3 = vec3(-41.7039961, 17.4363986, 44.3541450);
    const vec3 c4 = vec3(77.1629357, -33.4023589, -81.8073092);
    const vec3 c5 = vec3(-71.3194283, 32.6260676, 73.2095198);
    const vec3 c6 = vec3(25.1311262, -12.2426587, -23.0703250);
    return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

vec3 diverging(float s) { // s in [-1, 1]
    const vec3 blue = vec3(0.23, 0.30, 0.75), white = vec3(0.95), red = vec3(0.71, 0.02, 0.15);
    return s < 0.0 ? mix(white, blue, -s) : mix(white, red, s);
}

void main() {
    if (mode == 1) {
        if (texture(sourceDepth, vUv).r >= 1.0) {
            colour = vec4(0.08, 0.09, 0.11, 1.0);
            return;
        }
        float d = texture(source, vUv).r - texture(other, vUv).r;
        colour = vec4(diverging(clamp(d / max(valueRange.y, 1e-6), -1.0, 1.0)), 1.0);
        return;
    }
    if (mode == 4) {
        colour = vec4(diverging(2.0 * vUv.x - 1.0), 1.0);
        return;
    }
    if (mode == 3) {
        colour = vec4(clamp(inferno(vUv.x), 0.0, 1.0), 1.0);
        return;
    }
    float value = texture(source, vUv)[channel];
    if (mode == 5) {
        colour = vec4(diverging(clamp(value / max(valueRange.y, 1e-6), -1.0, 1.0)), 1.0);
        return;
    }
    if (mode == 2) {
        vec4 column = texture(source, vUv);
        if (column.r < kBareDepthCm) {
            colour = vec4(vec3(68.0, 76.0, 92.0) / 255.0, 1.0); // whole RGBA8 steps
            return;
        }
        value = column.g / (0.01 * column.r);
    }
    if (notFinite(value)) {
        colour = vec4(1.0, 0.0, 1.0, 1.0); // holes in the data cannot pass for values
        return;
    }
    // lo > hi is allowed: the capture depth maps "deepest contact" bright and "nothing" dark.
    float span = valueRange.y - valueRange.x;
    float t = clamp((value - valueRange.x) / (abs(span) < 1e-6 ? 1e-6 : span), 0.0, 1.0);
    colour = vec4(clamp(inferno(t), 0.0, 1.0), 1.0);
}
