#include "scene/foliage_wind.hpp"

#include "core/phase_wrap.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace snowcap {
namespace {

// Written out as GLSL defines them, so the CPU does what the shader does.
constexpr float kTwoPi = 6.28318530718f;

float smoothstep(float edge0, float edge1, float x) {
    const float t = std::clamp((x - edge0) / (edge1 - edge0), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

} // namespace

WindState windAt(const WindSettings& wind, double timeS, std::span<const WindPusher> pushers) {
    WindState state;
    const double angle = wind.directionDeg * 3.14159265358979323846 / 180.0;
    state.block.motion = {float(std::cos(angle)), float(std::sin(angle)), float(wind.strength),
                          float(wind.gustHz)};
    const std::size_t count = std::min<std::size_t>(pushers.size(), kMaxWindPushers);
    // Each sine gets the time wrapped by its own period, its frequency as the shader forms it.
    const float gustHz = state.block.motion.w;
    const float flutterHz = 2.3f * gustHz + 0.7f;
    const float acrossHz = 1.9f * gustHz + 0.5f;
    state.block.gust = {float(wrappedTimeS(timeS, 1.0 / double(gustHz))), float(wind.gustAmount),
                        float(2.0 * 3.14159265358979323846 / wind.gustWavelengthCm), float(count)};
    state.block.push = {float(wind.pushMarginCm), float(wind.pushLean),
                        float(wrappedTimeS(timeS, 1.0 / double(flutterHz))),
                        float(wrappedTimeS(timeS, 1.0 / double(acrossHz)))};
    for (std::size_t i = 0; i < count; ++i)
        state.pushers.emplace_back(pushers[i].centreCm, pushers[i].lowestZCm, pushers[i].radiusCm);
    return state;
}

glm::vec2 plantLean(const WindState& wind, glm::vec3 rootCm, float heightCm, glm::vec4 sway) {
    const WindBlock& w = wind.block;
    const glm::vec2 direction(w.motion.x, w.motion.y);
    // Gust fronts sweep downwind; each plant adds a flutter of its own phase, along the wind
    // and a little across it. Each sine has its own wrapped time (windAt).
    const float along = glm::dot(glm::vec2(rootCm), direction);
    const float gust = std::sin(kTwoPi * w.motion.w * w.gust.x - w.gust.z * along);
    const float flutter = std::sin(kTwoPi * (2.3f * w.motion.w + 0.7f) * w.push.z + sway.x);
    const float across = std::sin(kTwoPi * (1.9f * w.motion.w + 0.5f) * w.push.w + 1.7f * sway.x);
    const float lean = w.motion.z * (1.0f + w.gust.y * gust + 0.15f * flutter);
    glm::vec2 total =
        lean * direction + (0.1f * w.motion.z * across) * glm::vec2(-direction.y, direction.x);
    const int count = int(w.gust.w);
    for (int i = 0; i < count; ++i) {
        const glm::vec4 p = wind.pushers[std::size_t(i)];
        if (p.z > rootCm.z + heightCm)
            continue; // it passes over the plant
        const glm::vec2 away = glm::vec2(rootCm) - glm::vec2(p);
        const float distance = glm::length(away);
        const float reach = p.w + w.push.x;
        if (distance >= reach)
            continue;
        const float amount = w.push.y * (1.0f - smoothstep(p.w, reach, distance));
        total += amount * (distance > 1e-3f ? away / distance : direction);
    }
    total /= sway.y;
    const float length = glm::length(total);
    if (length > sway.w)
        total *= sway.w / length;
    return total;
}

glm::vec3 windOffset(const WindState& wind, glm::vec3 localPosCm, glm::vec4 sway,
                     const glm::mat4& model) {
    const float scale = glm::length(glm::vec3(model[2]));
    const float heightCm = sway.z * scale;
    const glm::vec2 lean = plantLean(wind, glm::vec3(model[3]), heightCm, sway);
    const float h = std::clamp(localPosCm.z / sway.z, 0.0f, 1.0f);
    const float bent = glm::length(lean) * h;
    const float z = std::max(localPosCm.z, 0.0f) * scale;
    const glm::vec2 side = lean * (heightCm * h * h);
    return {side.x, side.y, z * (std::sqrt(std::max(1.0f - bent * bent, 0.0f)) - 1.0f)};
}

} // namespace snowcap
