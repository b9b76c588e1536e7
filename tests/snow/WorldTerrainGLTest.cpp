// The world store over a terrain (docs/terrain.md §8): a 64² following window with
// persistence = "world" over seeded hills walks away from a trail and back, and holds, texel for
// texel, what a fixed 256² region on the same hills holds; its capture's heights follow it,
// so every texel of the window it came back to measures from its own snow top. The store keeps
// print depths, which over the terrain are measured from the local snow top: the terrain does
// not enter the tiles, and it is held whole (terrain.max_mib), not paged.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "WorldTrailSupport.hpp"
#include "snow/contact_capture.hpp"
#include "snow/world_pager.hpp"
#include "terrain/terrain.hpp"

#include <cmath>
#include <numbers>

namespace snowcap {
namespace {

using test::makeField;
using test::maxOf;
using test::redOf;

constexpr int kWindow = 64, kOracle = 256;
constexpr double kTexelCm = 4.0;

std::shared_ptr<const HeightField> hills() {
    TerrainSettings terrain;
    terrain.kind = TerrainKind::Noise;
    terrain.seed = 7;
    terrain.reliefM = 3.0;
    terrain.featureM = 6.0;
    terrain.sizeM = {12.0, 12.0};
    return std::make_shared<const HeightField>(noiseTerrain(terrain));
}

Settings fieldSettings(int resolution, bool follow) {
    Settings s;
    s.snow.resolution = resolution;
    s.snow.orthoWidthCm = resolution * kTexelCm;
    for (int i = 0; i < 2; ++i) {
        s.sims[i].decay = 0.995;
        s.sims[i].decayTiming = DecayTiming::DeltaTime;
        if (follow)
            s.sims[i].region = RegionMode::FollowSnapped;
    }
    if (follow) {
        s.sims[0].persistence = Persistence::Window;
        s.sims[1].persistence = Persistence::World;
    }
    return s;
}

TEST(WorldTerrain, AWindowOverHillsComesBackToItsTrailAsAFixedRegionHoldsIt) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto window = makeField(fieldSettings(kWindow, true), shaders);
    auto oracle = makeField(fieldSettings(kOracle, false), shaders);
    ASSERT_TRUE(window && oracle);
    const std::shared_ptr<const HeightField> terrain = hills();
    ASSERT_FALSE(window->setTerrain(terrain));
    ASSERT_FALSE(oracle->setTerrain(terrain));
    ASSERT_TRUE(window->captureOf(1).key().followsTerrain());
    WorldPager* world = window->world(1);
    ASSERT_NE(world, nullptr);

    const int windowCorner = -kWindow / 2, oracleCorner = -kOracle / 2;
    for (int s = 0; s < 2; ++s)
        test::uploadWorldTrail(oracle->sim(s).persistent(), oracleCorner);
    test::uploadWorldTrail(window->sim(0).persistent(), windowCorner);
    std::vector<std::uint16_t> bits;
    for (float v : test::worldTrail())
        bits.push_back(floatToHalfBits(v));
    world->store().write({{test::kTrailLo, test::kTrailLo}, {test::kTrailSide, test::kTrailSide}},
                         bits, 0, world->log());
    window->restoreWorldWindows();

    // The window's capture measures from the snow top under where it is: its heights are the
    // terrain's at its texel centres wherever the walk has taken it.
    double worstCm = 0.0, awayCm = 0.0;
    const auto checkHeights = [&] {
        const ContactCapture& capture = window->captureOf(1);
        const std::vector<float> heights = capture.terrainHeight().readFloats();
        const Region& region = capture.key().region;
        awayCm = std::max(awayCm, glm::length(region.centreCm));
        for (int y = 0; y < kWindow; ++y)
            for (int x = 0; x < kWindow; ++x) {
                const glm::dvec2 at = texelCentreToWorld({x, y}, region);
                worstCm = std::max(
                    worstCm, std::abs(heights[y * kWindow + x] - terrain->heightCm(at.x, at.y)));
            }
    };
    // 3 m out over the hills and back, hovering well clear of the highest snow top.
    test::Sphere sphere;
    const double hoverZ = terrain->spanCm().highCm + 1000.0;
    const int steps = 90;
    for (int i = 1; i <= steps + 2; ++i) {
        const double t = double(std::min(i, steps)) / steps;
        const glm::dvec2 p = glm::dvec2(300.0, 110.0) * std::sin(std::numbers::pi * t);
        DeformerInstance hover = sphere.at({p.x, p.y, hoverZ});
        window->step({&hover, 1}, 1.0 / 30.0);
        oracle->step({&hover, 1}, 1.0 / 30.0);
        if (i % 15 == 0)
            checkHeights();
    }
    EXPECT_GT(awayCm, 250.0) << "the window should have walked away";
    EXPECT_LT(worstCm, 1e-3); // float cm
    ASSERT_EQ(window->sim(1).region().centreCm, glm::dvec2(0.0));
    EXPECT_GT(world->store().stats().pagedOut, 0);
    EXPECT_GT(world->store().stats().pagedIn, 0);

    const std::vector<float> all = redOf(oracle->sim(1).persistent());
    std::vector<float> expected(kWindow * kWindow);
    const int off = windowCorner - oracleCorner;
    for (int y = 0; y < kWindow; ++y)
        for (int x = 0; x < kWindow; ++x)
            expected[y * kWindow + x] = all[(y + off) * kOracle + x + off];
    ASSERT_GT(maxOf(expected), 0.05f) << "the trail healed away: nothing to compare";
    EXPECT_EQ(redOf(window->sim(1).persistent()), expected);
    EXPECT_EQ(maxOf(redOf(window->sim(0).persistent())), 0.0f); // "window" lost it
}

} // namespace
} // namespace snowcap
