// The labels of a comparison (core/sim_label.hpp) name every key in which the sims differ, from
// the parameter table, and a snowpack sim by its own figures.
#include "TestSupport.hpp"
#include "core/config.hpp"
#include "core/sim_label.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

std::vector<SimSettings> scenarioSims(const std::string& name) {
    auto loaded = loadSettings({test::sourceDir() / "config/default.toml",
                                test::sourceDir() / "config/scenarios" / (name + ".toml")},
                               {});
    EXPECT_TRUE(std::holds_alternative<Settings>(loaded)) << std::get<ConfigError>(loaded).message;
    return std::holds_alternative<Settings>(loaded) ? std::get<Settings>(loaded).sims
                                                    : std::vector<SimSettings>{};
}

// Both panes said "decay 0.9995 delta_time": the one switch that differs must be on them.
TEST(SimLabel, TheSwitchThatDiffersIsNamed) {
    const auto rims = scenarioSims("rims_compare");
    ASSERT_EQ(rims.size(), 2u);
    EXPECT_EQ(simLabel(rims, 0), "decay 0.9995 (delta_time), rims off");
    EXPECT_EQ(simLabel(rims, 1), "decay 0.9995 (delta_time), rims on");
    const auto walk = scenarioSims("world_walk");
    ASSERT_EQ(walk.size(), 2u);
    EXPECT_EQ(simLabel(walk, 0), "decay 0.9998 (delta_time), persistence window");
    EXPECT_EQ(simLabel(walk, 1), "decay 0.9998 (delta_time), persistence world");
    // The decay is in the summary, not repeated as a difference.
    const auto decay = scenarioSims("decay_compare");
    EXPECT_EQ(simLabel(decay, 0).find("decay", 1), std::string::npos) << simLabel(decay, 0);
}

TEST(SimLabel, EveryDifferingKeyInTableOrder) {
    std::vector<SimSettings> sims{defaultSim(0), defaultSim(1)};
    sims[1].format = BufferFormat::RGBA16F;
    sims[1].normals = NormalMode::Sobel;
    sims[1].material.rtBlurDistance = 0.004;
    const std::vector<std::string> differences = simDifferences(sims[1], sims[0]);
    ASSERT_EQ(differences.size(), 3u);
    EXPECT_EQ(differences[0], "format rgba16f");
    EXPECT_EQ(differences[1], "normals sobel");
    EXPECT_EQ(differences[2], "material.rt_blur_distance 0.004");
    // Sim C (and later) is compared with A; one sim alone has nothing to differ from.
    sims.push_back(defaultSim(2));
    sims[2].rims = RimMode::On;
    EXPECT_EQ(comparedSim(2, 3), 0);
    EXPECT_NE(simLabel(sims, 2).find("rims on"), std::string::npos);
    EXPECT_EQ(comparedSim(0, 1), -1);
    EXPECT_EQ(simLabel(std::span(sims).first(1), 0), "decay 0.95 (delta_time)");
}

TEST(SimLabel, ASnowpackSaysSnowpackWithItsFigures) {
    const auto sims = scenarioSims("snowpack_compare");
    ASSERT_EQ(sims.size(), 2u);
    const std::string label = simLabel(sims, 1);
    EXPECT_EQ(label.rfind("snowpack 30 cm at 120 kg/m3", 0), 0u) << label;
    EXPECT_EQ(label.find("decay"), std::string::npos) << label;
    EXPECT_EQ(simLabel(sims, 0).rfind("decay ", 0), 0u) << simLabel(sims, 0);
}

} // namespace
} // namespace snowcap
