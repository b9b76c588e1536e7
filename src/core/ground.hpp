#pragma once
// What lies under the snow ([ground], docs/ground.md): the ground layer of every sim's surface,
// where a decay sim's print reaches it and where a snowpack's depth goes to 0. "colour" is the
// look's own layer (look.ground_colour, look.ground_or), bit for bit as it always was; grass,
// mud and rock are the lab's palette (chosen by eye, not measured).

#include "core/settings.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <glm/vec3.hpp>

namespace snowcap {

struct GroundLayer {
    glm::vec3 colour{};               // albedo, varied by the landscape's detail noise
    std::array<double, 2> orValues{}; // [occlusion in the detail's hollows, roughness]
    float wetDarkening = 0.0f;        // the share of the albedo water takes at 5 kg/m2
};

GroundLayer groundLayer(const GroundSettings& ground, const LookSettings& look);

// How deep (cm below ground level) the ground under a snowpack sim takes a print at most:
// ground.mud_print_max_cm for kind = "mud", 0 (no print) for every other kind (docs/ground.md
// section 5).
float groundPrintMaxCm(const GroundSettings& ground);

// kind = "texture": the file ground.texture names, under `root` unless absolute (as a
// deformer's mesh is); empty for every other kind.
std::filesystem::path groundTexturePath(const GroundSettings& ground,
                                        const std::filesystem::path& root);

// What the ground texture may be: at most this many pixels a side (8192^2 RGBA8 is 256 MiB on
// the GPU before its mipmaps), and a file of at most this many bytes.
inline constexpr int kMaxGroundTextureSide = 8192;
inline constexpr std::uint64_t kMaxGroundTextureBytes = std::uint64_t(256) << 20;

} // namespace snowcap
