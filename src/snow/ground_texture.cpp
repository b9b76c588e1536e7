#include "snow/ground_texture.hpp"

#include "core/ground.hpp"

#include <algorithm>
#include <cstring>

namespace snowcap {

namespace {

const std::string kKey = "key 'ground.texture': ";

} // namespace

std::variant<ImageRgba8, std::string> GroundTexture::read(const GroundSettings& ground,
                                                          const std::filesystem::path& root) {
    if (ground.texture.empty())
        return kKey + "kind = \"texture\" needs a PNG file here";
    auto image = readPngWithin(groundTexturePath(ground, root), kMaxGroundTextureSide,
                               kMaxGroundTextureBytes);
    if (auto* error = std::get_if<std::string>(&image))
        return kKey + *error;
    return std::move(std::get<ImageRgba8>(image));
}

std::variant<std::shared_ptr<const GroundTexture>, std::string>
GroundTexture::upload(const ImageRgba8& image, const std::filesystem::path& file) {
    auto made = std::make_shared<GroundTexture>();
    int levels = 1;
    while ((std::max(image.width, image.height) >> levels) > 0)
        ++levels;
    made->texture_ = gpu::Texture2D(image.width, image.height, gpu::TextureFormat::SRGB8A8,
                                    "ground.texture", levels);
    if (!made->texture_.id())
        return kKey + file.string() + ": " + made->texture_.allocationError();
    // GL's rows go bottom first: the file's top row at t = 1, towards +Y seen from above.
    std::vector<std::uint8_t> rows(image.pixels.size());
    const std::size_t stride = static_cast<std::size_t>(image.width) * 4;
    for (int y = 0; y < image.height; ++y)
        std::memcpy(&rows[static_cast<std::size_t>(image.height - 1 - y) * stride],
                    &image.pixels[static_cast<std::size_t>(y) * stride], stride);
    made->texture_.uploadRgba8(rows);
    made->texture_.generateMipmaps();
    made->sampler_ = gpu::Sampler(GL_LINEAR, GL_REPEAT, "ground.texture");
    glSamplerParameteri(made->sampler_.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    made->file_ = file;
    return std::shared_ptr<const GroundTexture>(std::move(made));
}

std::variant<std::shared_ptr<const GroundTexture>, std::string>
GroundTexture::prepare(const GroundSettings& ground, const std::filesystem::path& root,
                       const std::shared_ptr<const GroundTexture>& current) {
    if (ground.kind != GroundKind::Texture)
        return std::shared_ptr<const GroundTexture>();
    const std::filesystem::path file = groundTexturePath(ground, root);
    if (current && !ground.texture.empty() && current->file() == file)
        return current;
    auto image = read(ground, root);
    if (auto* error = std::get_if<std::string>(&image))
        return std::move(*error);
    return upload(std::get<ImageRgba8>(image), file);
}

} // namespace snowcap
