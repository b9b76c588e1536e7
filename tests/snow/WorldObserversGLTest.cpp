// Several observers (snow.follow = [...]; docs/world.md, section 6): a follow_snapped sim keeps
// one 64² window per observer, all on one texel grid and sharing the sim's world store. Where
// the windows overlap they hold the same texels, bit for bit, while both observers press
// inside the overlap; an observer walking into the other's old trail holds, texel for texel,
// what a fixed 256² region at the same texel size holds.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "WorldTrailSupport.hpp"
#include "snow/world_file.hpp"

#include <cmath>

namespace snowcap {
namespace {

using test::makeField;
using test::maxOf;
using test::redOf;

constexpr int kWindow = 64, kOracle = 256;
constexpr double kTexelCm = 4.0;

struct Law {
    double fps;
    bool halfSafe;
    bool idleSkip;
};

void applyLaw(SimSettings& sim, const Law& law) {
    sim.decay = 0.995;
    sim.decayTiming = DecayTiming::DeltaTime;
    sim.halfSafe = law.halfSafe;
}

// Two observers, p1 and p2. Sim A keeps a world, sim B forgets (window): both follow both.
Settings observerSettings(const Law& law) {
    Settings s;
    s.snow.resolution = kWindow;
    s.snow.orthoWidthCm = kWindow * kTexelCm;
    s.snow.idleSkip = law.idleSkip;
    s.deformers.resize(2);
    s.deformers[0].name = "p1";
    s.deformers[1].name = "p2";
    s.snow.follow = {"p1", "p2"};
    for (int i = 0; i < 2; ++i) {
        applyLaw(s.sims[i], law);
        s.sims[i].region = RegionMode::FollowSnapped;
    }
    s.sims[0].persistence = Persistence::World;
    s.sims[1].persistence = Persistence::Window;
    return s;
}

Settings oracleSettings(const Law& law) {
    Settings s;
    s.snow.resolution = kOracle;
    s.snow.orthoWidthCm = kOracle * kTexelCm; // the same texel grid (no idle skip: its trail
                                              // is put in directly, unknown to its heal bound)
    for (int i = 0; i < 2; ++i)
        applyLaw(s.sims[i], law);
    return s;
}

// The texels of `window` (a window centred at `centreCm`) as a rectangle of world texels.
TexelRect rectOf(const SnowSim& window) {
    const glm::ivec2 corner =
        glm::ivec2(glm::round(window.region().centreCm / kTexelCm)) - kWindow / 2;
    return {corner, glm::ivec2(kWindow)};
}

// The texels of `rect` (world texels) in a square buffer of side n whose texel 0 is `corner`.
std::vector<float> cut(const std::vector<float>& buffer, int n, glm::ivec2 corner,
                       const TexelRect& rect) {
    std::vector<float> out;
    for (int y = rect.origin.y; y < rect.origin.y + rect.size.y; ++y)
        for (int x = rect.origin.x; x < rect.origin.x + rect.size.x; ++x)
            out.push_back(buffer[(y - corner.y) * n + (x - corner.x)]);
    return out;
}

TEST(WorldObservers, EveryObserverHasAWindowAndTheFieldListsThem) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings s = observerSettings({60, true, false});
    s.sims[1].region = RegionMode::FollowNaive; // resamples: one window, on the first observer
    auto field = makeField(s, shaders);
    ASSERT_TRUE(field);
    EXPECT_EQ(field->windowCount(0), 2);
    EXPECT_EQ(field->windowCount(1), 1);
    EXPECT_EQ(field->observers(), (std::vector<int>{0, 1}));
    test::Sphere sphere;
    const DeformerInstance both[] = {sphere.at({400.0, 0.0, 500.0}),
                                     sphere.at({-400.0, 80.0, -15.0})}; // p2 presses
    field->step(both, 1.0 / 60.0);
    const std::vector<ObserverWindow> windows = field->windows(0);
    ASSERT_EQ(windows.size(), 2u);
    EXPECT_EQ(windows[0].centreCm, glm::dvec2(400.0, 0.0));
    EXPECT_EQ(windows[1].centreCm, glm::dvec2(-400.0, 80.0));
    EXPECT_EQ(windows[1].sideCm, kWindow * kTexelCm);
    EXPECT_EQ(windows[1].deformer, 1);

    // One line naming the key; the field keeps what it had.
    s.snow.follow = {"p1", "nobody"};
    auto error = field->applySettings(s);
    ASSERT_TRUE(error);
    EXPECT_EQ(*error, "snow.follow: no deformer, body or vehicle named 'nobody'");
    EXPECT_EQ(field->windowCount(0), 2);
    // One observer fewer: p2's window goes, and its print (outside p1's) goes to the store.
    const long long before = field->world(0)->store().stats().pagedOut;
    s.snow.follow = {"p1"};
    ASSERT_FALSE(field->applySettings(s));
    EXPECT_EQ(field->windowCount(0), 1);
    EXPECT_GT(field->world(0)->store().stats().pagedOut, before);
    EXPECT_GT(field->world(0)->store().stats().tiles, 0);
}

class WorldObservers : public ::testing::TestWithParam<Law> {};

TEST_P(WorldObservers, OverlappingWindowsAgreeTexelForTexelWhileBothPress) {
    const Law law = GetParam();
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto field = makeField(observerSettings(law), shaders);
    ASSERT_TRUE(field);
    test::Sphere sphere;
    // p1 walks +x, p2 walks -x 40 cm beside it: their windows slide over each other, and both
    // press inside the overlap (each print is captured by both windows).
    const int steps = static_cast<int>(std::lround(2.0 * law.fps));
    int compared = 0;
    for (int i = 0; i <= steps; ++i) {
        const double t = double(i) / steps;
        const DeformerInstance both[] = {sphere.at({-200.0 + 400.0 * t, 0.0, -15.0}),
                                         sphere.at({200.0 - 400.0 * t, 40.0, -15.0})};
        field->step(both, 1.0 / law.fps);
        if (i % 8 != 0)
            continue;
        for (int s = 0; s < 2; ++s) {
            const SnowSim &a = field->window(s, 0), &b = field->window(s, 1);
            const TexelRect overlap = intersection(rectOf(a), rectOf(b));
            if (overlap.empty())
                continue;
            const std::vector<float> inA =
                cut(redOf(a.persistent()), kWindow, rectOf(a).origin, overlap);
            const std::vector<float> inB =
                cut(redOf(b.persistent()), kWindow, rectOf(b).origin, overlap);
            ASSERT_EQ(inA, inB) << "sim " << s << ", step " << i;
            compared += maxOf(inA) > 0.1f;
            // Two captures may differ in a depth's last bit: stand in for that by disturbing
            // window 2's copy of the overlap. The owner's (window 1's) texels win next step.
            const std::vector<float> wrong(inB.size(), 0.25f);
            const glm::ivec2 at = overlap.origin - rectOf(b).origin;
            glTextureSubImage2D(b.persistent().id(), 0, at.x, at.y, overlap.size.x, overlap.size.y,
                                GL_RED, GL_FLOAT, wrong.data());
        }
        // And the store never holds a texel inside a window (it is the window's).
        for (const auto& [key, tile] : field->world(0)->store().tiles())
            for (int w = 0; w < 2; ++w) {
                const TexelRect there = rectOf(field->window(0, w));
                const int side = field->world(0)->store().tileTexels();
                const TexelRect inside = intersection(
                    there, {glm::ivec2(key.first, key.second) * side, glm::ivec2(side)});
                for (int y = 0; y < inside.size.y; ++y)
                    for (int x = 0; x < inside.size.x; ++x) {
                        const glm::ivec2 t = inside.origin + glm::ivec2(x, y) -
                                             glm::ivec2(key.first, key.second) * side;
                        ASSERT_EQ(tile.bits[t.y * side + t.x], 0)
                            << "store texel inside window " << w;
                    }
            }
    }
    EXPECT_GT(compared, 4) << "no pressed overlap was compared";
}

TEST_P(WorldObservers, AnObserverWalkingIntoTheOthersOldTrailSeesWhatAFixedRegionHolds) {
    const Law law = GetParam();
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto field = makeField(observerSettings(law), shaders);
    auto oracle = makeField(oracleSettings(law), shaders);
    ASSERT_TRUE(field && oracle);
    WorldPager* world = field->world(0);
    ASSERT_NE(world, nullptr);

    // p2's old trail: in the oracle and in sim A's store. p2 stands on it, p1 is 4 m away.
    const std::vector<float> v = test::worldTrail(test::TrailTilt::AlongY);
    glTextureSubImage2D(oracle->sim(0).persistent().id(), 0, test::kTrailLo + kOracle / 2,
                        test::kTrailLo + kOracle / 2, test::kTrailSide, test::kTrailSide, GL_RED,
                        GL_FLOAT, v.data());
    std::vector<std::uint16_t> bits;
    for (float value : v)
        bits.push_back(floatToHalfBits(value));
    world->store().write({{test::kTrailLo, test::kTrailLo}, {test::kTrailSide, test::kTrailSide}},
                         bits, 0, world->log());
    // Both windows start at the origin, over the trail: the lowest takes it from the store and
    // the other copies it (the loading path).
    field->restoreWorldWindows();
    ASSERT_EQ(redOf(field->window(0, 1).persistent()), redOf(field->window(0, 0).persistent()));

    // Hovering (no contact: only the store and the windows are compared). p2 walks off the
    // trail to +x while p1 comes in from +x: they pass each other (overlapping windows), p1
    // ends on the trail, p2 4 m away.
    test::Sphere sphere;
    const int steps = static_cast<int>(std::lround(3.0 * law.fps));
    for (int i = 0; i <= steps + 2; ++i) {
        const double t = std::min(1.0, double(i) / steps);
        const DeformerInstance both[] = {sphere.at({400.0 - 410.0 * t, 60.0 * (1.0 - t), 500.0}),
                                         sphere.at({388.0 * t, -40.0 * t, 500.0})};
        if (i == 0) {
            // The first step moves both windows to their observers; p2's takes the trail.
            field->step(both, 1.0 / law.fps);
            oracle->step(both, 1.0 / law.fps);
            ASSERT_GT(maxOf(redOf(field->window(0, 1).persistent())), 0.5f);
            continue;
        }
        field->step(both, 1.0 / law.fps);
        oracle->step(both, 1.0 / law.fps);
    }
    EXPECT_GT(world->store().stats().pagedOut, 0);
    EXPECT_GT(world->store().stats().pagedIn, 0);

    const std::vector<float> all = redOf(oracle->sim(0).persistent());
    const glm::ivec2 oracleCorner(-kOracle / 2);
    for (int w = 0; w < 2; ++w) {
        const SnowSim& window = field->window(0, w);
        const std::vector<float> expected = cut(all, kOracle, oracleCorner, rectOf(window));
        const std::vector<float> got = redOf(window.persistent());
        int differing = 0;
        for (std::size_t i = 0; i < got.size(); ++i)
            differing += got[i] != expected[i];
        EXPECT_EQ(differing, 0) << "window " << w;
    }
    ASSERT_GT(maxOf(redOf(field->window(0, 0).persistent())), 0.1f)
        << "p1 did not reach the trail: nothing to compare";
    // Sim B forgets: p1 walked into nothing.
    EXPECT_EQ(maxOf(redOf(field->window(1, 0).persistent())), 0.0f);
}

INSTANTIATE_TEST_SUITE_P(Laws, WorldObservers,
                         ::testing::Values(Law{30, true, false}, Law{144, false, false},
                                           Law{60, true, true}),
                         [](const auto& info) {
                             const Law& law = info.param;
                             return std::to_string(int(law.fps)) + "fps_" +
                                    (law.halfSafe ? "safe" : "unsafe") +
                                    (law.idleSkip ? "_skip" : "");
                         });

} // namespace
} // namespace snowcap
