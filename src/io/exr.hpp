#pragma once
// OpenEXR files for DCC tools (Nuke, Photoshop, Substance, Blender): the snow buffers as they
// are on the GPU, named channels, lossless ZIP compression. Half channels carry the 16 bits of
// an R16F / RGBA16F texel unchanged (no float round trip), so a file equals the buffer bit for
// bit. No GL here: the lab reads the textures and hands the bits over.

#include "io/image.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

enum class ExrPixel { Half, Float };

// Interleaved channels, row 0 = BOTTOM (the order GL reads textures back, as ImageFloat);
// the file stores rows top first, as every EXR reader expects, so north is up in a viewer.
struct ExrImage {
    int width = 0;
    int height = 0;
    std::vector<std::string> channels; // names in the order the texels interleave them
    ExrPixel pixel = ExrPixel::Half;
    std::vector<std::uint16_t> halves; // Half: width * height * channels half-float bit patterns
    std::vector<float> floats;         // Float: width * height * channels
    std::string comments;              // the standard "comments" attribute (what the file holds)

    std::size_t samples() const {
        return static_cast<std::size_t>(width) * height * channels.size();
    }
};

// Writes atomically (io/image.hpp) with ZIP compression. One line naming the path on failure.
std::optional<std::string> writeExr(const std::filesystem::path& path, const ExrImage& image,
                                    Overwrite overwrite = Overwrite::Replace);

// Reads a scanline or tiled single-part file whose channels are all half or all float. The
// channels come back R, G, B, A first (those present), then the others by name. Files larger
// than 16384 x 16384 or with more than 16 channels are refused before anything is allocated.
std::variant<ExrImage, std::string> readExr(const std::filesystem::path& path);

} // namespace snowcap
