// The wind that sways [[foliage]] (docs/crowds.md, foliage): windOffset bends a plant's vertex
// by its height above the root, so the root stays planted and the tip moves most. Called by
// deformerWorldPosition for instances whose flags have bit 1 (sway), so the capture presses
// what the colour pass draws. CPU reference: src/scene/foliage_wind.cpp (same operations, same
// order; FoliageWind.* compares the two).
//
// A plant leans as one: the wind at its root (a gust wave sweeping downwind plus its own
// flutter) and a push away from each deformer near it, over its stiffness, capped at its
// max_lean. sway = (phase rad, stiffness, height in mesh cm, max lean).

layout(std430, binding = 6) readonly buffer Wind {
    vec4 windMotion;    // xy: unit direction it blows towards, z: strength, w: gust Hz
    vec4 windGust;      // x: gust time s, y: gust amount, z: 2 pi / wavelength (1/cm), w: pushers
    vec4 windPush;      // x: push margin cm, y: push lean, z: flutter time s, w: across time s
    vec4 windPushers[]; // xy: centre cm, z: lowest z cm, w: radius cm
};

const float kWindTwoPi = 6.28318530718;

vec2 plantLean(vec3 rootCm, float heightCm, vec4 sway) {
    precise vec2 direction = windMotion.xy;
    // Each sine's time comes wrapped by its own period (src/core/phase_wrap.hpp).
    precise float along = dot(rootCm.xy, direction);
    precise float gust = sin(kWindTwoPi * windMotion.w * windGust.x - windGust.z * along);
    precise float flutter = sin(kWindTwoPi * (2.3 * windMotion.w + 0.7) * windPush.z + sway.x);
    precise float across = sin(kWindTwoPi * (1.9 * windMotion.w + 0.5) * windPush.w + 1.7 * sway.x);
    precise float lean = windMotion.z * (1.0 + windGust.y * gust + 0.15 * flutter);
    precise vec2 total =
        lean * direction + (0.1 * windMotion.z * across) * vec2(-direction.y, direction.x);
    int count = int(windGust.w);
    for (int i = 0; i < count; ++i) {
        vec4 p = windPushers[i];
        if (p.z > rootCm.z + heightCm)
            continue; // it passes over the plant
        precise vec2 away = rootCm.xy - p.xy;
        precise float distance = length(away);
        precise float reach = p.w + windPush.x;
        if (distance >= reach)
            continue;
        precise float amount = windPush.y * (1.0 - smoothstep(p.w, reach, distance));
        total += amount * (distance > 1e-3 ? away / distance : direction);
    }
    total /= sway.y;
    precise float size = length(total);
    if (size > sway.w)
        total *= sway.w / size;
    return total;
}

// The world-space offset of a vertex at `localPosCm` (the plant mesh's cm, root at the origin)
// of a plant placed by `model` (a turn about Z, a uniform scale, a move).
vec3 windOffset(vec3 localPosCm, vec4 sway, mat4 model) {
    precise float scale = length(model[2].xyz);
    precise float heightCm = sway.z * scale;
    precise vec2 lean = plantLean(model[3].xyz, heightCm, sway);
    precise float h = clamp(localPosCm.z / sway.z, 0.0, 1.0);
    precise float bent = length(lean) * h;
    precise float z = max(localPosCm.z, 0.0) * scale;
    precise vec2 side = lean * (heightCm * h * h);
    return vec3(side, z * (sqrt(max(1.0 - bent * bent, 0.0)) - 1.0));
}
