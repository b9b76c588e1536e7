#pragma once
// A sim's buffer as the network sees it: its texels' raw 16-bit words (a half float is one word,
// an rgba16f texel four, a snowpack's rgba32f texel eight), cut into square tiles of
// net.tile_texels (the last row and column may be narrower). State is sent tile by tile, packed
// by the world store's tile codec; divergence is found tile by tile, by CRC-32.
//
// Reading and writing go through the GL (glGetTextureImage, glTextureSubImage2D) in the
// current context; the rest is plain CPU work that the unit tests run without one.

#include "core/settings.hpp"
#include "net/wire.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace snowcap {
class SnowSim;
}

namespace snowcap::net {

struct BufferWords {
    int width = 0, height = 0;
    int wordsPerTexel = 1;
    std::vector<std::uint16_t> words; // rows bottom first, texel after texel
    bool sameShape(const BufferWords& other) const {
        return width == other.width && height == other.height &&
               wordsPerTexel == other.wordsPerTexel;
    }
};

struct TileGrid {
    int width = 0, height = 0, tile = 32;
    int columns() const { return (width + tile - 1) / tile; }
    int rows() const { return (height + tile - 1) / tile; }
    int count() const { return columns() * rows(); }
    // The tile's texel rectangle: x, y, width, height.
    struct Rect {
        int x = 0, y = 0, w = 0, h = 0;
    };
    Rect rect(int index) const;
};

inline TileGrid gridOf(const BufferWords& buffer, int tileTexels) {
    return {buffer.width, buffer.height, tileTexels};
}

// The tile's words, row by row.
std::vector<std::uint16_t> tileWords(const BufferWords& buffer, const TileGrid& grid, int index);
// Writes a tile's words (as tileWords gave them) back; false if the count is not the tile's.
bool putTileWords(BufferWords& buffer, const TileGrid& grid, int index,
                  std::span<const std::uint16_t> words);
bool tileEqual(const BufferWords& a, const BufferWords& b, const TileGrid& grid, int index);
std::uint32_t tileCrc(const BufferWords& buffer, const TileGrid& grid, int index);
std::vector<std::uint32_t> tileCrcs(const BufferWords& buffer, const TileGrid& grid);

// A tile packed for the wire, and back into `buffer` (false: it does not unpack to the tile).
Tile packBufferTile(const BufferWords& buffer, const TileGrid& grid, int index,
                    WorldCompression compression);
bool unpackBufferTile(BufferWords& buffer, const TileGrid& grid, const Tile& tile,
                      WorldCompression compression);

// The sim's current buffer (SnowSim::persistent()), read back now.
BufferWords readSimBuffer(const SnowSim& sim);
// Uploads the listed tiles of `buffer` into the sim's current buffer.
void writeSimTiles(const SnowSim& sim, const BufferWords& buffer, const TileGrid& grid,
                   std::span<const int> tiles);

} // namespace snowcap::net
