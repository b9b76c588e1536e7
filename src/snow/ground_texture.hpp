#pragma once
// The ground's texture ([ground] kind = "texture", docs/ground.md section 4): the PNG that
// ground.texture names, read as an untrusted file (io/image.hpp readPngWithin: the signature,
// the header's size within kMaxGroundTextureSide, pixel data that fills it) and uploaded as
// sRGB with its mipmaps. The surface material samples it as the ground layer's albedo where
// the ground shows (GROUND_TEXTURE, shaders/surface/material.glsl), one repeat every
// ground.texture_tile_cm from the world origin, the file's top row towards +Y.

#include "core/settings.hpp"
#include "gpu/objects.hpp"
#include "io/image.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <variant>

namespace snowcap {

class GroundTexture {
public:
    // The image of `ground`'s file (no GL), or one line naming the key, the file and the reason
    // ("key 'ground.texture': /x/y.png: not a PNG (...)").
    static std::variant<ImageRgba8, std::string> read(const GroundSettings& ground,
                                                      const std::filesystem::path& root);
    // `image` on the GPU (rows flipped: its top row at t = 1), mipmapped; the allocation's
    // reason on failure. `file` names it (what a later settings change compares against).
    static std::variant<std::shared_ptr<const GroundTexture>, std::string>
    upload(const ImageRgba8& image, const std::filesystem::path& file);
    // read, then upload: the ground texture `ground` asks for, or null for any other kind. A
    // texture of the same file as `current` is `current`, not read again.
    static std::variant<std::shared_ptr<const GroundTexture>, std::string>
    prepare(const GroundSettings& ground, const std::filesystem::path& root,
            const std::shared_ptr<const GroundTexture>& current);

    const gpu::Texture2D& texture() const { return texture_; }
    const gpu::Sampler& sampler() const { return sampler_; }
    const std::filesystem::path& file() const { return file_; }

private:
    gpu::Texture2D texture_;
    gpu::Sampler sampler_;
    std::filesystem::path file_;
};

} // namespace snowcap
