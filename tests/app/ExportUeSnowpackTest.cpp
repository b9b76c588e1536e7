// The Unreal card of a snowpack sim (app/export_ue_snowpack.hpp): its formats and sizes are the
// state's, its passes are those of a (tiled) step in their order, its slump count is the sim's
// clock at the run's rate, and a bench report's snowpack timings are copied, not invented.
#include "app/export_ue_snowpack.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

using nlohmann::json;

Settings snowpackSettings() {
    Settings settings;
    settings.snow.resolution = 512;
    settings.snow.orthoWidthCm = 1024.0;
    settings.run.fps = 60.0;
    settings.sims[1].model = SimModel::Snowpack;
    settings.sims[1].snowpack.maxDensityKgM3 = 400.0;
    return settings;
}

json parsedCard(const Settings& settings, const json& bench = json()) {
    return json::parse(ueSnowpackCard(settings, 1, "test", {}, bench).dump(2));
}

TEST(ExportUeSnowpack, FormatsPassesAndValuesAreTheSims) {
    const json card = parsedCard(snowpackSettings());
    EXPECT_EQ(card["model"], "snowpack");
    EXPECT_EQ(card["sim"], "b");
    EXPECT_EQ(card["resolution"]["texels"], 512);
    EXPECT_EQ(card["resolution"]["texel_cm"], 2.0);
    // The state pair is RGBA32F (16 bytes a texel); the three plough buffers a uint each; the
    // tile state a uint a tile of 16 x 16 (32 x 32 tiles), the lists three commands and three
    // lists of every tile.
    const json& resources = card["resources"];
    ASSERT_EQ(resources.size(), 7u);
    EXPECT_NE(resources[0]["unreal"].get<std::string>().find("RTF_RGBA32f"), std::string::npos);
    EXPECT_EQ(resources[0]["bytes"], 2.0 * 512 * 512 * 16);
    const double texels = 512.0 * 512.0, tiles = 32.0 * 32.0;
    EXPECT_EQ(card["cost"]["memory_bytes"],
              2 * texels * 16 + 3 * texels * 4 + tiles * 4 + (3 * 4 + 3 * tiles) * 4 + 48);
    EXPECT_EQ(card["cost"]["tiles"], 32 * 32);
    // The passes of SnowpackSim::step, in its order: the classify over every tile, the rest
    // on their lists.
    const json& passes = card["passes"];
    ASSERT_EQ(passes.size(), 5u);
    const char* names[] = {"classify", "compact", "plough scatter", "plough resolve", "slump"};
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(passes[i]["order"], i + 1);
        EXPECT_EQ(passes[i]["name"], names[i]);
    }
    EXPECT_EQ(passes[0]["dispatch"], json::array({32, 32, 1}));
    EXPECT_NE(passes[1]["dispatch"].get<std::string>().find("indirect"), std::string::npos);
    // 960 slump iterations a second at 60 fps: sixteen every frame.
    EXPECT_NE(passes[4]["runs"].get<std::string>().find("16 to 16 a frame, 960 in a second"),
              std::string::npos)
        << passes[4]["runs"];
    EXPECT_EQ(card["values"]["max_density_kg_m3"]["value"], "400.0");
    EXPECT_EQ(card["values"]["max_density_kg_m3"]["unit"], "kg/m3");
    EXPECT_EQ(card["values"]["depth_cm"]["snowcap"], "sim.b.snowpack.depth_cm");
    // No bench report: no timing, and how to get one.
    EXPECT_TRUE(card["cost"]["measured"]["source"].is_null());
    EXPECT_NE(ueSnowpackCardMarkdown(ueSnowpackCard(snowpackSettings(), 1, "test", {}, json()))
                  .find("Not timed"),
              std::string::npos);
}

TEST(ExportUeSnowpack, SlumpCountFollowsTheClockAtOtherRates) {
    Settings settings = snowpackSettings();
    settings.run.fps = 144.0; // 960 Hz at 144 fps: 6 or 7 a frame
    const json card = parsedCard(settings);
    EXPECT_NE(card["passes"][4]["runs"].get<std::string>().find("6 to 7 a frame, 960 in a second"),
              std::string::npos)
        << card["passes"][4]["runs"];
}

TEST(ExportUeSnowpack, BenchTimingsAreCopied) {
    const json bench = {{"machine", {{"cores", 2}}},
                        {"gl", {{"renderer", "llvmpipe (test)"}}},
                        {"cases", json::array({{{"pass", "copy"},
                                                {"variant", "r16f"},
                                                {"size", "1024"},
                                                {"median_ms", 0.5},
                                                {"ratio_to_copy", 1.0},
                                                {"method", "m"}},
                                               {{"pass", "snowpack"},
                                                {"variant", "step"},
                                                {"size", "1024"},
                                                {"median_ms", 2.25},
                                                {"ratio_to_copy", 4.5},
                                                {"method", "m"}}})}};
    const json card = parsedCard(snowpackSettings(), bench);
    const json& measured = card["cost"]["measured"];
    EXPECT_EQ(measured["renderer"], "llvmpipe (test)");
    ASSERT_EQ(measured["cases"].size(), 1u); // the copy floor is not a snowpack case
    EXPECT_EQ(measured["cases"][0]["median_ms"], 2.25);
    EXPECT_EQ(measured["cases"][0]["ratio_to_copy"], 4.5);
    const std::string md =
        ueSnowpackCardMarkdown(ueSnowpackCard(snowpackSettings(), 1, "test", {}, bench));
    EXPECT_NE(md.find("| 1024 | 2.250 | 4.50 |"), std::string::npos) << md;
}

} // namespace
} // namespace snowcap
