// The physics world (src/physics/): fixed steps on the sim clock, the same poses bit for bit
// when run again (at 60 and at 144 fps), bodies coming to rest on the ground under the snow,
// the snow's drag, and bad bodies refused with one line naming the key.
#include "core/config.hpp"
#include "physics/PhysicsTestSupport.hpp"
#include "physics/PhysicsWorldSupport.hpp"
#include "physics/physics_world.hpp"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

using test::failure;
using test::made;
using test::sphereBody;

Settings settingsWith(std::vector<BodySettings> bodies) {
    Settings settings = test::physicsSnow();
    settings.bodies = std::move(bodies);
    return settings;
}

// A mixed scene that keeps the solver busy: thrown balls and tumbling crates that collide.
Settings busyScene() {
    BodySettings balls = sphereBody("ball", {-200.0f, 0.0f, 40.0f}, 8.0f);
    balls.count = 6;
    balls.formation = CrowdSettings::Formation::Column;
    balls.width = 3;
    balls.spacingCm = 40.0;
    balls.velocityCmS = {500.0f, 0.0f, 200.0f};
    balls.velocitySpreadCmS = 100.0;
    balls.restitution = 0.4;
    BodySettings crates;
    crates.name = "crate";
    crates.shape = BodyShape::Box;
    crates.sizeCm = {15.0f, 10.0f, 10.0f};
    crates.massKg = 5.0;
    crates.positionCm = {0.0f, 0.0f, 120.0f};
    crates.count = 9;
    crates.spacingCm = 50.0;
    crates.rotationSpreadDeg = 40.0;
    crates.seed = 7;
    return settingsWith({balls, crates});
}

std::vector<glm::mat4> poses(const PhysicsWorld& world) {
    std::vector<glm::mat4> out;
    for (std::size_t i = 0; i < world.bodyCount(); ++i)
        out.push_back(world.modelOf(i));
    return out;
}

bool sameBits(const std::vector<glm::mat4>& a, const std::vector<glm::mat4>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0;
}

TEST(PhysicsWorld, ADroppedSphereComesToRestOnTheGroundUnderTheSnow) {
    BodySettings ball = sphereBody("ball", {0.0f, 0.0f, 100.0f});
    ball.restitution = 0.0;
    const Settings settings = settingsWith({ball});
    auto world = made(settings);
    ASSERT_TRUE(world);
    EXPECT_DOUBLE_EQ(world->groundZCm(), -30.0);
    world->stepTo(0.25); // falling
    EXPECT_FALSE(world->resting(0));
    EXPECT_LT(world->velocityCmS(0).z, -100.0f);
    world->stepTo(3.0);
    const glm::vec3 at = world->positionCm(0);
    EXPECT_NEAR(at.z, -30.0 + 10.0, 0.5); // its centre one radius above the ground
    EXPECT_NEAR(at.x, 0.0, 1e-3);
    EXPECT_NEAR(at.y, 0.0, 1e-3);
    EXPECT_TRUE(world->resting(0));
    const PhysicsReport report = world->report();
    EXPECT_EQ(report.bodies, 1);
    EXPECT_EQ(report.steps, 360); // 3 s at 120 Hz
    EXPECT_EQ(report.restingBodies, 1);
    EXPECT_GE(report.stepMsMean, 0.0);
}

TEST(PhysicsWorld, EachFrameRunsTheFixedStepsItsTimeReaches) {
    for (double fps : {60.0, 144.0, 30.0}) {
        SCOPED_TRACE(fps);
        auto world = made(busyScene());
        ASSERT_TRUE(world);
        long long total = 0;
        for (int frame = 0; frame < int(fps); ++frame) {
            const double t = (frame + 1) / fps;
            const int ran = world->stepTo(t);
            total += ran;
            EXPECT_EQ(total, static_cast<long long>(std::floor(t * 120.0 + 1e-6)));
            if (fps == 60.0)
                EXPECT_EQ(ran, 2);
            if (fps == 144.0)
                EXPECT_LE(ran, 1);
        }
        EXPECT_EQ(total, 120); // one simulated second at 120 Hz
        EXPECT_DOUBLE_EQ(world->timeS(), 1.0);
    }
}

TEST(PhysicsWorld, TheSameRunTwiceGivesTheSamePosesBitForBitAt60And144Fps) {
    for (double fps : {60.0, 144.0}) {
        SCOPED_TRACE(fps);
        auto first = made(busyScene());
        auto second = made(busyScene());
        ASSERT_TRUE(first && second);
        const std::vector<glm::mat4> start = poses(*first);
        for (int frame = 0; frame < int(2 * fps); ++frame) {
            const double t = (frame + 1) / fps;
            first->stepTo(t);
            second->stepTo(t);
            ASSERT_TRUE(sameBits(poses(*first), poses(*second))) << "frame " << frame;
        }
        EXPECT_FALSE(sameBits(poses(*first), start)); // they did move
    }
}

TEST(PhysicsWorld, AnEarlierTimeStartsOverAndReplaysTheSameSteps) {
    auto world = made(busyScene());
    ASSERT_TRUE(world);
    const std::vector<glm::mat4> start = poses(*world);
    world->stepTo(1.0);
    const std::vector<glm::mat4> atOne = poses(*world);
    world->stepTo(0.0);
    EXPECT_TRUE(sameBits(poses(*world), start));
    world->stepTo(1.0);
    EXPECT_TRUE(sameBits(poses(*world), atOne));
    EXPECT_EQ(world->report().steps, 240); // every step run counts
}

TEST(PhysicsWorld, TheSnowDragsOnWhatMovesThroughIt) {
    EXPECT_DOUBLE_EQ(snowDragFactor(0.2, 10.0, 1.0 / 120.0), std::exp(-0.2 * 10.0 / 120.0));
    EXPECT_DOUBLE_EQ(snowDragFactor(0.2, 0.0, 1.0 / 120.0), 1.0);
    // A ball skidding along the ground under the snow: the snow stops it, the bare ground
    // (no drag) lets it roll on.
    auto travelled = [](double drag) {
        BodySettings ball = sphereBody("ball", {0.0f, 0.0f, -20.0f});
        ball.velocityCmS = {500.0f, 0.0f, 0.0f};
        Settings settings = settingsWith({ball});
        settings.physics.snowDragPerCm = drag;
        auto world = made(settings);
        world->stepTo(3.0);
        return world->positionCm(0).x;
    };
    const float dragged = travelled(0.2), free = travelled(0.0);
    EXPECT_GT(free, 800.0f);
    EXPECT_LT(dragged, 300.0f);
    EXPECT_GT(dragged, 20.0f);
}

TEST(PhysicsWorld, ABodyStartingInsideAnotherIsOneLineNamingTheKey) {
    const std::string error = failure(settingsWith(
        {sphereBody("first", {0.0f, 0.0f, 50.0f}), sphereBody("second", {5.0f, 0.0f, 50.0f})}));
    EXPECT_EQ(error, "key 'body[1].position_cm': body 'second' starts 15.0 cm inside body 'first'");
    // Laid touching is fine.
    EXPECT_TRUE(made(settingsWith(
        {sphereBody("first", {0.0f, 0.0f, 50.0f}), sphereBody("second", {20.0f, 0.0f, 50.0f})})));
    // Members of one entry too.
    BodySettings crowded = sphereBody("packed", {0.0f, 0.0f, 50.0f});
    crowded.count = 3;
    crowded.spacingCm = 10.0;
    const std::string members = failure(settingsWith({crowded}));
    EXPECT_NE(members.find("key 'body[0].position_cm': body 'packed."), std::string::npos)
        << members;
    EXPECT_EQ(members.find('\n'), std::string::npos);
}

TEST(PhysicsWorld, ABodyStartingInTheGroundIsOneLineNamingTheKey) {
    const std::string error = failure(settingsWith({sphereBody("buried", {0.0f, 0.0f, -25.0f})}));
    EXPECT_EQ(error, "key 'body[0].position_cm': body 'buried' starts 5.0 cm into the ground "
                     "under the snow (z = -30 cm, surface_z_cm - depth_cm)");
}

TEST(BodyList, CountMakesNamedMembersInTheFormation) {
    BodySettings crates;
    crates.name = "crate";
    crates.count = 4;
    crates.formation = CrowdSettings::Formation::Grid;
    crates.spacingCm = 60.0;
    crates.positionCm = {100.0f, 0.0f, 80.0f};
    crates.rotationSpreadDeg = 30.0;
    crates.velocitySpreadCmS = 50.0;
    const std::vector<BodySpec> members = expandBodies(std::vector<BodySettings>{crates});
    ASSERT_EQ(members.size(), 4u);
    glm::vec3 centre(0.0f);
    for (std::size_t k = 0; k < members.size(); ++k) {
        EXPECT_EQ(members[k].name, "crate." + std::to_string(k));
        EXPECT_EQ(members[k].entry, 0u);
        EXPECT_FLOAT_EQ(members[k].positionCm.z, 80.0f);
        centre += members[k].positionCm / 4.0f;
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_LE(std::abs(members[k].rotationDeg[axis]), 30.0f);
            EXPECT_LE(std::abs(members[k].velocityCmS[axis]), 50.0f);
        }
    }
    EXPECT_NEAR(centre.x, 100.0f, 1e-3f); // a grid is centred on position_cm
    EXPECT_NEAR(glm::length(members[0].positionCm - members[1].positionCm), 60.0f, 1e-3f);
    EXPECT_NE(members[0].rotationDeg, members[1].rotationDeg);
    // One body: its own name, exactly where it is told.
    crates.count = 1;
    crates.rotationSpreadDeg = crates.velocitySpreadCmS = 0.0;
    const std::vector<BodySpec> one = expandBodies(std::vector<BodySettings>{crates});
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].name, "crate");
    EXPECT_EQ(one[0].positionCm, crates.positionCm);
}

TEST(BodyList, BodiesOfOneShapeAndSizeShareAMeshKey) {
    BodySettings a = sphereBody("a", {0.0f, 0.0f, 50.0f}),
                 b = sphereBody("b", {50.0f, 0.0f, 50.0f});
    BodySettings c = sphereBody("c", {100.0f, 0.0f, 50.0f}, 12.0f);
    const std::vector<BodySpec> specs = expandBodies(std::vector<BodySettings>{a, b, c});
    const Deformer da = bodyDeformer(specs[0]), db = bodyDeformer(specs[1]),
                   dc = bodyDeformer(specs[2]);
    EXPECT_EQ(da.meshKey, db.meshKey);
    EXPECT_NE(da.meshKey, dc.meshKey);
    ASSERT_TRUE(db.bodyPose);
    EXPECT_EQ(db.positionAt(5.0), glm::vec3(50.0f, 0.0f, 50.0f)); // the pose, at any time
    EXPECT_NEAR(da.mesh.bounds().max.x, 10.0f, 1e-4f);            // centred on the body's centre
    EXPECT_NEAR(da.mesh.bounds().min.z, -10.0f, 1e-4f);
}

// ---- the [[body]] keys ----------------------------------------------------------------------

std::string configError(const std::string& text) {
    auto loaded = loadSettingsFromText(text, "bodies.toml");
    if (auto* error = std::get_if<ConfigError>(&loaded))
        return error->message;
    ADD_FAILURE() << "loaded";
    return {};
}

TEST(BodyConfig, EntriesStartFromTheirRowsDefaults) {
    auto loaded = loadSettingsFromText("[[body]]\nname = 'b'\n", "bodies.toml");
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded));
    const Settings& settings = std::get<Settings>(loaded);
    ASSERT_EQ(settings.bodies.size(), 1u);
    EXPECT_EQ(settings.bodies[0].shape, BodyShape::Sphere);
    EXPECT_EQ(settings.bodies[0].massKg, 1.0);
    EXPECT_EQ(settings.bodies[0].count, 1);
    EXPECT_EQ(settings.physics.stepHz, 120);
}

TEST(BodyConfig, BadKeysAreOneLineNamingTheKey) {
    EXPECT_EQ(configError("[[body]]\nname = 'b'\nmass_kg = 0\n"),
              "bodies.toml:3:11: key 'body[0].mass_kg': must be in (0, 10000], got 0");
    EXPECT_NE(configError("[[body]]\nname = 'b'\nmass_kg = -2\n").find("body[0].mass_kg"),
              std::string::npos);
    EXPECT_NE(
        configError("[[body]]\nname = 'b'\nmas_kg = 2\n").find("unknown key 'body[0].mas_kg'"),
        std::string::npos);
    EXPECT_NE(configError("[[body]]\nshape = 'box'\n").find("name"), std::string::npos);
    EXPECT_NE(configError("[[body]]\nname = 'b'\nshape = 'cube'\n").find("body[0].shape"),
              std::string::npos);
    EXPECT_NE(configError("[[body]]\nname = 'b'\n[[body]]\nname = 'b'\n").find("already used"),
              std::string::npos);
    EXPECT_NE(configError("[physics]\nstep_hz = 0\n").find("physics.step_hz"), std::string::npos);
    const std::string cap =
        configError("[import]\nmax_bodies = 5\n[[body]]\nname = 'b'\ncount = 6\n");
    EXPECT_NE(cap.find("key 'body[0].count': 6 bodies"), std::string::npos) << cap;
    EXPECT_NE(cap.find("import.max_bodies"), std::string::npos) << cap;
}

} // namespace
} // namespace snowcap
