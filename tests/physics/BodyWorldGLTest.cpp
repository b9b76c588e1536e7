// Bodies in a following window with sim.X.persistence = "world": a car drives a loop out of
// its 64² window and back; the tracks it left on the way out come back from the world store as
// a fixed region holding the whole loop holds them, while the control sim ("window") forgets
// them. Texel for texel up to the capture's last-bit differences at a triangle's edge (two
// captures of one mesh through projections centred on different texels; docs/world.md,
// section 6), which the comparison bounds.
#include "physics/PhysicsLabSupport.hpp"
#include "physics/PhysicsTestSupport.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kWindow = 64, kOracle = 256;
constexpr double kTexelCm = 4.0;
constexpr glm::dvec2 kOracleCentreCm{200.0, 152.0}; // its corner on the window's 4 cm grid

Settings loopSettings(bool followed) {
    Settings settings = test::physicsSnow();
    settings.run.fps = 60.0;
    for (SimSettings& sim : settings.sims) {
        sim.decay = 0.999;
        sim.decayTiming = DecayTiming::DeltaTime;
    }
    if (followed) {
        settings.snow.resolution = kWindow;
        settings.snow.orthoWidthCm = kWindow * kTexelCm;
        settings.snow.regionCentreCm = {0.0, 0.0};
        settings.snow.follow = {"car"};
        for (SimSettings& sim : settings.sims)
            sim.region = RegionMode::FollowSnapped;
        settings.sims[0].persistence = Persistence::Window; // the control: forgets
        settings.sims[1].persistence = Persistence::World;
    } else {
        settings.snow.resolution = kOracle;
        settings.snow.orthoWidthCm = kOracle * kTexelCm;
        settings.snow.regionCentreCm = {kOracleCentreCm.x, kOracleCentreCm.y};
    }
    // Out along +x, round a 4 x 3 m rectangle and back to where it started.
    VehicleSettings car = test::straightCar("car", 0.0f, 400.0f);
    car.waypointsCm = {{0.0f, 0.0f, 0.0f},
                       {400.0f, 0.0f, 0.0f},
                       {400.0f, 300.0f, 0.0f},
                       {0.0f, 300.0f, 0.0f},
                       {0.0f, 0.0f, 0.0f}};
    settings.vehicles = {car};
    return settings;
}

// The oracle's texels under a window whose texel (0, 0) is world texel `corner`.
std::vector<float> oracleUnder(const ImageFloat& oracle, glm::ivec2 corner) {
    const glm::ivec2 oracleCorner =
        glm::ivec2(glm::round(kOracleCentreCm / kTexelCm)) - glm::ivec2(kOracle / 2);
    const glm::ivec2 off = corner - oracleCorner;
    std::vector<float> out(std::size_t(kWindow * kWindow));
    for (int y = 0; y < kWindow; ++y)
        for (int x = 0; x < kWindow; ++x)
            out[std::size_t(y * kWindow + x)] = oracle.at(x + off.x, y + off.y);
    return out;
}

TEST(BodyWorld, ACarsTracksLeaveItsWindowAndComeBackAsAFixedRegionHoldsThem) {
    auto followed = test::makeLab(loopSettings(true), "body_world");
    auto fixed = test::makeLab(loopSettings(false), "body_world");
    ASSERT_TRUE(followed && fixed);
    ASSERT_NE(followed->field().world(1), nullptr);
    ASSERT_EQ(followed->field().world(0), nullptr);

    const double seconds = 10.0; // the loop is 14 m at 2 m/s, with its start and stop
    const double dt = followed->fixedDtS();
    const int frames = int(std::lround(seconds / dt));
    glm::dvec2 farthest{0.0};
    for (int i = 0; i < frames; ++i) {
        followed->stepTo((i + 1) * dt, dt);
        fixed->stepTo((i + 1) * dt, dt);
        const glm::dvec2 centre = followed->field().sim(1).region().centreCm;
        if (glm::length(centre) > glm::length(farthest))
            farthest = centre;
    }
    // The window went far enough that the start left it, and came back over it.
    ASSERT_GT(glm::length(farthest), kWindow * kTexelCm) << "the car never left";
    const glm::dvec2 back = followed->field().sim(1).region().centreCm;
    ASSERT_LT(glm::length(back), 0.25 * kWindow * kTexelCm) << "the car did not come back";
    const WorldStoreStats& store = followed->field().world(1)->store().stats();
    EXPECT_GT(store.pagedOut, 0);
    EXPECT_GT(store.pagedIn, 0);

    const glm::ivec2 corner = followed->field().world(1)->windowCorner(back);
    const std::vector<float> expected = oracleUnder(readPersistent(fixed->field().sim(1)), corner);
    const std::vector<float> got = readPersistent(followed->field().sim(1)).values;
    const std::vector<float> forgot = readPersistent(followed->field().sim(0)).values;
    ASSERT_EQ(got.size(), expected.size());

    // The first straight's tracks, x in [40, 120) cm: pressed in the first second, away from
    // the window for most of the loop, not driven over since.
    long long trackTexels = 0, keptInStore = 0, forgotten = 0;
    int differing = 0;
    float worst = 0.0f;
    for (int y = 0; y < kWindow; ++y)
        for (int x = 0; x < kWindow; ++x) {
            const std::size_t t = std::size_t(y * kWindow + x);
            const double worldX = (corner.x + x + 0.5) * kTexelCm;
            const float diff = std::abs(got[t] - expected[t]);
            differing += diff != 0.0f;
            worst = std::max(worst, diff);
            if (worldX < 40.0 || worldX >= 120.0 || !(expected[t] > 0.5f))
                continue;
            ++trackTexels;
            keptInStore += got[t] > 0.5f;
            forgotten += forgot[t] == 0.0f;
        }
    ASSERT_GT(trackTexels, 20) << "no first-straight tracks under the window to compare";
    EXPECT_EQ(keptInStore, trackTexels) << "the store lost tracks";
    EXPECT_EQ(forgotten, trackTexels) << "the control kept tracks it should have forgotten";
    // Edge texels only: a few half ulps, and far fewer texels than the tracks hold.
    EXPECT_LE(worst, 1.0f / 256.0f);
    EXPECT_LE(differing, kWindow * kWindow / 100) << "worst " << worst;
    RecordProperty("differing_texels", differing);
    RecordProperty("track_texels", int(trackTexels));
    RecordProperty("worst_difference", std::to_string(worst));
}

TEST(BodyWorld, WithoutAFollowListThePlayerVehicleIsTheObserver) {
    Settings settings = loopSettings(true);
    settings.snow.follow.clear();
    settings.vehicles[0].player = true;
    settings.deformers.resize(1); // a deformer before it in the step's instances
    settings.deformers[0].name = "walker";
    auto lab = test::makeLab(settings, "body_world");
    ASSERT_TRUE(lab);
    // The instances: the walker, then the car's chassis ("car") and its four wheels.
    EXPECT_EQ(lab->field().observers(), (std::vector<int>{1}));
    settings.vehicles[0].player = false; // no player: the first deformer, as before
    auto plain = test::makeLab(settings, "body_world");
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->field().observers(), (std::vector<int>{0}));
}

} // namespace
} // namespace snowcap
