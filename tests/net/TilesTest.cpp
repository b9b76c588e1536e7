// A buffer as tiles (net/tiles.hpp): the grid covers every texel once, ragged edges included;
// a tile packs and unpacks to its exact words with every codec; checksums see one flipped bit.
#include "net/tiles.hpp"

#include <gtest/gtest.h>
#include <random>
#include <set>

namespace snowcap::net {
namespace {

BufferWords randomBuffer(int width, int height, int words, unsigned seed) {
    BufferWords buffer{width, height, words, {}};
    buffer.words.resize(static_cast<std::size_t>(width) * height * words);
    std::mt19937 random(seed);
    for (auto& w : buffer.words)
        w = static_cast<std::uint16_t>(random() & 0x3fff); // positive halves, some runs of 0
    return buffer;
}

TEST(TilesTest, TheGridCoversEveryTexelOnce) {
    const TileGrid grid{70, 45, 32}; // ragged on both sides
    EXPECT_EQ(grid.columns(), 3);
    EXPECT_EQ(grid.rows(), 2);
    std::vector<int> covered(70 * 45, 0);
    for (int t = 0; t < grid.count(); ++t) {
        const TileGrid::Rect r = grid.rect(t);
        for (int y = r.y; y < r.y + r.h; ++y)
            for (int x = r.x; x < r.x + r.w; ++x)
                ++covered[y * 70 + x];
    }
    for (int c : covered)
        ASSERT_EQ(c, 1);
    EXPECT_EQ(grid.rect(5).w, 70 - 64);
    EXPECT_EQ(grid.rect(5).h, 45 - 32);
}

TEST(TilesTest, TilesRoundTripThroughEveryCodec) {
    for (int words : {1, 4, 8}) {
        const BufferWords source = randomBuffer(70, 45, words, 11u + words);
        const TileGrid grid = gridOf(source, 32);
        for (WorldCompression codec :
             {WorldCompression::Off, WorldCompression::Lz4, WorldCompression::Zstd}) {
            BufferWords copy{70, 45, words, std::vector<std::uint16_t>(source.words.size(), 0)};
            for (int t = 0; t < grid.count(); ++t) {
                const Tile tile = packBufferTile(source, grid, t, codec);
                ASSERT_TRUE(unpackBufferTile(copy, grid, tile, codec));
                EXPECT_TRUE(tileEqual(source, copy, grid, t));
            }
            EXPECT_EQ(copy.words, source.words);
        }
    }
}

TEST(TilesTest, ABadTileIsRefusedAndChangesNothing) {
    const BufferWords source = randomBuffer(64, 64, 1, 3);
    const TileGrid grid = gridOf(source, 32);
    BufferWords copy = source;
    Tile tile = packBufferTile(source, grid, 1, WorldCompression::Zstd);
    tile.index = 4; // past the 2 x 2 grid
    EXPECT_FALSE(unpackBufferTile(copy, grid, tile, WorldCompression::Zstd));
    tile.index = 1;
    tile.packed.resize(tile.packed.size() / 2); // cut short
    EXPECT_FALSE(unpackBufferTile(copy, grid, tile, WorldCompression::Zstd));
    EXPECT_EQ(copy.words, source.words);
}

TEST(TilesTest, ChecksumsFindTheOneTileThatDiffers) {
    const BufferWords a = randomBuffer(96, 64, 1, 5);
    BufferWords b = a;
    b.words[40 * 96 + 70] ^= 1; // texel (70, 40): tile column 2, row 1 -> tile 5
    const TileGrid grid = gridOf(a, 32);
    const auto ca = tileCrcs(a, grid), cb = tileCrcs(b, grid);
    std::set<int> differ;
    for (int t = 0; t < grid.count(); ++t)
        if (ca[t] != cb[t])
            differ.insert(t);
    EXPECT_EQ(differ, std::set<int>{5});
    EXPECT_FALSE(tileEqual(a, b, grid, 5));
    EXPECT_TRUE(tileEqual(a, b, grid, 4));
}

} // namespace
} // namespace snowcap::net
