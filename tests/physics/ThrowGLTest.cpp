// The viewer's throw on the driver (Lab::throwBody): a snowball thrown into a running scenario
// that had no physics at all becomes a body launched at the lab's time, lands where it was aimed
// and leaves its print there, and nothing was pressed before it.
#include "core/snow_math.hpp"
#include "lab/run_stats.hpp"
#include "physics/PhysicsLabSupport.hpp"
#include "physics/PhysicsTestSupport.hpp"
#include "physics/body_list.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(ThrowGL, AThrownSnowballLandsWhereItWasAimedAndPressesThere) {
    Settings settings = test::physicsSnow();
    settings.snow.resolution = 128;
    settings.snow.orthoWidthCm = 256.0; // 2 cm texels over [-128, 128] cm
    settings.snow.regionCentreCm = {0.0, 0.0};
    auto lab = test::makeLab(settings, "throw");
    ASSERT_TRUE(lab);
    EXPECT_FALSE(lab->physics()); // no bodies, no vehicles: no world
    test::run(*lab, 1.0);
    const glm::vec3 target(40.0f, 30.0f, float(settings.snow.surfaceZCm));
    const BodySettings ball = snowballToward({-100.0f, 0.0f, 120.0f}, target, 600.0, 6.0,
                                             settings.physics.gravityCmS2, lab->timeS());
    ASSERT_EQ(lab->throwBody(ball), std::nullopt);
    ASSERT_TRUE(lab->physics());
    ASSERT_EQ(lab->settings().bodies.size(), 1u);
    EXPECT_DOUBLE_EQ(lab->settings().bodies[0].launchS, 1.0);
    const ImageFloat before = readPersistent(lab->field().sim(1));
    float pressedBefore = 0.0f;
    for (float v : before.values)
        pressedBefore = std::max(pressedBefore, v);
    EXPECT_EQ(pressedBefore, 0.0f) << "nothing pressed before the throw";
    // Go on from where the clock stood: the new world steps from 0 to now, then flies the ball.
    const double dt = lab->fixedDtS();
    for (int i = 1; i <= 90; ++i)
        lab->stepTo(1.0 + i * dt, dt);
    const glm::vec3 at = lab->physics()->positionCm(0);
    RecordProperty("ball_at", std::to_string(at.x) + ", " + std::to_string(at.y));
    EXPECT_LT(at.z, target.z) << "in the snow";
    EXPECT_GE(at.x, target.x - 8.0f) << "it got there (and may slide on through the snow)";
    // Sim B (decay 0.999) keeps the print: it starts at the target, where the ball's centre
    // meets the snow top (a few cm deep there), deepens as the ball goes on down to the ground
    // along its flight, and nothing lies on the way there (it flew over the snow).
    const ImageFloat buffer = readPersistent(lab->field().sim(1));
    const Region& region = lab->field().sim(1).region();
    float nearest = 0.0f, deepest = 0.0f;
    for (int y = 0; y < buffer.height; ++y)
        for (int x = 0; x < buffer.width; ++x) {
            const glm::dvec2 world = texelCentreToWorld({x, y}, region);
            if (glm::length(world - glm::dvec2(target.x, target.y)) < 12.0)
                nearest = std::max(nearest, buffer.at(x, y));
            deepest = std::max(deepest, buffer.at(x, y));
            if (world.x < target.x - 14.0)
                ASSERT_EQ(buffer.at(x, y), 0.0f)
                    << "pressed before the target at " << x << ", " << y;
        }
    EXPECT_GT(nearest, 0.05f);
    EXPECT_GT(deepest, 0.5f);
}

} // namespace
} // namespace snowcap
