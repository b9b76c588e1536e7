// What the viewer's throw and WASD driving rest on (src/physics/): a body that waits for its
// launch_s outside the world (neither drawn nor pressing, the others untouched by it), a
// snowball aimed to land on a target, and a player vehicle whose logged input replays bit for bit.
#include "physics/PhysicsTestSupport.hpp"
#include "physics/PhysicsWorldSupport.hpp"
#include "physics/body_list.hpp"
#include "physics/physics_world.hpp"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

using test::made;
using test::sphereBody;

bool sameBits(const glm::mat4& a, const glm::mat4& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(BodyLaunch, ABodyWaitsOutsideTheWorldUntilItsLaunchTime) {
    Settings settings = test::physicsSnow();
    BodySettings resting = sphereBody("ball", {0.0f, 0.0f, 60.0f});
    BodySettings thrown = sphereBody("thrown", {300.0f, 0.0f, 80.0f}, 6.0f);
    thrown.velocityCmS = {-400.0f, 0.0f, 100.0f};
    thrown.launchS = 0.5;
    settings.bodies = {resting};
    auto alone = made(settings);
    settings.bodies = {resting, thrown};
    auto both = made(settings);
    ASSERT_TRUE(alone && both);
    for (int frame = 1; frame <= 29; ++frame) { // up to 0.483 s: not launched
        alone->stepTo(frame / 60.0);
        both->stepTo(frame / 60.0);
        ASSERT_TRUE(sameBits(alone->modelOf(0), both->modelOf(0))) << "frame " << frame;
        EXPECT_FALSE(both->launched(1));
        EXPECT_FALSE(both->resting(1));
        const glm::mat4 waiting = both->modelOf(1);
        EXPECT_EQ(glm::vec3(waiting[0]), glm::vec3(0.0f)) << "shrunk to a point: not drawn";
        EXPECT_EQ(glm::vec3(waiting[3]), thrown.positionCm);
    }
    both->stepTo(0.5 + 1.0 / 120.0); // the step starting at 0.5 s takes it in
    EXPECT_TRUE(both->launched(1));
    EXPECT_NEAR(both->positionCm(1).x, 300.0 - 400.0 / 120.0, 0.05);
    EXPECT_EQ(glm::vec3(both->modelOf(1)[0]), glm::vec3(1.0f, 0.0f, 0.0f));
    both->stepTo(0.0); // a scrub back: waiting again, and the same flight after
    EXPECT_FALSE(both->launched(1));
    both->stepTo(0.6);
    const glm::vec3 first = both->positionCm(1);
    both->stepTo(0.0);
    both->stepTo(0.6);
    EXPECT_EQ(both->positionCm(1), first);
}

TEST(SnowballThrow, TheFlatterArcLandsOnTheTarget) {
    const glm::vec3 from(0.0f, 0.0f, 300.0f), to(600.0f, 200.0f, 0.0f);
    const double g = 980.665, speed = 1200.0;
    const BodySettings ball = snowballToward(from, to, speed, 5.0, g, 2.5);
    EXPECT_EQ(ball.launchS, 2.5);
    EXPECT_NEAR(glm::length(ball.velocityCmS), speed, 1e-3);
    // 450 kg/m3 in a ball of 5 cm radius: 0.236 kg.
    EXPECT_NEAR(ball.massKg, 450.0 * 4.0 / 3.0 * 3.14159265 * 0.05 * 0.05 * 0.05, 1e-4);
    // Where the parabola crosses the target's horizontal distance, it is at the target.
    const glm::dvec3 v(ball.velocityCmS);
    const double d = glm::length(glm::dvec2(to - from));
    const double t = d / glm::length(glm::dvec2(v));
    const glm::dvec3 at = glm::dvec3(from) + v * t - glm::dvec3(0.0, 0.0, 0.5 * g * t * t);
    EXPECT_NEAR(at.x, to.x, 0.01);
    EXPECT_NEAR(at.y, to.y, 0.01);
    EXPECT_NEAR(at.z, to.z, 0.01);
    // The flatter of the two arcs: below 45 degrees here.
    EXPECT_LT(v.z / glm::length(glm::dvec2(v)), 1.0);
    // Out of reach at this speed: thrown at 45 degrees towards it.
    const BodySettings weak = snowballToward(from, {5000.0f, 0.0f, 0.0f}, 300.0, 5.0, g, 0.0);
    EXPECT_NEAR(weak.velocityCmS.z, weak.velocityCmS.x, 1e-3);
    EXPECT_GT(weak.velocityCmS.x, 0.0f);
}

TEST(PlayerVehicle, StandsStillWithoutInputAndReplaysItsLoggedDrive) {
    Settings settings = test::physicsSnow();
    VehicleSettings car = test::straightCar("car", -300.0f, 600.0f);
    car.player = true;
    settings.vehicles = {car};
    auto driven = made(settings);
    ASSERT_TRUE(driven);
    ASSERT_TRUE(driven->playerVehicle());
    driven->stepTo(1.0); // no input: it settles on its suspension and stays
    const glm::vec3 parked = driven->vehiclePositionCm(0);
    EXPECT_NEAR(parked.x, -300.0f, 1.0f);
    driven->setDriverInput({0.0f, 1.0f}); // full throttle
    driven->stepTo(3.0);
    EXPECT_GT(driven->vehiclePositionCm(0).x, parked.x + 150.0f);
    EXPECT_NEAR(driven->vehicleSpeedCmS(0), car.speedCmS, 0.1 * car.speedCmS);
    driven->setDriverInput({1.0f, 0.5f}); // half throttle, full right
    driven->stepTo(5.0);
    EXPECT_LT(driven->vehiclePositionCm(0).y, -20.0f) << "turned right (towards -Y)";
    EXPECT_EQ(driven->driverLog().size(), 600u); // one input per step, 5 s at 120 Hz
    // A new world given the log drives the same, bit for bit, whatever its current input.
    auto replay = made(settings);
    ASSERT_TRUE(replay);
    replay->setDriverLog(driven->driverLog());
    replay->setDriverInput({-1.0f, -1.0f});
    replay->stepTo(5.0);
    for (std::size_t k = 0; k < replay->poseCount(); ++k)
        EXPECT_TRUE(sameBits(replay->poseOf(k), driven->poseOf(k))) << "pose " << k;
}

} // namespace
} // namespace snowcap
