#version 450 core
// The sky behind everything: a gradient from horizon haze to zenith blue and a soft sun.
#include "../snow/snow_params.glsl"
#include "../common/view_params.glsl"
#include "../surface/lighting.glsl"

layout(location = 0) in vec2 vUv;
layout(location = 0) out vec4 colour;

void main() {
    vec4 far = view.inverseViewProjection * vec4(vUv * 2.0 - 1.0, 1.0, 1.0);
    vec3 direction = normalize(far.xyz / far.w - view.eyeCm.xyz);
    float up = clamp(direction.z, 0.0, 1.0);
    vec3 zenith = snow.skyColour.rgb * 0.9;
    vec3 horizon = mix(snow.skyColour.rgb, vec3(1.0), 0.65);
    vec3 sky = mix(horizon, zenith, pow(up, 0.45));
    float sun = pow(max(dot(direction, snow.sunDirection.xyz), 0.0), 400.0);
    colour = vec4(toDisplay(sky + snow.sunColour.rgb * sun * 4.0), 1.0);
}
