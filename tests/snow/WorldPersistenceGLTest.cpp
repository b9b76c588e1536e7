// sim.X.persistence = "world" on the driver: a 64² following window walks away from a trail and
// back, and holds, texel for texel, what a fixed 256² region at the same texel size (big enough
// never to lose it) holds, at 30 and 144 fps, half-safe on and off, with idle skip, linear
// refill, one-texel moves and jumps of several tiles. The same walk with "window" loses it.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "WorldTrailSupport.hpp"
#include "core/config.hpp"
#include "snow/world_file.hpp"

#include <cmath>
#include <numbers>

namespace snowcap {
namespace {

using test::makeField;
using test::maxOf;
using test::redOf;

constexpr int kWindow = 64, kOracle = 256;
constexpr double kTexelCm = 4.0;

struct WalkCase {
    double fps;
    bool halfSafe;
    bool idleSkip;
    RefillMode refill;
    bool jumps; // moves of several tiles at once instead of a smooth walk
    WorldCompression compress = WorldCompression::Off; // tiles packed while away
};

void applyLaw(SimSettings& sim, const WalkCase& c) {
    sim.decay = 0.995;
    sim.decayTiming = DecayTiming::DeltaTime;
    sim.halfSafe = c.halfSafe;
    sim.refill = c.refill;
    sim.refillRatePerS = 0.15;
}

Settings windowSettings(const WalkCase& c) {
    Settings s;
    s.snow.resolution = kWindow;
    s.snow.orthoWidthCm = kWindow * kTexelCm;
    s.snow.idleSkip = c.idleSkip;
    s.snow.worldCompress = c.compress;
    for (int i = 0; i < 2; ++i) {
        applyLaw(s.sims[i], c);
        s.sims[i].region = RegionMode::FollowSnapped;
    }
    s.sims[0].persistence = Persistence::Window; // the control: forgets
    s.sims[1].persistence = Persistence::World;
    return s;
}

Settings oracleSettings(const WalkCase& c) {
    Settings s;
    s.snow.resolution = kOracle;
    s.snow.orthoWidthCm = kOracle * kTexelCm; // same texel grid: corners on multiples of 4 cm
    for (int i = 0; i < 2; ++i)
        applyLaw(s.sims[i], c);
    return s;
}

// Where the followed deformer is at step i of n (it hovers: no contact anywhere).
glm::dvec2 pathAt(const WalkCase& c, int i, int n) {
    const double t = double(i) / n;
    if (!c.jumps) // 3 m out along a slant and back, moves of one or two texels a step
        return glm::dvec2(300.0, 110.0) * std::sin(std::numbers::pi * t);
    if (t < 0.2)
        return {4.0 * (i % 2), 0.0}; // one-texel moves to and fro over the tile corner
    if (t < 0.5)
        return {200.0, -136.0}; // a jump of 50 x 34 texels: several tiles at once
    if (t < 0.8)
        return {-260.0, 64.0}; // and another, past the trail on the other side
    return {0.0, 0.0};
}

class WorldReturn : public ::testing::TestWithParam<WalkCase> {};

TEST_P(WorldReturn, TheTrailComesBackBitForBitAsAFixedRegionHoldsIt) {
    const WalkCase c = GetParam();
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto window = makeField(windowSettings(c), shaders);
    auto oracle = makeField(oracleSettings(c), shaders);
    ASSERT_TRUE(window && oracle);
    WorldPager* world = window->world(1);
    ASSERT_NE(world, nullptr);
    ASSERT_EQ(window->world(0), nullptr);

    // The trail: into the oracle's buffer, the control's window, and the world sim's store
    // (which the window then restores: the loading path).
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
    ASSERT_EQ(redOf(window->sim(1).persistent()), redOf(window->sim(0).persistent()));

    test::Sphere sphere;
    const int steps = static_cast<int>(std::lround(3.0 * c.fps));
    for (int i = 1; i <= steps + 2; ++i) {
        const glm::dvec2 p = pathAt(c, std::min(i, steps), steps);
        DeformerInstance hover = sphere.at({p.x, p.y, 500.0});
        window->step({&hover, 1}, 1.0 / c.fps);
        oracle->step({&hover, 1}, 1.0 / c.fps);
    }
    ASSERT_EQ(window->sim(1).region().centreCm, glm::dvec2(0.0));
    EXPECT_GT(world->store().stats().pagedOut, 0);
    EXPECT_GT(world->store().stats().pagedIn, 0);
    if (c.compress != WorldCompression::Off) { // the trail was packed while away, and came back
        EXPECT_GT(world->store().stats().packs, 0);
        EXPECT_GT(world->store().stats().unpacks, 0);
    }

    // The oracle's texels under the window, now back at the start.
    const std::vector<float> all = redOf(oracle->sim(1).persistent());
    std::vector<float> expected(kWindow * kWindow);
    const int off = windowCorner - oracleCorner;
    for (int y = 0; y < kWindow; ++y)
        for (int x = 0; x < kWindow; ++x)
            expected[y * kWindow + x] = all[(y + off) * kOracle + x + off];
    ASSERT_GT(maxOf(expected), 0.05f) << "the trail healed away: nothing to compare";
    const std::vector<float> got = redOf(window->sim(1).persistent());
    int differing = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        differing += got[i] != expected[i];
    EXPECT_EQ(differing, 0);
    EXPECT_EQ(got, expected);
    // "window" walked off the whole trail: gone.
    EXPECT_EQ(maxOf(redOf(window->sim(0).persistent())), 0.0f);
}

INSTANTIATE_TEST_SUITE_P(
    Walks, WorldReturn,
    ::testing::Values(WalkCase{30, true, false, RefillMode::Multiply, false},
                      WalkCase{144, true, false, RefillMode::Multiply, false},
                      WalkCase{30, false, false, RefillMode::Multiply, false},
                      WalkCase{144, false, false, RefillMode::Multiply, false},
                      WalkCase{144, true, true, RefillMode::Multiply, false},
                      WalkCase{60, true, true, RefillMode::Linear, false},
                      WalkCase{60, true, false, RefillMode::Multiply, true},
                      WalkCase{30, false, true, RefillMode::Multiply, true},
                      WalkCase{60, true, false, RefillMode::Multiply, false, WorldCompression::Lz4},
                      WalkCase{60, false, true, RefillMode::Multiply, true,
                               WorldCompression::Zstd}),
    [](const auto& info) {
        const WalkCase& c = info.param;
        return std::to_string(int(c.fps)) + "fps_" + (c.halfSafe ? "safe" : "unsafe") +
               (c.idleSkip ? "_skip" : "") + (c.refill == RefillMode::Linear ? "_linear" : "") +
               (c.jumps ? "_jumps" : "_walk") +
               (c.compress == WorldCompression::Off ? "" : "_" + std::string(toString(c.compress)));
    });

// The boot presses while it walks 2 m out along X: a trail that is partly in the store.
void walkOut(SnowField& field, const test::Sphere& sphere, int from, int to) {
    for (int i = from; i < to; ++i) {
        DeformerInstance pressed = sphere.at({2.0 * i, 0.5 * i, -15.0});
        field.step({&pressed, 1}, 1.0 / 60.0);
    }
}

std::vector<std::uint8_t> saved(SnowField& field) {
    auto snapshot = snapshotWorld(field);
    if (auto* error = std::get_if<std::string>(&snapshot)) {
        ADD_FAILURE() << *error;
        return {};
    }
    return encodeWorldFile(std::get<WorldFile>(snapshot));
}

TEST(WorldFiles, ASavedWorldLoadsBitForBitAndStepsOnAsTheSavedRunWould) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    const Settings settings = windowSettings({60, true, false, RefillMode::Multiply, false});
    auto first = makeField(settings, shaders);
    ASSERT_TRUE(first);
    test::Sphere sphere;
    walkOut(*first, sphere, 0, 100);
    ASSERT_GT(first->world(1)->store().stats().tiles, 0);
    const std::vector<std::uint8_t> bytes = saved(*first);
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(saved(*first), bytes); // saving changes nothing

    auto second = makeField(settings, shaders);
    ASSERT_TRUE(second);
    auto decoded = decodeWorldFile(bytes);
    ASSERT_TRUE(std::holds_alternative<WorldFile>(decoded));
    ASSERT_FALSE(applyWorld(*second, std::get<WorldFile>(decoded)));
    EXPECT_EQ(saved(*second), bytes); // the round trip is bit-exact
    EXPECT_EQ(second->sim(1).clock().state(), first->sim(1).clock().state());

    walkOut(*first, sphere, 100, 160);
    walkOut(*second, sphere, 100, 160);
    EXPECT_EQ(redOf(second->sim(1).persistent()), redOf(first->sim(1).persistent()));
    EXPECT_EQ(saved(*second), saved(*first));
}

// Packing is the store's business: a world walked with packed tiles saves the same bytes as
// one walked without, and loads back into a packing store bit for bit.
TEST(WorldFiles, PackedTilesSaveAndLoadAsTheUnpackedOnes) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    const Settings plain = windowSettings({60, true, false, RefillMode::Multiply, false});
    Settings packed = plain;
    packed.snow.worldCompress = WorldCompression::Lz4;
    auto a = makeField(plain, shaders);
    auto b = makeField(packed, shaders);
    ASSERT_TRUE(a && b);
    test::Sphere sphere;
    walkOut(*a, sphere, 0, 200);
    walkOut(*b, sphere, 0, 200);
    const WorldStoreStats& stats = b->world(1)->store().stats();
    ASSERT_GT(stats.packedTiles, 0);
    EXPECT_LT(stats.storeBytes, a->world(1)->store().stats().storeBytes);
    const std::vector<std::uint8_t> bytes = saved(*a);
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(saved(*b), bytes);

    auto loaded = makeField(packed, shaders);
    ASSERT_TRUE(loaded);
    auto decoded = decodeWorldFile(bytes);
    ASSERT_TRUE(std::holds_alternative<WorldFile>(decoded));
    ASSERT_FALSE(applyWorld(*loaded, std::get<WorldFile>(decoded)));
    walkOut(*a, sphere, 200, 300);
    walkOut(*loaded, sphere, 200, 300);
    EXPECT_EQ(redOf(loaded->sim(1).persistent()), redOf(a->sim(1).persistent()));
    EXPECT_EQ(saved(*loaded), saved(*a));
}

TEST(WorldFiles, AWorldOfAnotherTexelSizeOrWindowIsRefusedAndLoadsNothing) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    const Settings settings = windowSettings({60, true, false, RefillMode::Multiply, false});
    auto first = makeField(settings, shaders);
    ASSERT_TRUE(first);
    test::Sphere sphere;
    walkOut(*first, sphere, 0, 60);
    auto decoded = decodeWorldFile(saved(*first));
    ASSERT_TRUE(std::holds_alternative<WorldFile>(decoded));
    const WorldFile& file = std::get<WorldFile>(decoded);

    Settings other = settings;
    other.snow.orthoWidthCm = 512.0; // 8 cm texels
    auto coarse = makeField(other, shaders);
    ASSERT_TRUE(coarse);
    auto error = applyWorld(*coarse, file);
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("cm a texel"), std::string::npos) << *error;
    EXPECT_EQ(coarse->world(1)->store().stats().tiles, 0);
    EXPECT_EQ(maxOf(redOf(coarse->sim(1).persistent())), 0.0f);

    other = settings;
    other.sims[1].persistence = Persistence::Window;
    auto windowOnly = makeField(other, shaders);
    ASSERT_TRUE(windowOnly);
    error = applyWorld(*windowOnly, file);
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("sim.b keeps no world"), std::string::npos) << *error;
}

TEST(WorldPersistence, RefusesWhatItCannotReplayWithOneLine) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings s = windowSettings({60, true, false, RefillMode::Multiply, false});
    auto field = makeField(s, shaders);
    ASSERT_TRUE(field);
    s.sims[1].format = BufferFormat::RGBA16F;
    auto error = field->applySettings(s);
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("sim.b.persistence"), std::string::npos) << *error;
    EXPECT_NE(field->world(1), nullptr); // kept what it had
    s.sims[1].format = BufferFormat::R16F;
    s.sims[1].region = RegionMode::FollowNaive;
    EXPECT_TRUE(field->applySettings(s));
}

} // namespace
} // namespace snowcap
