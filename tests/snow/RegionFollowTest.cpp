// Following regions on the CPU (the reference of shaders/snow/shift.frag): snapping, exact
// whole-texel shifts over 10,000 random moves, the naive resample's loss, no wrap-around.
#include "snow/region_shift.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <numeric>
#include <random>

namespace snowcap {
namespace {

constexpr int kN = 64;

// A print: a ramped disc of distinct half-representable values, so any misplaced texel shows.
std::vector<float> printAt(int cx, int cy) {
    std::vector<float> buffer(kN * kN, 0.0f);
    for (int y = cy - 5; y <= cy + 5; ++y)
        for (int x = cx - 5; x <= cx + 5; ++x) {
            const double r = std::hypot(x - cx, y - cy);
            if (r <= 5.0)
                buffer[y * kN + x] = roundToHalf(static_cast<float>(1.0 - r / 6.0 + 0.001 * x),
                                                 HalfRounding::NearestEven);
        }
    return buffer;
}

double sumOfSquares(const std::vector<float>& v) {
    return std::accumulate(v.begin(), v.end(), 0.0,
                           [](double a, float b) { return a + double(b) * b; });
}

TEST(RegionFollow, SnappedCentreIsOnTheTexelGridAndNearest) {
    const glm::dvec2 origin{13.0, -7.5};
    const double texel = 4.0;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> far(-20000.0, 20000.0);
    for (int i = 0; i < 1000; ++i) {
        const glm::dvec2 target{far(rng), far(rng)};
        const glm::dvec2 c = snappedCentre(target, origin, texel);
        const glm::dvec2 k = (c - origin) / texel;
        EXPECT_EQ(k.x, std::round(k.x));
        EXPECT_EQ(k.y, std::round(k.y));
        EXPECT_LE(std::abs(c.x - target.x), texel * 0.5 + 1e-9);
        EXPECT_LE(std::abs(c.y - target.y), texel * 0.5 + 1e-9);
    }
    EXPECT_EQ(followCentre(RegionMode::Fixed, {500, 500}, origin, origin, texel), origin);
    EXPECT_EQ(followCentre(RegionMode::FollowNaive, {1.3, 2.7}, origin, origin, texel),
              glm::dvec2(1.3, 2.7));
}

TEST(RegionFollow, TenThousandRandomSnappedMovesKeepAPrintBitIdenticalInPlace) {
    // The region wanders up to 16 texels from where the print was made (jumps of up to 32);
    // the print never leaves the window, so after every move it must sit at the same world
    // place with the same bits, and back at the start the buffer is the original.
    Region region{{100.0, -40.0}, 256.0, kN};
    const glm::dvec2 origin = region.centreCm;
    const std::vector<float> original = printAt(32, 32);
    const glm::dvec2 printWorld = texelCentreToWorld({32, 32}, region);
    const float printValue = original[32 * kN + 32];
    std::vector<float> buffer = original;
    std::mt19937 rng(2026);
    std::uniform_real_distribution<double> wander(-16.0 * region.texelCm(),
                                                  16.0 * region.texelCm());
    for (int move = 0; move < 10000; ++move) {
        const glm::dvec2 target = origin + glm::dvec2(wander(rng), wander(rng));
        const glm::dvec2 next = snappedCentre(target, origin, region.texelCm());
        buffer = shiftBufferCpu(buffer, kN,
                                shiftOffsetTexels(region.centreCm, next, region.texelCm()), false);
        region.centreCm = next;
        if (move % 997 == 0) {
            const glm::ivec2 t = worldToTexel(printWorld, region);
            ASSERT_EQ(buffer[t.y * kN + t.x], printValue) << "move " << move;
            ASSERT_EQ(texelCentreToWorld(t, region), printWorld) << "move " << move;
        }
    }
    buffer = shiftBufferCpu(buffer, kN,
                            shiftOffsetTexels(region.centreCm, origin, region.texelCm()), false);
    EXPECT_EQ(buffer, original);
}

TEST(RegionFollow, NaiveResamplingLosesThePrintsEnergy) {
    // The same kind of wander without snapping: every move resamples bilinearly. The sum is
    // (nearly) kept - bilinear weights add to 1 - but the print smears: its peak and its
    // energy (sum of squares) fall, which the snapped path never does.
    Region region{{0.0, 0.0}, 256.0, kN};
    const std::vector<float> original = printAt(32, 32);
    std::vector<float> naive = original, snapped = original;
    glm::dvec2 naiveCentre = region.centreCm, snappedAt = region.centreCm;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> wander(-4.0 * region.texelCm(), 4.0 * region.texelCm());
    for (int move = 0; move < 100; ++move) {
        const glm::dvec2 target = region.centreCm + glm::dvec2(wander(rng), wander(rng));
        naive = shiftBufferCpu(naive, kN, shiftOffsetTexels(naiveCentre, target, region.texelCm()),
                               true);
        naiveCentre = target;
        const glm::dvec2 next = snappedCentre(target, region.centreCm, region.texelCm());
        snapped = shiftBufferCpu(snapped, kN, shiftOffsetTexels(snappedAt, next, region.texelCm()),
                                 false);
        snappedAt = next;
    }
    const double energy = sumOfSquares(original);
    const double naiveLoss = 1.0 - sumOfSquares(naive) / energy;
    const double snappedLoss = 1.0 - sumOfSquares(snapped) / energy;
    RecordProperty("naive_energy_loss", std::to_string(naiveLoss));
    EXPECT_GT(naiveLoss, 0.2); // measured 0.75 after 100 moves
    EXPECT_EQ(snappedLoss, 0.0);
    EXPECT_LT(*std::max_element(naive.begin(), naive.end()),
              0.9f * *std::max_element(original.begin(), original.end()));
}

TEST(RegionFollow, TexelsEnteringTheWindowAreUntouchedSnowWithoutGhosts) {
    // Walk 100 m away (the print leaves the window) and back: nothing wraps around, nothing
    // comes back.
    const std::vector<float> original = printAt(10, 50);
    const double texel = 4.0;
    std::vector<float> buffer = shiftBufferCpu(original, kN, {10000.0 / texel, 0.0}, false);
    EXPECT_EQ(sumOfSquares(buffer), 0.0);
    buffer = shiftBufferCpu(buffer, kN, {-10000.0 / texel, 0.0}, false);
    EXPECT_EQ(sumOfSquares(buffer), 0.0);
    // A partial move: the columns that came in are 0, the rest is the old buffer moved.
    buffer = shiftBufferCpu(original, kN, {-20.0, 3.0}, false);
    for (int y = 0; y < kN; ++y)
        for (int x = 0; x < kN; ++x) {
            const int sx = x - 20, sy = y + 3;
            const float expected = sx < 0 || sy >= kN ? 0.0f : original[sy * kN + sx];
            ASSERT_EQ(buffer[y * kN + x], expected) << x << "," << y;
        }
}

} // namespace
} // namespace snowcap
