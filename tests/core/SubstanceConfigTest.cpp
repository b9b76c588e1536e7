// sim.X.snowpack.substance: the presets, how they meet keys given in a file or a --set, and a
// bad value in one line naming the key.
#include "TestSupport.hpp"
#include "core/config.hpp"
#include "core/substance.hpp"

#include <gtest/gtest.h>
#include <string>
#include <variant>

namespace snowcap {
namespace {

Settings loaded(const std::string& toml) {
    auto result = loadSettingsFromText(toml, "x.toml");
    if (auto* error = std::get_if<ConfigError>(&result))
        ADD_FAILURE() << error->message;
    return std::holds_alternative<Settings>(result) ? std::get<Settings>(result) : Settings{};
}

// The scenario on top of config/default.toml, as `render` reads it.
std::variant<Settings, ConfigError> withDefaults(const std::string& scenario,
                                                 const std::vector<std::string>& overrides) {
    const auto dir = test::scratchDir();
    test::writeText(dir / "scenario.toml", scenario);
    return loadSettings({test::sourceDir() / "config/default.toml", dir / "scenario.toml"},
                        overrides);
}

TEST(SubstanceConfig, SnowIsTheTablesKeysAndSandAndMudArePresets) {
    const SnowpackSettings table;
    EXPECT_EQ(table.substance, Substance::Snow);
    EXPECT_TRUE(substancePreset(Substance::Snow).empty());
    SnowpackSettings snow = table;
    applySubstance(snow, Substance::Snow);
    EXPECT_EQ(snow.densityKgM3, table.densityKgM3);
    EXPECT_EQ(snow.driftThresholdMS, 0.0);

    const SnowpackSettings sand =
        loaded("[sim.b]\nmodel = 'snowpack'\n[sim.b.snowpack]\nsubstance = 'sand'\n")
            .sims[1]
            .snowpack;
    EXPECT_EQ(sand.substance, Substance::Sand);
    EXPECT_EQ(sand.densityKgM3, 1600.0);
    EXPECT_EQ(sand.maxDensityKgM3, 1680.0);
    EXPECT_EQ(sand.reposeFreshDeg, 34.0);
    EXPECT_EQ(sand.reposeDenseDeg, 34.0);
    EXPECT_EQ(sand.settleTimeScale, 0.0);
    EXPECT_EQ(sand.meltTemperatureFactor, 0.0);
    EXPECT_EQ(sand.meltRadiationFactor, 0.0);
    EXPECT_EQ(sand.driftThresholdMS, 0.2);
    EXPECT_EQ(sand.depthCm, table.depthCm); // not a key of the preset

    const SnowpackSettings mud = loaded("[sim.c.snowpack]\nsubstance = 'mud'\n").sims[2].snowpack;
    EXPECT_EQ(mud.densityKgM3, 1760.0);
    EXPECT_EQ(mud.reposeDenseDeg, 89.0);
    EXPECT_EQ(mud.slumpRateHz, 10.0);
    EXPECT_EQ(mud.drainPerH, 0.05);
    EXPECT_EQ(mud.driftThresholdMS, 10.0);
    EXPECT_EQ(mud.meltTemperatureFactor, 0.0);
}

TEST(SubstanceConfig, KeysGivenInTheFileOrASetWinOverThePreset) {
    // In the same table, before or after the substance (TOML tables are unordered).
    const SnowpackSettings sand = loaded("[sim.b.snowpack]\ndensity_kg_m3 = 1500\n"
                                         "substance = 'sand'\nrepose_dense_deg = 30\n")
                                      .sims[1]
                                      .snowpack;
    EXPECT_EQ(sand.densityKgM3, 1500.0);
    EXPECT_EQ(sand.reposeDenseDeg, 30.0);
    EXPECT_EQ(sand.reposeFreshDeg, 34.0); // the preset's
    EXPECT_EQ(sand.maxDensityKgM3, 1680.0);

    // On top of config/default.toml (which writes every key at snow's value): the defaults
    // file's keys are not keys given, the scenario's and the --set's are.
    auto read = withDefaults("[sim.b]\nmodel = 'snowpack'\n[sim.b.snowpack]\nsubstance = "
                             "'sand'\nmax_density_kg_m3 = 1700\n",
                             {"sim.b.snowpack.repose_fresh_deg=31"});
    ASSERT_TRUE(std::holds_alternative<Settings>(read)) << std::get<ConfigError>(read).message;
    const SnowpackSettings& b = std::get<Settings>(read).sims[1].snowpack;
    EXPECT_EQ(b.densityKgM3, 1600.0);    // the preset, not default.toml's 120
    EXPECT_EQ(b.maxDensityKgM3, 1700.0); // the scenario's
    EXPECT_EQ(b.reposeFreshDeg, 31.0);   // the --set's
    EXPECT_EQ(b.reposeDenseDeg, 34.0);   // the preset
    EXPECT_EQ(std::get<Settings>(read).sims[0].snowpack.densityKgM3, 120.0); // sim.a: snow

    // The substance itself by --set: the scenario's own keys still win.
    read =
        withDefaults("[sim.b.snowpack]\ndensity_kg_m3 = 900\n", {"sim.b.snowpack.substance=mud"});
    ASSERT_TRUE(std::holds_alternative<Settings>(read)) << std::get<ConfigError>(read).message;
    const SnowpackSettings& mud = std::get<Settings>(read).sims[1].snowpack;
    EXPECT_EQ(mud.substance, Substance::Mud);
    EXPECT_EQ(mud.densityKgM3, 900.0);
    EXPECT_EQ(mud.reposeDenseDeg, 89.0);

    // Snow on top of default.toml is the table, bit for bit.
    read = withDefaults("[sim.b.snowpack]\nsubstance = 'snow'\n", {});
    ASSERT_TRUE(std::holds_alternative<Settings>(read));
    EXPECT_EQ(std::get<Settings>(read).sims[1].snowpack.densityKgM3, 120.0);
    EXPECT_EQ(std::get<Settings>(read).sims[1].snowpack.settleTimeScale, 1.0);
}

TEST(SubstanceConfig, ABadSubstanceIsOneLineNamingTheKey) {
    auto result = loadSettingsFromText("[sim.b.snowpack]\nsubstance = 'ash'\n", "x.toml");
    ASSERT_TRUE(std::holds_alternative<ConfigError>(result));
    EXPECT_EQ(std::get<ConfigError>(result).message,
              "x.toml:2:13: key 'sim.b.snowpack.substance': must be 'snow', 'mud' or 'sand', "
              "got 'ash'");
    result = loadSettingsFromText("[sim.b.snowpack]\nsubstance = 3\n", "x.toml");
    ASSERT_TRUE(std::holds_alternative<ConfigError>(result));
    EXPECT_EQ(std::get<ConfigError>(result).message,
              "x.toml:2:13: key 'sim.b.snowpack.substance': expected a string, got integer");
    auto flagged = withDefaults("", {"sim.b.snowpack.substance=mudd"});
    ASSERT_TRUE(std::holds_alternative<ConfigError>(flagged));
    EXPECT_EQ(std::get<ConfigError>(flagged).message,
              "--set sim.b.snowpack.substance=mudd: key 'sim.b.snowpack.substance': must be "
              "'snow', 'mud' or 'sand', got 'mudd'");
}

} // namespace
} // namespace snowcap
