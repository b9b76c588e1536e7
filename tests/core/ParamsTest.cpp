// The parameter table: the files generated from it (config/default.toml, docs/parameters.md)
// match it, a default-constructed Settings holds its defaults, every key written out reads
// back the same, and every row's widget can show its range.

#include "core/params.hpp"

#include "TestSupport.hpp"
#include "core/config.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Every key with its value, as one text: two Settings are the same when these are.
std::string keys(const Settings& settings) {
    std::ostringstream text;
    text << params::toToml(settings);
    return text.str();
}

Settings loaded(std::variant<Settings, ConfigError> result) {
    if (const auto* error = std::get_if<ConfigError>(&result)) {
        ADD_FAILURE() << error->message;
        return {};
    }
    return std::get<Settings>(result);
}

// ---- the generated files -------------------------------------------------------------------

TEST(ParamsGenerated, DefaultTomlIsTheTable) {
    EXPECT_TRUE(readText(test::sourceDir() / "config/default.toml") == params::defaultToml())
        << "config/default.toml differs from the parameter table (src/core/params_table*.cpp); "
           "regenerate it: build/release/snowcap params --toml > config/default.toml";
}

TEST(ParamsGenerated, ParameterReferenceIsTheTable) {
    EXPECT_TRUE(readText(test::sourceDir() / "docs/parameters.md") == params::parameterMarkdown())
        << "docs/parameters.md differs from the parameter table (src/core/params_table*.cpp); "
           "regenerate it: build/release/snowcap params --markdown > docs/parameters.md";
}

// ---- one default per key -------------------------------------------------------------------

TEST(ParamsDefaults, EachSimHasItsOwnDecay) {
    const Settings defaults;
    EXPECT_EQ(defaults.sims[0].decay, 0.95);  // A recovers fast...
    EXPECT_EQ(defaults.sims[1].decay, 0.999); // ...B slowly: the product's comparison
    EXPECT_EQ(SimSettings{}.decay, 0.999);    // a sim on its own: the common default
}

TEST(ParamsDefaults, DefaultTomlLoadsToTheDefaultSettings) {
    const fs::path file = test::sourceDir() / "config/default.toml";
    EXPECT_EQ(keys(loaded(loadSettings({file}, {}))), keys(Settings{}));
    EXPECT_EQ(keys(loaded(loadSettings({}, {}))), keys(Settings{}));
}

TEST(ParamsDefaults, ListEntriesStartFromTheirRowsDefaults) {
    const Settings s = loaded(loadSettingsFromText(
        "[[deformer]]\nname = 'd'\npath = [[0, 0, 0, 0]]\n[[probe]]\nname = 'p'\nat_cm = [1, 2]\n",
        "entries.toml"));
    ASSERT_EQ(s.deformers.size(), 1u);
    EXPECT_EQ(s.deformers[0].clipIndex, -1);
    EXPECT_EQ(s.deformers[0].speedCmS, 100.0);
    EXPECT_EQ(s.deformers[0].sizeCm, glm::vec3(30.0f));
    EXPECT_EQ(s.deformers[0].pathMode, DeformerSettings::PathMode::Auto);
    EXPECT_EQ(s.deformers[0].contact, ContactType::Other);
}

// Defaults must be values the reader accepts; a sentinel says so in its doc.
bool inRange(const Range& range, const params::Value& value) {
    if (const auto* number = std::get_if<double>(&value))
        return range.holds(*number);
    if (const auto* integer = std::get_if<std::int64_t>(&value))
        return range.holds(double(*integer));
    if (const auto* list = std::get_if<std::vector<double>>(&value))
        for (double v : *list)
            if (!range.holds(v))
                return false;
    return true;
}

template <class S> void expectDefaultsInRange(const params::Section<S>& section) {
    for (const auto& param : section.params) {
        const std::string key = std::string(section.name) + "." + std::string(param.key);
        EXPECT_FALSE(param.doc.empty()) << key;
        if (param.key == "clip_index") // -1: no clip chosen by index
            continue;
        EXPECT_TRUE(inRange(param.range, param.def.value)) << key;
        for (const auto& [sim, value] : param.def.sims)
            EXPECT_TRUE(inRange(param.range, value)) << key << " (sim." << sim << ")";
    }
}

TEST(ParamsDefaults, EveryDefaultIsInItsRangeAndEveryKeyHasADoc) {
    expectDefaultsInRange(params::runParams());
    expectDefaultsInRange(params::snowParams());
    expectDefaultsInRange(params::captureParams());
    expectDefaultsInRange(params::simParams());
    expectDefaultsInRange(params::materialParams());
    expectDefaultsInRange(params::lookParams());
    expectDefaultsInRange(params::viewParams());
    expectDefaultsInRange(params::deformerParams());
    expectDefaultsInRange(params::probeParams());
    expectDefaultsInRange(params::physicsParams());
    expectDefaultsInRange(params::bodyParams());
    expectDefaultsInRange(params::soakParams());
    expectDefaultsInRange(params::snowpackParams());
    expectDefaultsInRange(params::weatherParams());
    expectDefaultsInRange(params::groundParams());
}

// ---- the table read and written ------------------------------------------------------------

// What stats.json's params hold reads back as the same settings: every key is written (list
// entries: the keys not at their default), in the form the reader takes.
TEST(ParamsWritten, EveryScenarioReadsBackFromItsKeys) {
    const fs::path root = test::sourceDir();
    for (const auto& entry : fs::directory_iterator(root / "config/scenarios")) {
        const Settings original =
            loaded(loadSettings({root / "config/default.toml", entry.path()}, {}));
        const std::string written = keys(original);
        const Settings reread = loaded(loadSettingsFromText(written, "written.toml"));
        EXPECT_EQ(keys(reread), written) << entry.path().filename();
    }
}

TEST(ParamsWritten, RangesAreQuotedInMessages) {
    auto result = loadSettingsFromText("[sim.b.material]\ntgl = 1.5\n", "x.toml");
    ASSERT_TRUE(std::holds_alternative<ConfigError>(result));
    EXPECT_EQ(std::get<ConfigError>(result).message,
              "x.toml:2:7: key 'sim.b.material.tgl': must be in [0, 1], got 1.5");
}

// A slider needs both ends; a combo an enum or a power of two; a colour three numbers.
template <class S> void expectWidgetsFit(const params::Section<S>& section) {
    using params::Widget;
    for (const auto& param : section.params) {
        const std::string key = std::string(section.name) + "." + std::string(param.key);
        const bool choice = std::holds_alternative<params::Choice<S>>(param.member);
        const bool powers = param.range.kind == Range::Kind::PowerOfTwo ||
                            param.range.kind == Range::Kind::ZeroOrPowerOfTwo;
        if (param.widget == Widget::Slider || param.widget == Widget::LogSlider)
            EXPECT_TRUE(param.range.bounded()) << key;
        if (param.widget == Widget::Combo)
            EXPECT_TRUE(choice || powers) << key;
        if (param.widget == Widget::Colour)
            EXPECT_TRUE(std::holds_alternative<glm::vec3 S::*>(param.member)) << key;
        if (param.widget == Widget::Checkbox)
            EXPECT_TRUE(std::holds_alternative<bool S::*>(param.member)) << key;
    }
}

TEST(ParamsWidgets, EveryWidgetCanShowItsRange) {
    expectWidgetsFit(params::snowParams());
    expectWidgetsFit(params::captureParams());
    expectWidgetsFit(params::simParams());
    expectWidgetsFit(params::materialParams());
    expectWidgetsFit(params::snowpackParams());
    expectWidgetsFit(params::lookParams());
    expectWidgetsFit(params::deformerParams());
    expectWidgetsFit(params::physicsParams());
    expectWidgetsFit(params::bodyParams());
    expectWidgetsFit(params::weatherParams());
    expectWidgetsFit(params::groundParams());
}

} // namespace
} // namespace snowcap
