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

// Frozen mud (docs/ground.md section 5): while the air over it is below 0 C the ground is frozen
// hard and a contact does not press it (frozen soil bears far more than thawed: *Frozen Ground*,
// Andersland and Ladanyi). The air is [weather]'s air_temp_c at `timeS` seconds of the run; a
// sky that is only cold freezes it too, but with no sky (weatherGiven false: [weather] all at
// its defaults, whose air is -5 C) the ground is as it was before frozen mud: never frozen. The
// whole print bound freezes and thaws at once: no thawed top layer, no ground temperature of its
// own.
bool groundFrozenAt(const WeatherSettings& weather, double timeS);
// The contact over frozen ground: it stops on the ground's surface, the print's bottom (cm above
// ground level; `printCm` the print there, >= 0). With it the print is never pressed deeper and
// the snow between the contact and the ground is all ploughed away, as a contact below the
// ground does on thawed mud.
inline float frozenGroundContactCm(float contactCm, float printCm) {
    return contactCm > -printCm ? contactCm : -printCm;
}

// kind = "texture": the file ground.texture names, under `root` unless absolute (as a
// deformer's mesh is); empty for every other kind.
std::filesystem::path groundTexturePath(const GroundSettings& ground,
                                        const std::filesystem::path& root);

// What the ground texture may be: at most this many pixels a side (8192^2 RGBA8 is 256 MiB on
// the GPU before its mipmaps), and a file of at most this many bytes.
inline constexpr int kMaxGroundTextureSide = 8192;
inline constexpr std::uint64_t kMaxGroundTextureBytes = std::uint64_t(256) << 20;

} // namespace snowcap
