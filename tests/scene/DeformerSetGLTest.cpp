// The player through the DeformerSet the viewer holds: driven by input in a headless context,
// its instance (what the capture and colour passes draw) moves and turns with it.
#include "GLTestSupport.hpp"
#include "render/deformer_set.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

DeformerSettings sphere(const std::string& name, glm::vec3 at, bool player) {
    DeformerSettings settings;
    settings.name = name;
    settings.sizeCm = glm::vec3(10.0f);
    settings.path = {{0.0, at}, {2.0, at + glm::vec3(200, 0, 0)}};
    settings.player = player;
    settings.speedCmS = 50.0;
    return settings;
}

TEST(DeformerSetPlayer, DriveMovesThePlayersInstanceOnly) {
    std::vector<Deformer> deformers;
    deformers.push_back(makeDeformer(sphere("walker", {0, 0, 0}, false), -30.0));
    deformers.push_back(makeDeformer(sphere("player", {0, 100, 0}, true), -30.0));
    DeformerSet set(std::move(deformers));
    ASSERT_TRUE(set.hasPlayer());
    ASSERT_TRUE(set.playerPositionCm());
    EXPECT_EQ(*set.playerPositionCm(), glm::vec3(0, 100, -30));

    for (int frame = 0; frame < 30; ++frame)
        set.drivePlayer({0.0f, -1.0f}, 1.0 / 30.0); // one second south at 50 cm/s
    const auto& instances = set.instancesAt(1.0);
    ASSERT_EQ(instances.size(), 2u);
    EXPECT_NEAR(instances[0].model[3].x, 100.0, 1e-3); // the path follower at t = 1
    EXPECT_NEAR(instances[1].model[3].y, 50.0, 1e-3);  // the player, 50 cm south
    EXPECT_NEAR(instances[1].model[3].x, 0.0, 1e-3);
    EXPECT_NEAR((instances[1].model * glm::vec4(1, 0, 0, 0)).y, -1.0, 1e-5); // facing south
    EXPECT_NEAR(instances[1].worldBounds.min.z, -30.0, 1e-3);
    EXPECT_NEAR(instances[1].worldBounds.max.y, 60.0, 1e-3);
    EXPECT_NEAR(set.playerPositionCm()->y, 50.0, 1e-3);

    set.resetPlayer();
    EXPECT_EQ(*set.playerPositionCm(), glm::vec3(0, 100, -30));
}

TEST(DeformerSetPlayer, WithoutAPlayerDrivingDoesNothing) {
    std::vector<Deformer> deformers;
    deformers.push_back(makeDeformer(sphere("walker", {0, 0, 0}, false), -30.0));
    DeformerSet set(std::move(deformers));
    EXPECT_FALSE(set.hasPlayer());
    EXPECT_FALSE(set.playerPositionCm());
    set.drivePlayer({1.0f, 0.0f}, 1.0);
    EXPECT_NEAR(set.instancesAt(0.0)[0].model[3].x, 0.0, 1e-6);
}

} // namespace
} // namespace snowcap
