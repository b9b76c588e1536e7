#include "net/tiles.hpp"

#include "snow/snow_sim.hpp"
#include "snow/tile_codec.hpp"
#include "snow/world_file.hpp" // crc32

#include <algorithm>
#include <cstring>

namespace snowcap::net {

namespace {

// glGetTextureImage's format and type for a buffer format, and its 16-bit words per texel.
struct WordLayout {
    GLenum format = GL_RED;
    GLenum type = GL_HALF_FLOAT;
    int words = 1;
};

WordLayout layoutOf(gpu::TextureFormat format) {
    switch (format) {
    case gpu::TextureFormat::R16F:
        return {GL_RED, GL_HALF_FLOAT, 1};
    case gpu::TextureFormat::RGBA16F:
        return {GL_RGBA, GL_HALF_FLOAT, 4};
    case gpu::TextureFormat::R32F:
        return {GL_RED, GL_FLOAT, 2};
    case gpu::TextureFormat::RGBA32F:
        return {GL_RGBA, GL_FLOAT, 8};
    default:
        return {GL_RED, GL_HALF_FLOAT, 1}; // no sim buffer has another format
    }
}

} // namespace

TileGrid::Rect TileGrid::rect(int index) const {
    const int cx = index % columns(), cy = index / columns();
    Rect r{cx * tile, cy * tile, 0, 0};
    r.w = std::min(tile, width - r.x);
    r.h = std::min(tile, height - r.y);
    return r;
}

std::vector<std::uint16_t> tileWords(const BufferWords& buffer, const TileGrid& grid, int index) {
    const TileGrid::Rect r = grid.rect(index);
    const std::size_t rowWords = static_cast<std::size_t>(r.w) * buffer.wordsPerTexel;
    std::vector<std::uint16_t> out(rowWords * r.h);
    for (int y = 0; y < r.h; ++y) {
        const std::size_t from =
            (static_cast<std::size_t>(r.y + y) * buffer.width + r.x) * buffer.wordsPerTexel;
        std::memcpy(out.data() + rowWords * y, buffer.words.data() + from, rowWords * 2);
    }
    return out;
}

bool putTileWords(BufferWords& buffer, const TileGrid& grid, int index,
                  std::span<const std::uint16_t> words) {
    if (index < 0 || index >= grid.count())
        return false;
    const TileGrid::Rect r = grid.rect(index);
    const std::size_t rowWords = static_cast<std::size_t>(r.w) * buffer.wordsPerTexel;
    if (words.size() != rowWords * r.h)
        return false;
    for (int y = 0; y < r.h; ++y) {
        const std::size_t to =
            (static_cast<std::size_t>(r.y + y) * buffer.width + r.x) * buffer.wordsPerTexel;
        std::memcpy(buffer.words.data() + to, words.data() + rowWords * y, rowWords * 2);
    }
    return true;
}

bool tileEqual(const BufferWords& a, const BufferWords& b, const TileGrid& grid, int index) {
    const TileGrid::Rect r = grid.rect(index);
    const std::size_t rowWords = static_cast<std::size_t>(r.w) * a.wordsPerTexel;
    for (int y = 0; y < r.h; ++y) {
        const std::size_t at =
            (static_cast<std::size_t>(r.y + y) * a.width + r.x) * a.wordsPerTexel;
        if (std::memcmp(a.words.data() + at, b.words.data() + at, rowWords * 2) != 0)
            return false;
    }
    return true;
}

std::uint32_t tileCrc(const BufferWords& buffer, const TileGrid& grid, int index) {
    const std::vector<std::uint16_t> words = tileWords(buffer, grid, index);
    return crc32(words.data(), words.size() * 2);
}

std::vector<std::uint32_t> tileCrcs(const BufferWords& buffer, const TileGrid& grid) {
    std::vector<std::uint32_t> crcs(grid.count());
    for (int i = 0; i < grid.count(); ++i)
        crcs[i] = tileCrc(buffer, grid, i);
    return crcs;
}

Tile packBufferTile(const BufferWords& buffer, const TileGrid& grid, int index,
                    WorldCompression compression) {
    return {static_cast<std::uint32_t>(index),
            packTile(compression, tileWords(buffer, grid, index))};
}

bool unpackBufferTile(BufferWords& buffer, const TileGrid& grid, const Tile& tile,
                      WorldCompression compression) {
    if (tile.index >= static_cast<std::uint32_t>(grid.count()))
        return false;
    const TileGrid::Rect r = grid.rect(static_cast<int>(tile.index));
    std::vector<std::uint16_t> words(static_cast<std::size_t>(r.w) * r.h * buffer.wordsPerTexel);
    if (!unpackTile(compression, tile.packed, words))
        return false;
    return putTileWords(buffer, grid, static_cast<int>(tile.index), words);
}

BufferWords readSimBuffer(const SnowSim& sim) {
    const gpu::Texture2D& texture = sim.persistent();
    const WordLayout layout = layoutOf(texture.format());
    BufferWords buffer{texture.width(), texture.height(), layout.words, {}};
    buffer.words.resize(static_cast<std::size_t>(buffer.width) * buffer.height * layout.words);
    if (texture.id() == 0)
        return buffer; // snow.quality = "off": nothing allocated, nothing to read
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(texture.id(), 0, layout.format, layout.type,
                      static_cast<GLsizei>(buffer.words.size() * 2), buffer.words.data());
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    return buffer;
}

void writeSimTiles(const SnowSim& sim, const BufferWords& buffer, const TileGrid& grid,
                   std::span<const int> tiles) {
    const gpu::Texture2D& texture = sim.persistent();
    if (texture.id() == 0 || tiles.empty())
        return;
    const WordLayout layout = layoutOf(texture.format());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (int index : tiles) {
        const TileGrid::Rect r = grid.rect(index);
        const std::vector<std::uint16_t> words = tileWords(buffer, grid, index);
        glTextureSubImage2D(texture.id(), 0, r.x, r.y, r.w, r.h, layout.format, layout.type,
                            words.data());
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

} // namespace snowcap::net
