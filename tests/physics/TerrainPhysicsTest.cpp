// Bullet's ground on a terrain (physics_world.cpp's heightfield): a ball released on a slope
// rolls down it through the snow, its bottom in the snow at every step (a trail without gaps),
// and a vehicle climbs a 15 degree slope along its path, wheels on the ground under the snow.
#include "physics/PhysicsTestSupport.hpp"
#include "physics/body_list.hpp"
#include "physics/physics_world.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <memory>
#include <numbers>

namespace snowcap {
namespace {

double tanDeg(double degrees) {
    return std::tan(degrees * std::numbers::pi / 180.0);
}

// A plane rising `slopeDeg` towards +X through height 0 at x = 0: seven columns 20 m apart
// (bilinear heights and Bullet's triangles of a plane are the plane, and the normal's central
// differences a cell apart are exact within 40 m of the middle).
std::shared_ptr<const HeightField> ramp(double slopeDeg) {
    std::vector<float> heights;
    for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 7; ++column)
            heights.push_back(float((column - 3) * 20.0 * tanDeg(slopeDeg)));
    return std::make_shared<const HeightField>(7, 3, heights, glm::dvec2(0.0),
                                               glm::dvec2(14000.0, 6000.0));
}

std::unique_ptr<PhysicsWorld> madeOn(const Settings& settings,
                                     std::shared_ptr<const HeightField> terrain) {
    auto placed = placeBodies(settings.bodies, {}, settings.import);
    if (auto* error = std::get_if<std::string>(&placed)) {
        ADD_FAILURE() << *error;
        return nullptr;
    }
    auto created = PhysicsWorld::create(
        settings, std::move(std::get<std::vector<BodySpec>>(placed)), std::move(terrain));
    if (auto* error = std::get_if<std::string>(&created)) {
        ADD_FAILURE() << *error;
        return nullptr;
    }
    return std::move(std::get<0>(created));
}

TEST(TerrainPhysics, ABallReleasedOnASlopeRollsDownLeavingATrailWithoutGaps) {
    // 10 cm of snow on a 20 degree slope; a ball 50 cm across released at rest 1 cm above the
    // ground under the snow.
    Settings settings = test::physicsSnow();
    settings.snow.depthCm = 10.0;
    constexpr float radius = 25.0f;
    const auto terrain = ramp(20.0);
    const double ground = -10.0; // surface_z_cm - depth_cm, where the terrain's height is 0
    const double startZ = ground + (radius + 1.0) / std::cos(20.0 * std::numbers::pi / 180.0);
    BodySettings ball = test::sphereBody("ball", {0.0f, 0.0f, float(startZ)}, radius);
    ball.restitution = 0.0;
    settings.bodies = {ball};
    auto world = madeOn(settings, terrain);
    ASSERT_TRUE(world);
    // Step by step for 3 s: once down, its bottom stays in the snow (below the top under it)
    // and it moves less than its own diameter a step: the print it presses is one trail.
    const double step = world->stepS();
    bool landed = false;
    int inSnowSteps = 0, steps = 0;
    double longestStepCm = 0.0;
    glm::vec3 last = world->positionCm(0);
    for (int k = 1; k * step <= 3.0 + 1e-9; ++k) {
        world->stepTo(k * step);
        const glm::vec3 at = world->positionCm(0);
        const double bottom = at.z - radius;
        const double top = 0.0 + terrain->heightCm(at.x, at.y);
        landed |= bottom < top;
        if (landed) {
            ++steps;
            inSnowSteps += bottom < top;
            longestStepCm = std::max(longestStepCm, double(glm::length(at - last)));
        }
        last = at;
    }
    const glm::vec3 end = world->positionCm(0);
    std::cout << "ball on 20 deg: from (0, 0, " << startZ << ") to (" << end.x << ", " << end.y
              << ", " << end.z << ") cm in 3 s\n";
    EXPECT_TRUE(landed);
    EXPECT_EQ(inSnowSteps, steps); // never out of the snow once in it: no gap in the trail
    EXPECT_LT(longestStepCm, 2.0 * radius);
    EXPECT_LT(end.x, -100.0f);                       // downhill (the slope rises towards +X)
    EXPECT_LT(end.z, startZ - 100.0 * tanDeg(20.0)); // and lower than it started
    // Down the fall line, within 2 % of the way (the sphere meets Bullet's triangles on their
    // diagonals, which nudges it sideways).
    EXPECT_LT(std::abs(end.y), 0.02f * std::abs(end.x));
    // Rolling on the ground under the snow: its centre one radius off the slope.
    const double offSlope = (end.z - (ground + terrain->heightCm(end.x, end.y))) *
                            std::cos(20.0 * std::numbers::pi / 180.0);
    EXPECT_NEAR(offSlope, radius, 1.0);
}

TEST(TerrainPhysics, AVehicleClimbsA15DegreeSlopeOnItsPath) {
    Settings settings = test::physicsSnow();
    settings.vehicles = {test::straightCar("car", -300.0f, 600.0f)};
    const auto terrain = ramp(15.0);
    auto world = madeOn(settings, terrain);
    ASSERT_TRUE(world);
    const glm::vec3 start = world->vehiclePositionCm(0);
    world->stepTo(12.0);
    const glm::vec3 end = world->vehiclePositionCm(0);
    std::cout << "car on 15 deg: from (" << start.x << ", " << start.z << ") to (" << end.x << ", "
              << end.z << ") cm, speed " << world->vehicleSpeedCmS(0) << " cm/s\n";
    // At its path's end up the slope: the controller plans its braking for level ground, so
    // uphill (gravity braking too) it stops up to 30 cm short (on the level: 5 cm,
    // Vehicle.StopsAtItsPathsEnd).
    EXPECT_NEAR(end.x, 600.0f, 30.0f);
    EXPECT_NEAR(end.y, 0.0f, 2.0f);
    EXPECT_GT(end.x - start.x, 850.0f);
    EXPECT_NEAR(end.z - start.z, (end.x - start.x) * tanDeg(15.0), 2.0); // up the slope
    // Square to the slope but for the springs: the downhill axle carries more of the weight,
    // so the chassis pitches a little more than the slope; its wheels on the ground.
    const glm::mat4 chassis = world->poseOf(0);
    const glm::dvec3 normal = terrain->normal(end.x, end.y);
    const double offSlopeDeg =
        std::acos(glm::dot(glm::dvec3(glm::vec3(chassis[2])), normal)) * 180.0 / std::numbers::pi;
    std::cout << "chassis " << offSlopeDeg << " deg off the slope's normal\n";
    EXPECT_LT(offSlopeDeg, 4.0);
    for (int w = 0; w < kVehicleWheels; ++w) {
        SCOPED_TRACE(w);
        const glm::vec3 hub = world->poseOf(1 + std::size_t(w))[3];
        const double groundThere = -30.0 + terrain->heightCm(hub.x, hub.y);
        // The hub one radius off the slope (measured square to it).
        EXPECT_NEAR((hub.z - groundThere) * std::cos(15.0 * std::numbers::pi / 180.0), 20.0, 1.0);
    }
    // It sank through the snow to the ground: 30 cm below the top under each wheel.
    EXPECT_NEAR(world->report().vehicleReports[0].meanSinkageCm, 30.0, 1.5);
}

} // namespace
} // namespace snowcap
