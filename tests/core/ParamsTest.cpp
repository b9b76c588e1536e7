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
    expectDefaultsInRange(params::netParams());
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

TEST(ParamsWritten, ADeformerSnippetReadsBackAsTheSameDeformer) {
    // What the Scene panel copies out after a placement edit: only the keys off their defaults,
    // and pasted into a scenario it gives the deformer that was edited.
    DeformerSettings edited;
    params::applyDefaults(params::deformerParams(), edited);
    edited.name = "walker";
    edited.mesh = "assets/meshes/biped.glb";
    edited.scale = 0.6;
    edited.rotationDeg = {0.0f, 0.0f, 90.0f};
    edited.offsetCm = {0.0f, 0.0f, 2.5f};
    edited.upAxis = UpAxis::Y;
    edited.path = {{0.0, {10, 20, 0}}, {4.0, {200, 20, 0}}};
    const std::string snippet = params::deformerToml(edited);
    EXPECT_EQ(snippet.rfind("[[deformer]]", 0), 0u) << snippet;
    EXPECT_NE(snippet.find("scale = 0.6\n"), std::string::npos) << snippet; // not 0.59999...
    EXPECT_EQ(snippet.find("fit_height_cm"), std::string::npos) << "a default key: " << snippet;
    const Settings reread = loaded(loadSettingsFromText(snippet, "snippet.toml"));
    ASSERT_EQ(reread.deformers.size(), 1u);
    EXPECT_EQ(params::deformerToml(reread.deformers[0]), snippet);
    EXPECT_EQ(reread.deformers[0].upAxis, UpAxis::Y);
    EXPECT_EQ(reread.deformers[0].scale, 0.6);
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
