#pragma once
// The wind that sways [[foliage]], on the CPU: the std430 mirror of shaders/common/wind.glsl's
// block and the CPU reference of its windOffset, the same float operations in the same order,
// so a test can hold a GL readback against it. No GL.
//
// A plant leans as one: its lean is a horizontal vector (the top's offset over the plant's
// height) from the wind at its root, plus a push away from every deformer near it, divided by
// its stiffness and capped at its max_lean. A vertex at height fraction h of the plant moves
// by lean * height * h^2 sideways (the root stays planted, the tip moves most) and drops so its
// distance from the root holds: z' = z * sqrt(1 - (|lean| h)^2).

#include "core/settings.hpp"

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <vector>

namespace snowcap {

// A deformer as the plants feel it: a vertical cylinder round its bounds.
struct WindPusher {
    glm::vec2 centreCm{0.0f};
    float lowestZCm = 0.0f; // a deformer above a plant's top does not touch it
    float radiusCm = 0.0f;
};

// The SSBO's fixed head (std430, binding 6); the pushers follow as vec4 (x, y, lowest z,
// radius). Mirrors `buffer Wind` in shaders/common/wind.glsl.
struct WindBlock {
    glm::vec4 motion{0.0f}; // xy: unit direction it blows towards, z: strength, w: gust Hz
    glm::vec4 gust{0.0f};   // x: gust time s, y: gust amount, z: 2 pi / wavelength (1/cm),
                            // w: pushers
    glm::vec4 push{0.0f};   // x: push margin cm, y: push lean, z: flutter time s, w: across
                            // time s (each time wrapped by its sine's period, core/phase_wrap.hpp)
};
static_assert(sizeof(WindBlock) == 48, "std430: three vec4, then vec4 pushers[]");

// Pushers the shader loops over at most; the CPU keeps the nearest to the plants.
inline constexpr int kMaxWindPushers = 64;

// What one frame's wind is: its block and its pushers.
struct WindState {
    WindBlock block;
    std::vector<glm::vec4> pushers; // as uploaded: (x, y, lowest z, radius)
};

WindState windAt(const WindSettings& wind, double timeS, std::span<const WindPusher> pushers);

// sway = (phase rad, stiffness, height in mesh cm, max lean): a plant instance's record.
// The lean (top offset / height) of a plant rooted at `rootCm` that is `heightCm` tall (world).
glm::vec2 plantLean(const WindState& wind, glm::vec3 rootCm, float heightCm, glm::vec4 sway);
// The world-space offset of a vertex at `localPosCm` (the plant mesh's own cm, root at the
// origin, Z up) of a plant placed by `model` (a turn about Z, a uniform scale, a move).
glm::vec3 windOffset(const WindState& wind, glm::vec3 localPosCm, glm::vec4 sway,
                     const glm::mat4& model);

} // namespace snowcap
