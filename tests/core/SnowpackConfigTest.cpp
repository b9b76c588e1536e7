// sim.X.model and sim.X.snowpack in the reader: defaults, and a bad key or value in one line.
#include "core/config.hpp"

#include <gtest/gtest.h>
#include <string>
#include <variant>

namespace snowcap {
namespace {

std::string errorOf(const std::string& toml) {
    auto result = loadSettingsFromText(toml, "x.toml");
    if (auto* error = std::get_if<ConfigError>(&result))
        return error->message;
    return "(loaded)";
}

TEST(SnowpackConfig, DecayByDefaultWithTheTablesColumn) {
    const Settings s;
    for (const SimSettings& sim : s.sims) {
        EXPECT_EQ(sim.model, SimModel::Decay);
        EXPECT_EQ(sim.snowpack.depthCm, 30.0);
        EXPECT_EQ(sim.snowpack.densityKgM3, 120.0);
        EXPECT_EQ(sim.snowpack.maxDensityKgM3, 450.0);
    }
    auto loaded = loadSettingsFromText(
        "[sim.b]\nmodel = 'snowpack'\n[sim.b.snowpack]\ndepth_cm = 12\n", "x.toml");
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded));
    const Settings& read = std::get<Settings>(loaded);
    EXPECT_EQ(read.sims[1].model, SimModel::Snowpack);
    EXPECT_EQ(read.sims[1].snowpack.depthCm, 12.0);
    EXPECT_EQ(read.sims[0].model, SimModel::Decay);
}

TEST(SnowpackConfig, BadKeysAndValuesAreOneLine) {
    EXPECT_EQ(errorOf("[sim.b]\nmodel = 'snow'\n"),
              "x.toml:2:9: key 'sim.b.model': must be 'decay' or 'snowpack', got 'snow'");
    EXPECT_EQ(errorOf("[sim.b.snowpack]\nmax_density_kg_m3 = 3000\n"),
              "x.toml:2:21: key 'sim.b.snowpack.max_density_kg_m3': must be in [100, 2200], got "
              "3000");
    EXPECT_EQ(errorOf("[sim.a.snowpack]\ndepth = 30\n"),
              "x.toml:2:1: unknown key 'sim.a.snowpack.depth'");
}

} // namespace
} // namespace snowcap
