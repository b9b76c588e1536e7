// The world tile store without a GPU: half bits, the aging log against a plain step-by-step
// replay of the pass, the window's leaving/entering rectangles, lossless round trips, healed
// tiles dropped, and the cap over a seeded 10 km random walk.
#include "snow/world_store.hpp"

#include <gtest/gtest.h>
#include <random>
#include <set>

namespace snowcap {
namespace {

TEST(WorldHalfBits, EveryHalfRoundTrips) {
    for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
        const auto b = static_cast<std::uint16_t>(bits);
        if ((b & 0x7c00) == 0x7c00 && (b & 0x3ff))
            continue; // NaN payloads are not kept (the pass never stores one)
        ASSERT_EQ(floatToHalfBits(halfBitsToFloat(b)), b) << bits;
    }
    EXPECT_EQ(halfBitsToFloat(0x3c00), 1.0f);
    EXPECT_EQ(halfBitsToFloat(0x0001), std::ldexp(1.0f, -24));
}

// The sim's law over the default capture (the far plane reads mask 0).
AccumulateLaw lawOf(const SimSettings& sim, HalfRounding rounding) {
    return AccumulateLaw::of(sim, CaptureSettings{}, rounding);
}

struct LawCase {
    bool halfSafe;
    RefillMode refill;
    HalfRounding rounding;
    double fps;
    DecayTiming timing;
};

// The pass on an untouched texel, one clock step at a time, with nothing skipped.
float replay(float value, const std::vector<SimStep>& steps, std::size_t from,
             const AccumulateLaw& law) {
    for (std::size_t i = from; i < steps.size(); ++i)
        value = accumulateTexel(1.0f, value, law, steps[i]);
    return value;
}

TEST(WorldAging, TheLogAgesExactlyLikeTheStepByStepPass) {
    const LawCase cases[] = {
        {true, RefillMode::Multiply, HalfRounding::NearestEven, 30, DecayTiming::DeltaTime},
        {true, RefillMode::Multiply, HalfRounding::Truncate, 144, DecayTiming::DeltaTime},
        {false, RefillMode::Multiply, HalfRounding::NearestEven, 144, DecayTiming::DeltaTime},
        {false, RefillMode::Multiply, HalfRounding::Truncate, 30, DecayTiming::PerFrame},
        {true, RefillMode::Linear, HalfRounding::NearestEven, 144, DecayTiming::DeltaTime},
    };
    std::mt19937 rng(15);
    for (const LawCase& c : cases) {
        SimSettings sim;
        sim.halfSafe = c.halfSafe;
        sim.refill = c.refill;
        sim.decay = 0.995;
        sim.decayTiming = c.timing;
        sim.refillRatePerS = 0.2;
        sim.decayKeys = {{0.0, 0.999}, {10.0, 0.99}, {20.0, 0.9999}};
        const AccumulateLaw law = lawOf(sim, c.rounding);
        ASSERT_EQ(untouchedMask(law), 0.0f);
        SimClock clock(law);
        AgingLog log;
        std::vector<SimStep> steps;
        const int count = static_cast<int>(30.0 * c.fps);
        for (int i = 0; i < count; ++i) {
            steps.push_back(clock.advance(1.0 / c.fps));
            log.record(steps.back(), law);
        }
        EXPECT_LT(log.runCount(), steps.size()); // the identity steps are not kept
        std::uniform_int_distribution<int> from(0, count);
        std::uniform_int_distribution<int> halfBits(1, 0x3c00); // (0, 1]
        for (int trial = 0; trial < 400; ++trial) {
            const int start = from(rng);
            const float value = halfBitsToFloat(static_cast<std::uint16_t>(halfBits(rng)));
            if (c.halfSafe && value < kZeroFloor)
                continue; // a half-safe pass stores 0 or at least the floor (world_aging.hpp)
            ASSERT_EQ(log.age(value, start), replay(value, steps, start, law))
                << "value " << value << " from step " << start << " fps " << c.fps << " half_safe "
                << c.halfSafe;
        }
    }
}

TEST(WorldRects, LeavingTexelsAreTheOldSquareLessTheNew) {
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> offset(-70, 70);
    const int n = 64;
    for (int trial = 0; trial < 300; ++trial) {
        const glm::ivec2 from{offset(rng), offset(rng)},
            to = from + glm::ivec2(offset(rng), offset(rng));
        std::set<std::pair<int, int>> seen;
        for (const TexelRect& r : squareMinusSquare(from, to, n))
            for (int y = r.origin.y; y < r.origin.y + r.size.y; ++y)
                for (int x = r.origin.x; x < r.origin.x + r.size.x; ++x) {
                    ASSERT_TRUE(x >= from.x && x < from.x + n && y >= from.y && y < from.y + n);
                    ASSERT_FALSE(x >= to.x && x < to.x + n && y >= to.y && y < to.y + n);
                    ASSERT_TRUE(seen.insert({x, y}).second) << "overlapping rectangles";
                }
        const int ox = std::max(0, n - std::abs(to.x - from.x));
        const int oy = std::max(0, n - std::abs(to.y - from.y));
        ASSERT_EQ(static_cast<int>(seen.size()), n * n - ox * oy);
    }
}

TEST(WorldStore, TexelsComeBackBitForBitAcrossTileCorners) {
    WorldStore store(16, 1, 1 << 20);
    AgingLog log; // no steps: nothing to age
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> halfBits(0, 0x3c00);
    const TexelRect rect{{-21, -9}, {37, 29}}; // straddles tile corners at (0, 0) and (-16, 16)
    std::vector<std::uint16_t> bits(static_cast<std::size_t>(rect.size.x) * rect.size.y);
    for (auto& b : bits)
        b = static_cast<std::uint16_t>(halfBits(rng));
    store.write(rect, bits, 0, log);
    EXPECT_EQ(store.stats().tiles, 3 * 3);
    std::vector<std::uint16_t> back(bits.size());
    EXPECT_GT(store.take(rect, back, log), 0.0f);
    EXPECT_EQ(back, bits);
    EXPECT_EQ(store.stats().tiles, 0); // handed back: the window owns them now
    // Zeros over absent tiles create nothing.
    std::fill(bits.begin(), bits.end(), std::uint16_t{0});
    store.write(rect, bits, 0, log);
    EXPECT_EQ(store.stats().tiles, 0);
}

TEST(WorldStore, HealedTilesAreDropped) {
    SimSettings sim;
    sim.decay = 0.9;
    const AccumulateLaw law = lawOf(sim, HalfRounding::NearestEven);
    WorldStore store(16, 1, 1 << 20);
    AgingLog log;
    std::vector<std::uint16_t> bits(32 * 32, floatToHalfBits(1.0f));
    store.write({{0, 0}, {32, 32}}, bits, 0, log);
    EXPECT_EQ(store.stats().tiles, 4);
    SimClock clock(law);
    for (int i = 0; i < 30; ++i)
        log.record(clock.advance(1.0 / 60.0), law);
    store.dropHealed(log);
    EXPECT_EQ(store.stats().tiles, 4); // 0.9^30 = 4 % left: still a trail
    for (int i = 0; i < 600; ++i)
        log.record(clock.advance(1.0 / 60.0), law);
    store.dropHealed(log);
    EXPECT_EQ(store.stats().tiles, 0);
    EXPECT_EQ(store.stats().healedTiles, 4);
    EXPECT_EQ(store.stats().storeBytes, 0);
}

// A 64² window walks 10 km at 4 cm texels (250,000 one-texel moves in straight legs of random
// direction), writing the strip it leaves behind each move: a trampled swath of 0.5.
struct WalkResult {
    WorldStoreStats stats;
    double trailKept = 0.0; // sum of the stored values at the end
};

WalkResult walk(EvictionPolicy policy, std::size_t cap,
                TileCompression compression = TileCompression::Off, int moves = 250'000) {
    SimSettings sim;
    sim.decay = 0.99999; // slow: the cap, not healing, must bound the store
    const AccumulateLaw law = lawOf(sim, HalfRounding::NearestEven);
    SimClock clock(law);
    WorldStore store(16, 1, cap, policy, compression);
    AgingLog log;
    std::mt19937 rng(2026);
    std::uniform_int_distribution<int> direction(0, 3), leg(20, 400);
    std::uniform_real_distribution<float> depth(0.1f, 1.0f);
    const int n = 64;
    glm::ivec2 corner{0, 0};
    const glm::ivec2 dirs[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    std::vector<std::uint16_t> strip(n);
    for (int moved = 0; moved < moves;) {
        const glm::ivec2 d = dirs[direction(rng)];
        const std::uint16_t value =
            floatToHalfBits(roundToHalf(depth(rng), HalfRounding::NearestEven));
        for (int s = leg(rng); s > 0 && moved < moves; --s, ++moved) {
            std::fill(strip.begin(), strip.end(), value);
            for (const TexelRect& r : squareMinusSquare(corner, corner + d, n))
                store.write(r, strip, log.steps(), log);
            corner += d;
            log.record(clock.advance(1.0 / 60.0), law);
            if (log.steps() % 64 == 0)
                store.dropHealed(log);
        }
    }
    store.ageAll(log);
    WalkResult result{store.stats(), 0.0};
    for (const auto& [key, tile] : store.tiles())
        for (std::uint16_t b : store.tileBits(tile))
            result.trailKept += halfBitsToFloat(b);
    return result;
}

TEST(WorldStore, TheCapHoldsOverATenKilometreWalk) {
    const std::size_t cap = 1 << 20;
    const WalkResult lru = walk(EvictionPolicy::LeastRecentlySeen, cap);
    EXPECT_LE(lru.stats.storeBytesPeak, static_cast<long long>(cap));
    EXPECT_GT(lru.stats.evictedTiles, 0); // the walk outgrew the cap
    EXPECT_GT(lru.stats.tiles, 0);
    const WalkResult healed = walk(EvictionPolicy::MostHealed, cap);
    EXPECT_LE(healed.stats.storeBytesPeak, static_cast<long long>(cap));
    RecordProperty("evicted_lru", std::to_string(lru.stats.evictedTiles));
    RecordProperty("trail_kept_lru", std::to_string(lru.trailKept));
    RecordProperty("trail_kept_most_healed", std::to_string(healed.trailKept));
    std::printf("10 km walk, 1 MiB cap: LRU kept %.0f (evicted %lld), most-healed kept %.0f "
                "(evicted %lld)\n",
                lru.trailKept, lru.stats.evictedTiles, healed.trailKept, healed.stats.evictedTiles);
}

// The cap counts what tiles hold: packed, the same walk keeps more trail under the same cap
// and still never passes it (2.5 km under 256 KiB: the packed store holds many more tiles, and
// a 10 km walk under 1 MiB costs minutes of healed-tile sweeps; docs/world.md has that one).
TEST(WorldStore, TheCapCountsPackedBytes) {
    const std::size_t cap = 256 << 10;
    const int moves = 62'500;
    const WalkResult plain = walk(EvictionPolicy::MostHealed, cap, TileCompression::Off, moves);
    ASSERT_GT(plain.stats.evictedTiles, 0); // the walk outgrew the cap
    for (TileCompression c : {TileCompression::Lz4, TileCompression::Zstd}) {
        const WalkResult packed = walk(EvictionPolicy::MostHealed, cap, c, moves);
        EXPECT_LE(packed.stats.storeBytesPeak, static_cast<long long>(cap));
        EXPECT_GT(packed.stats.packs, 0);
        EXPECT_GT(packed.stats.tiles, 4 * plain.stats.tiles);
        EXPECT_GT(packed.trailKept, plain.trailKept);
        std::printf("2.5 km walk, 256 KiB cap, %s: kept %.0f in %lld tiles (%lld packed, %lld B), "
                    "evicted %lld; off kept %.0f in %lld tiles, evicted %lld\n",
                    c == TileCompression::Lz4 ? "lz4" : "zstd", packed.trailKept,
                    packed.stats.tiles, packed.stats.packedTiles, packed.stats.storeBytes,
                    packed.stats.evictedTiles, plain.trailKept, plain.stats.tiles,
                    plain.stats.evictedTiles);
    }
}

// Tiles like a trail's (a band of pressed values in zeros), noise, and every half value.
std::vector<std::vector<std::uint16_t>> codecTiles() {
    std::mt19937 rng(11);
    std::vector<std::vector<std::uint16_t>> tiles;
    std::vector<std::uint16_t> band(64 * 64, 0), noise(64 * 64), every(0x10000);
    for (int y = 20; y < 36; ++y)
        for (int x = 0; x < 64; ++x)
            band[y * 64 + x] = floatToHalfBits(0.3f + 0.01f * float((x * 7 + y) % 40));
    std::uniform_int_distribution<int> bits(0, 0xffff);
    for (auto& b : noise)
        b = static_cast<std::uint16_t>(bits(rng));
    for (std::size_t i = 0; i < every.size(); ++i)
        every[i] = static_cast<std::uint16_t>(i);
    tiles.push_back(band);
    tiles.push_back(noise);
    tiles.push_back(every);
    tiles.push_back(std::vector<std::uint16_t>(16 * 16, 0x3c00));
    return tiles;
}

TEST(TileCodec, EveryCodecGivesTheExactBitsBackAndRefusesATruncatedPacking) {
    for (TileCompression c : {TileCompression::Off, TileCompression::Lz4, TileCompression::Zstd})
        for (bool shuffle : {true, false})
            for (const auto& tile : codecTiles()) {
                const std::vector<std::uint8_t> packed = packTile(c, tile, shuffle);
                std::vector<std::uint16_t> back(tile.size(), 0x1234);
                ASSERT_TRUE(unpackTile(c, packed, back, shuffle));
                ASSERT_EQ(back, tile);
                const std::vector<std::uint8_t> cut(packed.begin(), packed.end() - 1);
                EXPECT_FALSE(unpackTile(c, cut, back, shuffle));
            }
    // A trail's band packs well; both codecs make it far smaller than its 8 KiB.
    const std::vector<std::uint16_t> band = codecTiles()[0];
    EXPECT_LT(packTile(TileCompression::Lz4, band).size(), band.size() * 2 / 4);
    EXPECT_LT(packTile(TileCompression::Zstd, band).size(), band.size() * 2 / 4);
}

// Packed while away, unpacked on return: the texels that come back, and the ageing they had
// while away, are those of a store that never packs.
TEST(WorldStore, PackedTilesComeBackAsTheUnpackedOnes) {
    SimSettings sim;
    sim.decay = 0.995;
    const AccumulateLaw law = lawOf(sim, HalfRounding::NearestEven);
    for (TileCompression c : {TileCompression::Lz4, TileCompression::Zstd}) {
        WorldStore plain(16, 1, 1 << 20), packed(16, 1, 1 << 20, EvictionPolicy::MostHealed, c);
        AgingLog log;
        SimClock clock(law);
        const TexelRect rect{{-21, -9}, {37, 29}};
        std::mt19937 rng(5);
        std::uniform_int_distribution<int> halfBits(0, 0x3c00);
        std::vector<std::uint16_t> bits(static_cast<std::size_t>(rect.size.x) * rect.size.y);
        for (auto& b : bits)
            b = halfBits(rng) < 0x2000 ? 0 : static_cast<std::uint16_t>(halfBits(rng));
        plain.write(rect, bits, 0, log);
        packed.write(rect, bits, 0, log);
        for (int i = 0; i < 3 * WorldStore::kColdSteps; ++i) {
            log.record(clock.advance(1.0 / 60.0), law);
            if (log.steps() % 64 == 0) {
                plain.dropHealed(log);
                packed.dropHealed(log);
            }
        }
        EXPECT_GT(packed.stats().packedTiles, 0);
        EXPECT_LT(packed.stats().storeBytes, plain.stats().storeBytes);
        // Half the rectangle back (tiles unpack), then the rest after more ageing.
        const TexelRect half{rect.origin, {rect.size.x, rect.size.y / 2}};
        std::vector<std::uint16_t> a(static_cast<std::size_t>(half.size.x) * half.size.y), b(a);
        plain.take(half, a, log);
        packed.take(half, b, log);
        EXPECT_EQ(a, b);
        EXPECT_GT(packed.stats().unpacks, 0);
        for (int i = 0; i < 100; ++i)
            log.record(clock.advance(1.0 / 60.0), law);
        packed.ageAll(log); // ages the still-packed tiles where they lie
        std::vector<std::uint16_t> all(bits.size()), allPacked(bits.size());
        plain.take(rect, all, log);
        packed.take(rect, allPacked, log);
        EXPECT_EQ(all, allPacked);
        EXPECT_GT(std::count_if(all.begin(), all.end(), [](auto v) { return v != 0; }), 100);
        EXPECT_EQ(packed.stats().tiles, 0);
        EXPECT_EQ(packed.stats().storeBytes, 0);
    }
}

} // namespace
} // namespace snowcap
