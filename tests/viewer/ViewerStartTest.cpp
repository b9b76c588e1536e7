// How the viewer (and render --ui) starts on a scenario: the cameras follow the player where a
// sim's region follows it, so world_walk's walker and trail stay in view; elsewhere they hold
// still.
#include "lab/session.hpp"
#include "viewer/viewer_frame.hpp"
#include "viewer/viewer_panels.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

Settings scenario(const std::string& name) {
    auto loaded = loadScenarioSettings(name, {});
    EXPECT_TRUE(std::holds_alternative<Settings>(loaded)) << name;
    return std::holds_alternative<Settings>(loaded) ? std::get<Settings>(loaded) : Settings{};
}

TEST(ViewerStart, CamerasFollowThePlayerWhereARegionFollowsIt) {
    EXPECT_TRUE(followsAtStart(scenario("world_walk")));
    EXPECT_TRUE(followsAtStart(scenario("follow_compare")));
    EXPECT_FALSE(followsAtStart(scenario("decay_compare")));
    EXPECT_FALSE(followsAtStart(scenario("press_release")));
}

TEST(ViewerStart, TheFirstRunHintFitsTheLab) {
    EXPECT_NE(firstRunHint(2).find("A (left) and B (right)"), std::string::npos);
    EXPECT_EQ(firstRunHint(4).find("A (left)"), std::string::npos);
    EXPECT_NE(firstRunHint(4).find("Each pane is one sim"), std::string::npos);
    for (int sims : {1, 2, 4})
        EXPECT_NE(firstRunHint(sims).find("Decay"), std::string::npos);
}

} // namespace
} // namespace snowcap
