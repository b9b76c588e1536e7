#pragma once
// What lies under the snow ([ground], docs/ground.md): the ground layer of every sim's surface,
// where a decay sim's print reaches it and where a snowpack's depth goes to 0. "colour" is the
// look's own layer (look.ground_colour, look.ground_or), bit for bit as it always was; grass,
// mud and rock are the lab's palette (chosen by eye, not measured).

#include "core/settings.hpp"

#include <array>
#include <glm/vec3.hpp>

namespace snowcap {

struct GroundLayer {
    glm::vec3 colour{};               // albedo, varied by the landscape's detail noise
    std::array<double, 2> orValues{}; // [occlusion in the detail's hollows, roughness]
    float wetDarkening = 0.0f;        // the share of the albedo water takes at 5 kg/m2
};

GroundLayer groundLayer(const GroundSettings& ground, const LookSettings& look);

} // namespace snowcap
