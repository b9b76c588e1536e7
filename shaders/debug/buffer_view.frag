#version 450 core
// Shows one snow buffer (R channel) through a colour map; used by the viewer's panels.
layout(location = 0) in vec2 vUv;
layout(location = 0) out vec4 colour;

layout(binding = 0) uniform sampler2D snowBuffer;
layout(location = 0) uniform vec2 valueRange; // lo, hi

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

void main() {
    float value = texture(snowBuffer, vUv).r;
    float t = clamp((value - valueRange.x) / max(valueRange.y - valueRange.x, 1e-6), 0.0, 1.0);
    colour = vec4(clamp(inferno(t), 0.0, 1.0), 1.0);
}
