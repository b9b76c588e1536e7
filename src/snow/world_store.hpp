#pragma once
// The world tile store of one sim (sim.X.persistence = "world"): square tiles of texels on a
// world-aligned grid, each holding the sim's own half floats (R16F: 1 channel) as their bits,
// so nothing is lost. The store is the truth for every texel outside the window; a texel inside
// the window is the window's (take() hands it over and clears it here). Every tile is kept
// "as after stamp steps" of the sim's clock and aged through the AgingLog whenever it is read
// or written, so a texel's age never depends on how it was paged. With snow.world_compress a
// tile that no window has touched for a while is packed losslessly (snow/tile_codec.*) and
// unpacked when a window comes back; the cap counts the bytes tiles hold, packed or not.
// No GL here: the GL side is snow/world_pager.*.

#include "snow/tile_codec.hpp"
#include "snow/world_aging.hpp"

#include <cstdint>
#include <glm/vec2.hpp>
#include <map>
#include <span>
#include <vector>

namespace snowcap {

// A rectangle of world texels: [x0, x0 + width) x [y0, y0 + height), row 0 = lowest y.
struct TexelRect {
    glm::ivec2 origin{0};
    glm::ivec2 size{0};
    bool empty() const { return size.x <= 0 || size.y <= 0; }
    bool overlaps(const TexelRect& other) const;
    bool operator==(const TexelRect&) const = default;
};
// The tile (on a grid of `tileTexels`-texel tiles) that holds world texel `texel`: floor division.
inline int tileIndexOf(int texel, int tileTexels) {
    return texel >= 0 ? texel / tileTexels : -((-texel + tileTexels - 1) / tileTexels);
}
// A tile a rectangle of texels touches: the tile's index and the part of the rectangle inside it.
struct TilePart {
    glm::ivec2 tile{0};
    TexelRect part;
};
// Every tile of side `tileTexels` that `rect` touches, row by row from the lowest, each with the
// part of `rect` inside it (none for an empty rect).
std::vector<TilePart> tilePartsOf(const TexelRect& rect, int tileTexels);
// The texels of the square window at `from` (side n) that the square at `to` does not cover:
// at most two rectangles (what leaves when a window moves from -> to; swapped, what enters).
std::vector<TexelRect> squareMinusSquare(glm::ivec2 from, glm::ivec2 to, int n);

// Which tiles the store gives up when it is full (measured in docs/world.md).
enum class EvictionPolicy { LeastRecentlySeen, MostHealed };

struct WorldStoreStats {
    long long tiles = 0;
    long long storeBytes = 0;
    long long storeBytesPeak = 0;
    long long pagedOut = 0;     // tile writes (a tile that received texels leaving a window)
    long long pagedIn = 0;      // tile reads that handed texels back to a window
    long long evictedTiles = 0; // dropped for the cap while still holding a trail
    long long healedTiles = 0;  // dropped because every texel had aged to exactly 0
    long long packedTiles = 0;  // tiles held packed now (snow.world_compress)
    long long packs = 0;        // tiles packed (gone cold, or the store was full)
    long long unpacks = 0;      // packed tiles a window came back to
};

class WorldStore {
public:
    struct Tile {
        // tileTexels² x channels, row-major, row 0 = bottom; empty while the tile is packed.
        std::vector<std::uint16_t> bits;
        long long stamp = 0;    // the texels are as after this many clock steps
        long long lastSeen = 0; // the step a window last wrote or took from it
        // The tile's largest value as after topStamp steps: the law is monotone (x k, - r,
        // clamp and rounding keep order), so ageing it ages the tile's maximum, and the
        // healed-tile sweep and the eviction ranking age one value a tile, incrementally.
        std::uint16_t top = 0;
        long long topStamp = 0;
        std::vector<std::uint8_t> packed; // the bits packed with packedWith, while bits is empty
        TileCompression packedWith = TileCompression::Off;
        bool incompressible = false; // packing did not make it smaller (retried once written)
        bool isPacked() const { return bits.empty() && !packed.empty(); }
    };
    using Key = std::pair<int, int>; // tile column, row on the world grid

    WorldStore(int tileTexels, int channels, std::size_t capBytes,
               EvictionPolicy policy = EvictionPolicy::LeastRecentlySeen,
               TileCompression compression = TileCompression::Off);

    // Texels that left a window: `bits` (rect.size.x x rect.size.y x channels, row-major) as
    // after `stamp` steps (stamp <= log.steps()). Zeros over an absent tile cost nothing.
    void write(const TexelRect& rect, std::span<const std::uint16_t> bits, long long stamp,
               const AgingLog& log);
    // Texels that enter a window: their values now (0 where nothing is stored), removed from
    // the store. Returns the largest value handed back (0: the window needs no upload).
    float take(const TexelRect& rect, std::span<std::uint16_t> out, const AgingLog& log);
    // Ages every tile to now, dropping those that have healed to 0 (save files; tests).
    void ageAll(const AgingLog& log);
    // Drops the tiles whose every texel has aged to exactly 0 (cheap: one value a tile), and
    // packs the tiles no window has touched for kColdSteps steps (snow.world_compress).
    void dropHealed(const AgingLog& log);
    void clear();
    // Packing from now on (tiles already packed stay readable: each knows its codec). "off"
    // unpacks nothing: packed tiles come back as windows reach them.
    void setCompression(TileCompression compression) { compression_ = compression; }
    TileCompression compression() const { return compression_; }
    // A tile's bits whether it is packed or not (save files, tests, the viewer's map).
    std::vector<std::uint16_t> tileBits(const Tile& tile) const;
    // The bytes a tile holds: its packing, or tileBytes() unpacked.
    std::size_t heldBytes(const Tile& tile) const;
    // Steps without a window touching a tile before it is packed: a tile behind a walking
    // window is written for as many moves as it has columns, then left.
    static constexpr long long kColdSteps = 64;

    // The oldest stamp any tile still needs from the log.
    long long oldestStamp(long long now) const;
    int tileTexels() const { return tileTexels_; }
    int channels() const { return channels_; }
    std::size_t capBytes() const { return capBytes_; }
    std::size_t tileBytes() const;
    const WorldStoreStats& stats() const { return stats_; }
    const std::map<Key, Tile>& tiles() const { return tiles_; }
    // Save files: put a tile back as it was written (stamp included).
    void insert(Key key, Tile tile);

private:
    void ageTile(Tile& tile, const AgingLog& log);
    static void refreshTop(Tile& tile);
    // The tile's largest value now (advances its cached top).
    static std::uint16_t topNow(Tile& tile, const AgingLog& log);
    // Makes room for `extra` more bytes under the cap, never giving up `keep` (the tile about
    // to grow): packs untouched tiles first, then evicts an eighth of the cap at once.
    void makeRoom(std::size_t extra, const AgingLog& log, const Key* keep);
    void drop(std::map<Key, Tile>::iterator tile, bool evicted);
    // Unpacks a packed tile so it can be read and written texel by texel.
    void unpack(const Key& key, Tile& tile, const AgingLog& log);
    void pack(Tile& tile);
    // Tracks a change of held bytes (`before` -> the tile's bytes now).
    void rebook(std::size_t before, std::size_t after);
    void updateBytes();

    int tileTexels_;
    int channels_;
    std::size_t capBytes_;
    EvictionPolicy policy_;
    TileCompression compression_;
    std::size_t bytes_ = 0; // held by all tiles
    std::map<Key, Tile> tiles_;
    WorldStoreStats stats_;
};

} // namespace snowcap
