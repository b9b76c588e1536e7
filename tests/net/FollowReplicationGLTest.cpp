// Following windows in a session, end to end in one process (net/net_cases.hpp's LoopbackPair:
// every message encoded and decoded): follow_compare's boot walks far across both sims'
// regions, A following it naively (a bilinear resample each step), B snapped to whole texels.
// A client that joins late, mid-walk, places its windows where the server's stand and ends
// every step with the server's texels and window centres, in each mode. And what a session
// cannot replicate is refused with one line naming the key.
#include "GLTestSupport.hpp"
#include "core/config.hpp"
#include "net/net_cases.hpp"
#include "net/tiles.hpp"

#include <gtest/gtest.h>

namespace snowcap::net {
namespace {

std::unique_ptr<LoopbackPair> followPair(NetMode mode) {
    // 64^2 over 10.24 m: 16 cm a texel; the boot walks 2.5 cm a step, so B's window jumps a
    // texel every six or seven steps and A's moves every step.
    auto loaded = loadScenarioSettings(
        "follow_compare", {"snow.resolution=64", "net.tile_texels=16", "net.checksum_every=5"});
    if (auto* error = std::get_if<ConfigError>(&loaded)) {
        ADD_FAILURE() << error->message;
        return nullptr;
    }
    Settings settings = std::get<Settings>(loaded);
    settings.net.mode = mode;
    settings.snow.idleSkip = false; // as a session runs
    if (auto refusal = replicationRefusal(settings)) {
        ADD_FAILURE() << *refusal;
        return nullptr;
    }
    auto created = LoopbackPair::create(settings, "follow_compare", test::glInfo().renderer);
    if (auto* error = std::get_if<std::string>(&created)) {
        ADD_FAILURE() << *error;
        return nullptr;
    }
    return std::move(std::get<0>(created));
}

glm::dvec2 centreOf(Lab& lab, int sim) {
    return lab.field().sim(sim).region().centreCm;
}

void runsLikeTheServer(NetMode mode, std::uint32_t joinAt) {
    auto pair = followPair(mode);
    ASSERT_TRUE(pair);
    const glm::dvec2 start[] = {centreOf(pair->server(), 0), centreOf(pair->server(), 1)};
    while (pair->steps() < joinAt)
        pair->stepAlone();
    ASSERT_FALSE(pair->join());
    for (int sim = 0; sim < 2; ++sim)
        EXPECT_EQ(centreOf(pair->client(), sim), centreOf(pair->server(), sim)) << "sim " << sim;
    EXPECT_TRUE(pair->identical());
    for (int step = 0; step < 60; ++step) {
        ASSERT_FALSE(pair->step());
        for (int sim = 0; sim < 2; ++sim)
            ASSERT_EQ(centreOf(pair->client(), sim), centreOf(pair->server(), sim))
                << "sim " << sim << " at step " << pair->steps();
        ASSERT_TRUE(pair->identical()) << "at step " << pair->steps();
    }
    EXPECT_DOUBLE_EQ(pair->client().timeS(), pair->steps() * pair->server().fixedDtS());
    // The windows did walk: both far from where they started, B by whole texels (16 cm).
    for (int sim = 0; sim < 2; ++sim)
        EXPECT_GT(glm::length(centreOf(pair->server(), sim) - start[sim]), 100.0) << sim;
    const glm::dvec2 texels = (centreOf(pair->server(), 1) - start[1]) / 16.0;
    EXPECT_EQ(texels, glm::round(texels));
    EXPECT_NE(centreOf(pair->server(), 0), centreOf(pair->server(), 1));
    EXPECT_EQ(pair->replica().counts().windowMismatches, 0);
    EXPECT_EQ(pair->replica().counts().divergentTiles, 0);
    if (mode != NetMode::State)
        EXPECT_GT(pair->replica().counts().checkedTiles, 0);
}

TEST(FollowReplication, StateFromTheStart) {
    runsLikeTheServer(NetMode::State, 0);
}
TEST(FollowReplication, StateJoiningLate) {
    runsLikeTheServer(NetMode::State, 47);
}
TEST(FollowReplication, InputsFromTheStart) {
    runsLikeTheServer(NetMode::Inputs, 0);
}
TEST(FollowReplication, InputsJoiningLate) {
    runsLikeTheServer(NetMode::Inputs, 47);
}
TEST(FollowReplication, HybridJoiningLate) {
    runsLikeTheServer(NetMode::Hybrid, 47);
}

TEST(FollowReplication, WhatCannotReplicateIsRefusedWithTheKey) {
    auto refusalOf = [](const std::string& scenario, const std::vector<std::string>& overrides) {
        auto loaded = loadScenarioSettings(scenario, overrides);
        if (auto* error = std::get_if<ConfigError>(&loaded))
            return "load: " + error->message;
        return replicationRefusal(std::get<Settings>(loaded)).value_or("accepted");
    };
    EXPECT_EQ(refusalOf("follow_compare", {}), "accepted");
    EXPECT_EQ(refusalOf("press_release", {}), "accepted");
    EXPECT_NE(refusalOf("world_walk", {}).find("persistence'"), std::string::npos)
        << refusalOf("world_walk", {});
    EXPECT_NE(refusalOf("snowpack_compare", {}).find(".model'"), std::string::npos)
        << refusalOf("snowpack_compare", {});
    // Two observers give a follow_snapped r16f sim two windows.
    const std::string two = refusalOf(
        "decay_compare", {"sim.a.region=\"follow_snapped\"", "snow.follow=[\"biped\", \"boot\"]"});
    EXPECT_NE(two.find("snow.follow': 2 observers"), std::string::npos) << two;
}

} // namespace
} // namespace snowcap::net
