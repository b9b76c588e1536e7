// How many sims a config makes: two by default, more when a later sim's table is given
// ([sim.c] in a file, or any --set sim.d.KEY), at most sim.h; sim.i is refused in one line.

#include "TestSupport.hpp"
#include "core/config.hpp"
#include "core/params.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

fs::path defaultToml() {
    return test::sourceDir() / "config" / "default.toml";
}

std::variant<Settings, ConfigError> load(const std::vector<std::string>& overrides) {
    return loadSettings({defaultToml()}, overrides);
}

TEST(SimCount, DefaultsAndTheShippedFileMakeTwo) {
    EXPECT_EQ(Settings{}.sims.size(), 2u);
    auto loaded = load({});
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded));
    EXPECT_EQ(std::get<Settings>(loaded).sims.size(), 2u);
    EXPECT_EQ(simName(0), "a");
    EXPECT_EQ(simName(kMaxSims - 1), "h");
}

TEST(SimCount, LaterSimsStartFromSimBsDefaults) {
    const std::string b = [] {
        std::ostringstream text;
        text << params::toToml(defaultSim(1));
        return text.str();
    }();
    EXPECT_EQ(defaultSim(0).decay, 0.95);
    for (int i = 2; i < kMaxSims; ++i) {
        std::ostringstream text;
        text << params::toToml(defaultSim(i));
        EXPECT_EQ(text.str(), b) << "sim." << simName(i);
    }
}

TEST(SimCount, ATableMakesItsSimAndEveryOneBefore) {
    // [sim.d] alone: a, b from the defaults, c with sim.b's defaults, d as given.
    auto loaded =
        loadSettingsFromText("[sim.d]\ndecay = 0.99\n[sim.d.material]\ntgl = 0.9\n", "ladder.toml");
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded)) << std::get<ConfigError>(loaded).message;
    const Settings& s = std::get<Settings>(loaded);
    ASSERT_EQ(s.sims.size(), 4u);
    EXPECT_EQ(s.sims[0].decay, 0.95);
    EXPECT_EQ(s.sims[1].decay, 0.999);
    EXPECT_EQ(s.sims[2].decay, 0.999); // c..h default as b
    EXPECT_EQ(s.sims[3].decay, 0.99);
    EXPECT_EQ(s.sims[3].material.tgl, 0.9);
    EXPECT_EQ(s.sims[2].material.tgl, s.sims[1].material.tgl);
}

TEST(SimCount, AnOverrideMakesSims) {
    auto loaded = load({"sim.d.decay=0.995", "sim.c.accumulate=max"});
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded)) << std::get<ConfigError>(loaded).message;
    const Settings& s = std::get<Settings>(loaded);
    ASSERT_EQ(s.sims.size(), 4u);
    EXPECT_EQ(s.sims[2].accumulate, AccumulateMode::Max);
    EXPECT_EQ(s.sims[3].decay, 0.995);
    EXPECT_EQ(s.sims[3].accumulate, AccumulateMode::Add);

    auto eight = load({"sim.h.decay=0.9"});
    ASSERT_TRUE(std::holds_alternative<Settings>(eight));
    EXPECT_EQ(std::get<Settings>(eight).sims.size(), std::size_t(kMaxSims));
}

TEST(SimCount, ANinthSimIsRefusedInOneLineNamingTheKey) {
    auto flag = load({"sim.i.decay=0.9"});
    ASSERT_TRUE(std::holds_alternative<ConfigError>(flag));
    EXPECT_EQ(std::get<ConfigError>(flag).message,
              "--set sim.i.decay=0.9: unknown key 'sim.i' (the sims are sim.a .. sim.h)");

    auto file = loadSettingsFromText("[run]\nfps = 30\n\n[sim.i]\ndecay = 0.9\n", "x.toml");
    ASSERT_TRUE(std::holds_alternative<ConfigError>(file));
    EXPECT_EQ(std::get<ConfigError>(file).message,
              "x.toml:4:6: unknown key 'sim.i' (the sims are sim.a .. sim.h)");

    // A key of a sim that exists is still checked as before.
    auto value = load({"sim.c.decay=1.5"});
    ASSERT_TRUE(std::holds_alternative<ConfigError>(value));
    EXPECT_EQ(std::get<ConfigError>(value).message,
              "--set sim.c.decay=1.5: key 'sim.c.decay': must be in (0, 1], got 1.5");
}

TEST(SimCount, EverySimReadsBackFromItsToml) {
    auto loaded = load({"sim.d.decay=0.995", "sim.c.format=rgba16f"});
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded));
    const Settings& s = std::get<Settings>(loaded);
    std::ostringstream text;
    text << params::toToml(s);
    auto back = loadSettingsFromText(text.str(), "stats.toml");
    ASSERT_TRUE(std::holds_alternative<Settings>(back)) << std::get<ConfigError>(back).message;
    const Settings& read = std::get<Settings>(back);
    ASSERT_EQ(read.sims.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(read.sims[i].decay, s.sims[i].decay) << i;
        EXPECT_EQ(read.sims[i].format, s.sims[i].format) << i;
    }
}

} // namespace
} // namespace snowcap
