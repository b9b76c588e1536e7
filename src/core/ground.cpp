#include "core/ground.hpp"

#include "core/weather_laws.hpp"

namespace snowcap {

GroundLayer groundLayer(const GroundSettings& ground, const LookSettings& look) {
    switch (ground.kind) {
    case GroundKind::Grass: // dry winter grass, green-brown; water darkens it a little
        return {{0.17f, 0.24f, 0.08f}, {0.55, 0.85}, 0.25f};
    case GroundKind::Mud: // dark wet soil: water darkens it most and smooths it
        return {{0.24f, 0.17f, 0.11f}, {0.7, 0.6}, 0.55f};
    case GroundKind::Rock: // grey stone
        return {{0.40f, 0.39f, 0.37f}, {0.5, 0.75}, 0.3f};
    case GroundKind::Texture: // the albedo is the texture's (the shader's GROUND_TEXTURE); the
                              // look's OR; water darkens it as it darkens rock and soil
        return {look.groundColour, look.groundOr, 0.4f};
    case GroundKind::Colour:
        break;
    }
    // The look's layer with no darkening term: the surface as it was before [ground].
    return {look.groundColour, look.groundOr, 0.0f};
}

float groundPrintMaxCm(const GroundSettings& ground) {
    // Grass (roots), rock and colour take none; a texture is a picture of some ground, not a
    // material, so it takes none either.
    return ground.kind == GroundKind::Mud ? static_cast<float>(ground.mudPrintMaxCm) : 0.0f;
}

bool groundFrozenAt(const WeatherSettings& weather, double timeS) {
    return weatherGiven(weather) && skyAt(weather, timeS).airTempC < 0.0;
}

std::filesystem::path groundTexturePath(const GroundSettings& ground,
                                        const std::filesystem::path& root) {
    if (ground.kind != GroundKind::Texture)
        return {};
    const std::filesystem::path file(ground.texture);
    return file.is_absolute() ? file : root / file;
}

} // namespace snowcap
