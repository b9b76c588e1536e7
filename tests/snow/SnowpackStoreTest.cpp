// A following snowpack's world store (snow/snowpack_store.hpp), without GL: columns come back
// as they left (the float bits), settled tick by tick as the undisturbed column is; the
// undisturbed column is not kept; the mass it holds, drops or evicts is counted to the kg/m2.
#include "snow/snowpack_store.hpp"

#include <bit>
#include <cstring>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr float kMaxDensity = 450.0f;

SnowColumn initial() {
    return {30.0f, columnMass(30.0f, 120.0f), 0.0f, 0.0f};
}

// A trench column: packed to `density`, the initial mass.
SnowColumn packed(float density) {
    const SnowColumn c = initial();
    return {c.massKgM2 / (0.01f * density), c.massKgM2, 0.0f, 0.0f};
}

bool sameBits(const SnowColumn& a, const SnowColumn& b) {
    return std::memcmp(&a, &b, sizeof(SnowColumn)) == 0;
}

TEST(SnowpackStore, ColumnsComeBackSettledAsTheUndisturbedColumnIs) {
    SnowpackLog log;
    SnowpackStore store(16, 1u << 20);
    SnowColumn undisturbed = initial();
    SnowpackConstants c;
    c.maxDensity = kMaxDensity;
    // Two ticks before the write, three after: a stored column replays only the later ones.
    const SettleTick ticks[] = {{3600.0f, -5.0f, kMaxDensity},
                                {1800.0f, -2.0f, kMaxDensity},
                                {3600.0f, -5.0f, kMaxDensity},
                                {7200.0f, -1.0f, kMaxDensity},
                                {3600.0f, -8.0f, kMaxDensity}};
    for (int t = 0; t < 2; ++t) {
        undisturbed = settleColumn(undisturbed, ticks[t].dtS, ticks[t].temperatureC, c);
        log.record(ticks[t]);
    }
    // A 20 x 3 rect across a tile border at x = 16: a trench of 200 kg/m3 with one wet texel,
    // beside untouched snow.
    const TexelRect rect{{6, -1}, {20, 3}};
    std::vector<SnowColumn> columns(60, undisturbed);
    for (int x = 4; x < 16; ++x)
        columns[20 + x] = packed(200.0f);
    columns[20 + 9].waterKgM2 = 1.5f;
    store.write(rect, columns, log.ticks(), log, undisturbed);
    EXPECT_EQ(store.stats().texelsHeld, 12);
    EXPECT_EQ(store.stats().tiles, 2); // the trench straddles tiles 0 and 1 in x, in row 0
    const double held =
        11.0 * double(packed(200.0f).massKgM2) + (double(packed(200.0f).massKgM2) + 1.5);
    EXPECT_EQ(store.heldKgM2(), held);
    EXPECT_EQ(store.toUndisturbedKgM2(), 48.0 * double(undisturbed.massKgM2));

    std::vector<SnowColumn> expected = columns;
    for (int t = 2; t < 5; ++t) {
        undisturbed = settleColumn(undisturbed, ticks[t].dtS, ticks[t].temperatureC, c);
        log.record(ticks[t]);
        for (SnowColumn& e : expected)
            e = settleColumn(e, ticks[t].dtS, ticks[t].temperatureC, c);
    }
    std::vector<SnowColumn> out(60);
    const SnowpackStore::Taken taken = store.take(rect, out, log, undisturbed);
    EXPECT_EQ(taken.texels, 12);
    EXPECT_EQ(taken.kgM2, held);
    for (int i = 0; i < 60; ++i) {
        const bool trench = i >= 24 && i < 36;
        // Held: settled tick by tick, bit for bit. Not held: the undisturbed column now.
        EXPECT_TRUE(sameBits(out[i], trench ? expected[i] : undisturbed)) << "texel " << i;
    }
    EXPECT_LT(out[24].depthCm, packed(200.0f).depthCm) << "did not settle";
    EXPECT_EQ(store.stats().tiles, 0);
    EXPECT_EQ(store.heldKgM2(), 0.0);
}

TEST(SnowpackStore, ALaterWriteReplacesAndUndisturbedSnowIsNotKept) {
    SnowpackLog log;
    SnowpackStore store(16, 1u << 20);
    const SnowColumn undisturbed = initial();
    std::vector<SnowColumn> one{packed(300.0f)};
    store.write({{3, 3}, {1, 1}}, one, 0, log, undisturbed);
    EXPECT_EQ(store.stats().texelsHeld, 1);
    // Within kUntouchedCm of the undisturbed depth, same mass: not kept, the tile goes.
    SnowColumn almost = undisturbed;
    almost.depthCm = std::nextafter(undisturbed.depthCm, 0.0f);
    one = {almost};
    store.write({{3, 3}, {1, 1}}, one, 0, log, undisturbed);
    EXPECT_EQ(store.stats().tiles, 0);
    // Any other mass is kept, however close its depth.
    SnowColumn heavier = undisturbed;
    heavier.massKgM2 = std::nextafter(undisturbed.massKgM2, 1e9f);
    one = {heavier};
    store.write({{-40, 7}, {1, 1}}, one, 0, log, undisturbed);
    EXPECT_EQ(store.stats().texelsHeld, 1);
    EXPECT_EQ(store.tiles().begin()->first, (SnowpackStore::Key{-3, 0}));
}

TEST(SnowpackStore, TheCapEvictsTheLeastRecentlyTouchedAndCountsTheirMass) {
    SnowpackLog log;
    const SnowColumn undisturbed = initial();
    SnowpackStore probe(16, 1);
    SnowpackStore store(16, 4 * probe.tileBytes()); // four tiles
    std::vector<SnowColumn> one{packed(250.0f)};
    for (int t = 0; t < 6; ++t)
        store.write({{16 * t, 0}, {1, 1}}, one, 0, log, undisturbed);
    EXPECT_LE(store.stats().storeBytes, static_cast<long long>(store.capBytes()));
    EXPECT_GT(store.stats().evictedTiles, 0);
    const double evicted = double(store.stats().evictedTiles) * double(one[0].massKgM2);
    EXPECT_EQ(store.toUndisturbedKgM2(), evicted);
    EXPECT_EQ(store.heldKgM2() + evicted, 6.0 * double(one[0].massKgM2));
    // The newest tile is kept.
    EXPECT_TRUE(store.tiles().count({5, 0}));
    EXPECT_FALSE(store.tiles().count({0, 0}));
}

TEST(SnowpackLog, ForgetsOnlyWhatNoColumnNeeds) {
    SnowpackLog log;
    for (int t = 0; t < 10; ++t)
        log.record(SettleTick{100.0f * (t + 1), -5.0f, kMaxDensity});
    SnowpackConstants c;
    c.maxDensity = kMaxDensity;
    SnowColumn expected = packed(150.0f);
    for (int t = 6; t < 10; ++t)
        expected = settleColumn(expected, 100.0f * (t + 1), -5.0f, c);
    log.forgetBefore(6);
    EXPECT_EQ(log.ticks(), 10);
    EXPECT_TRUE(sameBits(log.age(packed(150.0f), 6), expected));
}

} // namespace
} // namespace snowcap
