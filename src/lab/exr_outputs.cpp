#include "lab/exr_outputs.hpp"

#include "core/snowpack_laws.hpp"

#include <fmt/format.h>

namespace snowcap {

std::vector<std::uint16_t> readHalfBits(const gpu::Texture2D& texture) {
    const int channels = gpu::formatInfo(texture.format()).channels;
    std::vector<std::uint16_t> bits(static_cast<std::size_t>(texture.width()) * texture.height() *
                                    channels);
    glPixelStorei(GL_PACK_ALIGNMENT, 2);
    glGetTextureImage(texture.id(), 0, channels == 1 ? GL_RED : GL_RGBA, GL_HALF_FLOAT,
                      static_cast<GLsizei>(bits.size() * sizeof(std::uint16_t)), bits.data());
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    return bits;
}

ExrImage persistentExr(const SnowSim& sim, const std::string& simName) {
    const gpu::Texture2D& texture = sim.persistent();
    if (sim.snowpack()) {
        // Full floats: the state is RGBA32F because halves cannot hold its mass.
        ExrImage image;
        image.width = texture.width();
        image.height = texture.height();
        image.pixel = ExrPixel::Float;
        image.channels = {"depth_cm", "density", "water", "ground_print_cm"};
        image.floats = texture.readFloats();
        for (std::size_t i = 0; i + 3 < image.floats.size(); i += 4) // stored: mass (kg/m2)
            image.floats[i + 1] = densityOf({image.floats[i], image.floats[i + 1], 0.0f, 0.0f});
        image.comments = fmt::format(
            "snowcap sim {} snowpack state (RGBA32F): depth_cm snow depth above the ground "
            "in cm, density mean density in kg/m3, water liquid water in kg/m2, "
            "ground_print_cm the depth of the ground's print under the column in cm below "
            "ground level (0 unless [ground] kind = \"mud\"). Row 0 of the buffer is south.",
            simName);
        return image;
    }
    const bool rgba = gpu::formatInfo(texture.format()).channels == 4;
    ExrImage image;
    image.width = texture.width();
    image.height = texture.height();
    image.pixel = ExrPixel::Half;
    image.channels =
        rgba ? std::vector<std::string>{"R", "G", "B", "A"} : std::vector<std::string>{"R"};
    image.halves = readHalfBits(texture);
    image.comments =
        rgba ? fmt::format("snowcap sim {} persistent buffer (RGBA16F): R contact intensity 0..1, "
                           "G age in seconds since the last contact, B contact type code "
                           "(0 none, 1 foot, 2 vehicle, 3 animal, 4 other), A distance in texels "
                           "to the print the type belongs to. Row 0 of the buffer is south.",
                           simName)
             : fmt::format("snowcap sim {} persistent buffer (R16F): R contact intensity 0..1. "
                           "Row 0 of the buffer is south.",
                           simName);
    return image;
}

ExrImage captureDepthExr(const ContactCapture& capture) {
    ExrImage image;
    image.width = capture.depth().width();
    image.height = capture.depth().height();
    image.pixel = ExrPixel::Float;
    image.channels = {"R"};
    image.floats = capture.depth().readFloats();
    for (float& v : image.floats)
        v *= static_cast<float>(capture.key().farCm);
    image.comments = fmt::format("snowcap capture depth: R SceneDepth in cm from the capture "
                                 "camera below the snow (far {} cm where nothing is)",
                                 capture.key().farCm);
    return image;
}

std::optional<std::string> writePersistentExr(const std::filesystem::path& path, const SnowSim& sim,
                                              const std::string& simName) {
    return writeExr(path, persistentExr(sim, simName));
}

std::optional<std::string> writeCaptureDepthExr(const std::filesystem::path& path,
                                                const ContactCapture& capture) {
    return writeExr(path, captureDepthExr(capture));
}

} // namespace snowcap
