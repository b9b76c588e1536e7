// Where a click puts the probe (lab/probe_snap.hpp): the nearest print texel within the radius,
// a mask above its floor or a snowpack column below its own, and nothing when no print is near.
#include "lab/probe_snap.hpp"

#include <gtest/gtest.h>
#include <vector>

namespace snowcap {
namespace {

constexpr int kSize = 21;

struct Window {
    std::vector<float> values = std::vector<float>(kSize * kSize, 0.0f);
    glm::ivec2 origin{100, 200}; // the window's texel (0, 0) in the buffer
    void set(glm::ivec2 bufferTexel, float value) {
        const glm::ivec2 local = bufferTexel - origin;
        values[std::size_t(local.y) * kSize + local.x] = value;
    }
    ValueWindow view() const { return {values, kSize, origin}; }
};

TEST(ProbeSnap, TakesTheNearestPrintTexelWithinTheRadius) {
    Window window;
    const glm::ivec2 click = window.origin + glm::ivec2(10, 10);
    const PrintTest mask{0.05f, false};
    EXPECT_FALSE(nearestPrintTexel(window.view(), click, 10, mask)) << "untouched snow";
    window.set(click + glm::ivec2(6, 0), 0.9f);  // a deep print 6 texels away
    window.set(click + glm::ivec2(-3, 2), 0.2f); // a faint one 3.6 texels away: nearer wins
    window.set(click + glm::ivec2(0, 1), 0.04f); // below the floor: not a print
    const auto snapped = nearestPrintTexel(window.view(), click, 10, mask);
    ASSERT_TRUE(snapped);
    EXPECT_EQ(*snapped, click + glm::ivec2(-3, 2));
    // Out of reach: a radius of 3 texels misses both.
    EXPECT_FALSE(nearestPrintTexel(window.view(), click, 3, mask));
    // The radius is a disc: (7, 7) lies 9.9 texels away, inside a square of 8 but not a disc.
    Window corner;
    corner.set(click + glm::ivec2(7, 7), 1.0f);
    EXPECT_FALSE(nearestPrintTexel(corner.view(), click, 8, mask));
    EXPECT_TRUE(nearestPrintTexel(corner.view(), click, 10, mask));
}

TEST(ProbeSnap, ASnowpackPrintIsAColumnPressedBelowItsFloor) {
    Window window;
    std::fill(window.values.begin(), window.values.end(), 30.0f); // 30 cm untouched
    const glm::ivec2 click = window.origin + glm::ivec2(10, 10);
    const PrintTest pressed{29.5f, true};
    EXPECT_FALSE(nearestPrintTexel(window.view(), click, 10, pressed));
    window.set(click + glm::ivec2(0, -4), 29.8f); // settled a little: not a print
    window.set(click + glm::ivec2(5, 0), 12.0f);  // a footprint
    const auto snapped = nearestPrintTexel(window.view(), click, 10, pressed);
    ASSERT_TRUE(snapped);
    EXPECT_EQ(*snapped, click + glm::ivec2(5, 0));
}

} // namespace
} // namespace snowcap
