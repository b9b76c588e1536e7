#version 450 core
// Falling snow (docs/weather.md §4.1): flake gl_VertexID of `air`, one point sprite at a place
// that is a pure function of the run's time, a seed, the flake's index and the box it falls in
// (one over the region, or nested boxes ahead of a perspective camera), so the flakes hold no
// state. CPU twin: flakePosition in src/core/falling_snow.cpp (same operations,
// same order).
#include "../common/view_params.glsl"
#include "../snow/snow_params.glsl"
#include "../surface/lighting.glsl"
// kFlakeLevels, kFlakeBoxOfSlot, kFlakeSeed: core/falling_snow.hpp's, generated.
#include "../common/shared_constants.glsl"

layout(location = 0) uniform vec4 airClock;    // x: time s, y: flakes, z: boxes in use, w: time
                                               // wrapped by whole gust periods (phase_wrap.hpp)
layout(location = 1) uniform vec4 airWind;     // xy: unit direction, z: cm/s, w: gust amount
layout(location = 2) uniform vec4 airGust;     // x: 2 pi gust_hz, y: 2 pi / wavelength (1/cm),
                                               // z: fall min cm/s, w: fall max cm/s
layout(location = 3) uniform vec4 airFlake;    // x: radius cm, y: min radius px, z: max radius
                                               // px, w: the projection's P11
layout(location = 4) uniform float airNearCm;  // nearer than this no flake (0: orthographic)
// Box l (flake i falls in box kFlakeBoxOfSlot[i % 10], or the only one): its least corner, its size, its lattice's origin (cm).
layout(location = 5) uniform vec3 airBoxMin[kFlakeLevels];
layout(location = 9) uniform vec3 airBoxSize[kFlakeLevels];
layout(location = 13) uniform vec3 airBoxOrigin[kFlakeLevels];

layout(location = 0) out float vCoverage;
layout(location = 1) flat out vec3 vColour; // the flake's lit white, the same at every fragment


uint flakeHash(uint x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

float unitOf(uint h) {
    return float(h >> 8) * (1.0 / 16777216.0);
}

vec3 flakePosition(int index) {
    int level = int(airClock.z) <= 1 ? 0 : kFlakeBoxOfSlot[index % 10];
    vec3 boxMin = airBoxMin[level], boxSize = airBoxSize[level], origin = airBoxOrigin[level];
    uint base = uint(index) * 4u ^ kFlakeSeed;
    vec3 start = vec3(unitOf(flakeHash(base)), unitOf(flakeHash(base + 1u)),
                      unitOf(flakeHash(base + 2u)));
    precise float speed = airGust.z + (airGust.w - airGust.z) * unitOf(flakeHash(base + 3u));
    precise float t = airClock.x;
    precise vec2 startXy = origin.xy + start.xy * boxSize.xy;
    precise float phase = airGust.y * dot(startXy, airWind.xy);
    precise float carried = t;
    if (airGust.x > 0.0)
        carried += airWind.w * (cos(phase) - cos(airGust.x * airClock.w - phase)) / airGust.x;
    precise vec2 drift = airWind.xy * (airWind.z * carried);
    // The lattice's copy that lies in the box: origin + start * size + motion, wrapped.
    precise vec3 shift = origin - boxMin;
    precise float x = fract(start.x + (drift.x + shift.x) / boxSize.x);
    precise float y = fract(start.y + (drift.y + shift.y) / boxSize.y);
    precise float z = fract(start.z + (shift.z - speed * t) / boxSize.z);
    return boxMin + vec3(x, y, z) * boxSize;
}

void main() {
    vec3 lit = snow.snowColourWrap.rgb * (snow.sunColour.rgb * 0.6 + snow.skyColour.rgb * 0.8);
    vColour = toDisplay(lit);
    vec4 clip = view.viewProjection * vec4(flakePosition(gl_VertexID), 1.0);
    // Its radius on screen in pixels, never under the least: a flake drawn larger than it is
    // covers less of each pixel, so a far flake fades rather than vanishes or grows.
    // A flake nearer the eye than airNearCm is not drawn, and none is drawn larger than the most:
    // a flake brushing past the lens would cover the view with blended sprites (overdraw).
    if (clip.w < airNearCm) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // outside the clip volume: the point is dropped
        gl_PointSize = 1.0;
        vCoverage = 0.0;
        return;
    }
    float w = max(clip.w, 1e-3);
    float radiusPx = airFlake.x * airFlake.w / w * 0.5 * view.viewportPx.w;
    float drawnPx = clamp(radiusPx, airFlake.y, airFlake.z);
    vCoverage = clamp((radiusPx * radiusPx) / (drawnPx * drawnPx), 0.35, 1.0);
    gl_PointSize = 2.0 * drawnPx; // a square of side 2 drawnPx about the flake's centre
    gl_Position = clip;
}
