// hybrid mode's repair, end to end in one process (net/net_cases.hpp's LoopbackPair: the
// server's Authority, the client's Replica, every message encoded and decoded): a tile of the
// client's buffer that diverges is found at the next checksum step, asked for, resent as state
// with the step after, and the client ends byte-identical to the server. inputs mode finds the
// same tile and leaves it: it detects, it does not repair.
#include "GLTestSupport.hpp"
#include "core/config.hpp"
#include "net/net_cases.hpp"
#include "net/tiles.hpp"

#include <gtest/gtest.h>

namespace snowcap::net {
namespace {

constexpr int kCheckEvery = 8;

std::unique_ptr<LoopbackPair> pairFor(NetMode mode) {
    // press_release at 64^2: one ball pressing the centre; tiles of 16^2 (16 a sim).
    auto loaded = loadScenarioSettings("press_release",
                                       {"snow.resolution=64", "net.tile_texels=16",
                                        "net.checksum_every=" + std::to_string(kCheckEvery)});
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        ADD_FAILURE() << error->message;
        return nullptr;
    }
    Settings settings = std::get<Settings>(loaded);
    settings.net.mode = mode;
    settings.snow.idleSkip = false; // as a session runs (the client's buffers are written)
    auto created = LoopbackPair::create(settings, "press_release", test::glInfo().renderer);
    if (auto* error = std::get_if<std::string>(&created)) {
        ADD_FAILURE() << *error;
        return nullptr;
    }
    return std::move(std::get<0>(created));
}

// Lets the client's tile 0 of sim `sim` (a corner, where the ball never presses) hold a
// value the server's does not: as if a driver had computed it differently.
void corruptCornerTile(Lab& client, int sim) {
    SnowSim& target = client.field().sim(sim);
    BufferWords words = readSimBuffer(target);
    const TileGrid grid = gridOf(words, 16);
    words.words[0] ^= 0x3c00; // 1.0 in half floats, xor'd into the first texel
    const int corner[] = {0};
    writeSimTiles(target, words, grid, corner);
}

TEST(HybridResend, ADivergentTileIsResentAndTheClientConverges) {
    auto pair = pairFor(NetMode::Hybrid);
    ASSERT_TRUE(pair);
    ASSERT_FALSE(pair->join());
    for (int step = 1; step <= 3; ++step)
        ASSERT_FALSE(pair->step());
    ASSERT_TRUE(pair->identical());
    corruptCornerTile(pair->client(), 1);
    ASSERT_FALSE(pair->identical());
    // Up to the checksum step the corner stays wrong; there it is found and asked for.
    while (pair->steps() < kCheckEvery)
        ASSERT_FALSE(pair->step());
    EXPECT_EQ(pair->replica().counts().divergentTiles, 1);
    EXPECT_EQ(pair->replica().counts().tilesResent, 0);
    EXPECT_FALSE(pair->identical());
    // The step after brings the tile back as state.
    ASSERT_FALSE(pair->step());
    EXPECT_EQ(pair->replica().counts().tilesResent, 1);
    EXPECT_TRUE(pair->identical());
    // And it stays so: the next checksums find nothing more.
    while (pair->steps() < 3 * kCheckEvery)
        ASSERT_FALSE(pair->step());
    EXPECT_EQ(pair->replica().counts().divergentTiles, 1);
    EXPECT_EQ(pair->replica().counts().tilesResent, 1);
    EXPECT_TRUE(pair->identical());
}

TEST(HybridResend, InputsModeDetectsTheSameTileAndLeavesIt) {
    auto pair = pairFor(NetMode::Inputs);
    ASSERT_TRUE(pair);
    ASSERT_FALSE(pair->join());
    ASSERT_FALSE(pair->step());
    corruptCornerTile(pair->client(), 1);
    while (pair->steps() < 2 * kCheckEvery)
        ASSERT_FALSE(pair->step());
    // Found at both checksum steps, never repaired.
    EXPECT_EQ(pair->replica().counts().divergentTiles, 2);
    EXPECT_EQ(pair->replica().counts().tilesResent, 0);
    EXPECT_FALSE(pair->identical());
}

} // namespace
} // namespace snowcap::net
