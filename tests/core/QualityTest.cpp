// snow.quality: what each rung asks for, and that "off" asks for nothing at all.
#include "core/quality.hpp"

#include "TestSupport.hpp"
#include "core/sim_label.hpp"
#include "core/snow_math.hpp"

#include <filesystem>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr Quality kRungs[] = {Quality::Low, Quality::Medium, Quality::High, Quality::Ultra};

TEST(Quality, OffRungAsksForZero) {
    const QualityRung off = qualityRung(Quality::Off);
    EXPECT_EQ(off.resolution, 0);
    EXPECT_EQ(off.gridCells, 0);
    EXPECT_EQ(off.distanceSteps, 0);
    EXPECT_EQ(off.radialSteps, 0);
    Settings settings;
    settings.snow.quality = Quality::Off;
    EXPECT_TRUE(snowDisabled(effectiveSettings(settings)));
    EXPECT_EQ(surfaceGridCells(Quality::Off, 2048), 0);
}

TEST(Quality, CustomKeepsTheIndividualKeys) {
    Settings settings;
    settings.snow.resolution = 256;
    settings.sims[1].resolution = 128;
    settings.sims[1].blur = BlurMode::Prepass;
    settings.sims[0].material.distanceSteps = 5;
    settings.sims[0].displacement = SurfaceGeometry::Tessellation;
    const Settings out = effectiveSettings(settings);
    EXPECT_EQ(out.snow.resolution, 256);
    EXPECT_EQ(out.sims[1].resolution, 128);
    EXPECT_EQ(out.sims[1].blur, BlurMode::Prepass);
    EXPECT_EQ(out.sims[0].material.distanceSteps, 5);
    EXPECT_EQ(out.sims[0].displacement, SurfaceGeometry::Tessellation);
    EXPECT_FALSE(snowDisabled(out));
    EXPECT_EQ(surfaceGridCells(Quality::Custom, 2048), 512);
    EXPECT_EQ(surfaceGridCells(Quality::Custom, 64), 64);
}

TEST(Quality, EachRungSetsResolutionBlurAndDensityTogetherForBothSims) {
    int previousResolution = 0, previousCells = 0, previousTaps = 0;
    for (Quality quality : kRungs) {
        const QualityRung rung = qualityRung(quality);
        EXPECT_TRUE(isValidResolution(rung.resolution)) << toString(quality);
        // Every rung costs at least as much as the one below it, in every dimension.
        EXPECT_GT(rung.resolution, previousResolution) << toString(quality);
        EXPECT_GE(rung.gridCells, previousCells) << toString(quality);
        EXPECT_GE(rung.distanceSteps * rung.radialSteps, previousTaps) << toString(quality);
        previousResolution = rung.resolution;
        previousCells = rung.gridCells;
        previousTaps = rung.distanceSteps * rung.radialSteps;

        Settings settings;
        settings.snow.quality = quality;
        settings.sims[0].resolution = 8192; // per-sim keys are overridden, not kept
        settings.sims[1].blur =
            rung.blur == BlurMode::Prepass ? BlurMode::PerPixel : BlurMode::Prepass;
        settings.sims[0].material.rtBlurDistance = 0.3;
        const Settings out = effectiveSettings(settings);
        for (int s = 0; s < 2; ++s) {
            EXPECT_EQ(out.sims[s].resolution, 0);
            EXPECT_EQ(out.sims[s].blur, rung.blur);
            EXPECT_EQ(out.sims[s].material.distanceSteps, rung.distanceSteps);
            EXPECT_EQ(out.sims[s].material.radialSteps, rung.radialSteps);
            // The blur radius is a world size the scenario chose: kept.
            EXPECT_EQ(out.sims[s].material.rtBlurDistance,
                      settings.sims[s].material.rtBlurDistance);
            EXPECT_EQ(out.sims[s].displacement, rung.displacement);
        }
        EXPECT_EQ(out.snow.resolution, rung.resolution);
        EXPECT_EQ(surfaceGridCells(quality, out.snow.resolution), rung.gridCells);
        // Everything else is left alone.
        EXPECT_EQ(out.snow.orthoWidthCm, settings.snow.orthoWidthCm);
        EXPECT_EQ(out.sims[0].decay, settings.sims[0].decay);
    }
    EXPECT_EQ(qualityRung(Quality::Ultra).displacement, SurfaceGeometry::Tessellation);
}

// The keys in which sim s differs from the sim it is compared with, without their values.
std::vector<std::string> differingKeys(const Settings& settings, int s) {
    const int other = comparedSim(s, static_cast<int>(settings.sims.size()));
    std::vector<std::string> keys;
    if (other < 0)
        return keys;
    for (const std::string& difference : simDifferences(settings.sims[s], settings.sims[other]))
        keys.push_back(difference.substr(0, difference.find(' ')));
    return keys;
}

TEST(Quality, ARungThatWouldMakeTheSimsAlikeIsNamed) {
    Settings settings;
    EXPECT_TRUE(comparisonsVoidedBy(settings).empty());
    EXPECT_FALSE(startRungRefusal(settings));
    settings.sims[1].blur = BlurMode::Prepass;
    settings.sims[0].resolution = 1024; // sim a 1024, sim b snow.resolution's 2048
    EXPECT_EQ(comparisonsVoidedBy(settings), (std::vector<std::string>{"resolution", "blur"}));
    ASSERT_TRUE(startRungRefusal(settings));
    EXPECT_NE(startRungRefusal(settings)->find("differ in resolution, blur"), std::string::npos)
        << *startRungRefusal(settings);
    // Asked for by name, the rung runs, and says what it voids.
    EXPECT_FALSE(voidedComparisonNote(settings));
    settings.snow.quality = Quality::Low;
    ASSERT_TRUE(voidedComparisonNote(settings));
    EXPECT_EQ(voidedComparisonNote(settings)->rfind("snow.quality = low sets resolution, blur", 0),
              0u)
        << *voidedComparisonNote(settings);
}

TEST(Quality, ARungNamesTheChosenKeysItReplacesWithBothValues) {
    Settings settings;
    // Defaults the rung replaces are not a scenario's choice: no line.
    EXPECT_FALSE(rungReplacesNote(settings, Quality::Low));
    settings.sims[0].material.distanceSteps = 20;
    settings.sims[1].material.distanceSteps = 20;
    settings.snow.resolution = 1024;
    const std::vector<RungChange> changes = rungChanges(settings, Quality::Low);
    ASSERT_EQ(changes.size(), 3u);
    EXPECT_EQ(changes[0].key, "snow.resolution");
    EXPECT_EQ(changes[0].given, "1024");
    EXPECT_EQ(changes[0].rungValue, "512");
    EXPECT_EQ(changes[1].key, "sim.a.material.distance_steps");
    EXPECT_EQ(changes[1].given, "20");
    EXPECT_EQ(changes[1].rungValue, "8");
    EXPECT_EQ(*rungReplacesNote(settings, Quality::Low),
              "snow.quality = low replaces snow.resolution 512 (the scenario's 1024), "
              "sim.a.material.distance_steps 8 (the scenario's 20), "
              "sim.b.material.distance_steps 8 (the scenario's 20)");
}

// Every bundled scenario the start rung may run keeps every key its sims differ in: the rung
// never voids a comparison, and blur_compare is one it must refuse.
TEST(Quality, TheStartRungNeverVoidsABundledComparison) {
    const std::filesystem::path root = test::sourceDir();
    bool refusedBlurCompare = false;
    for (const auto& entry : std::filesystem::directory_iterator(root / "config/scenarios")) {
        auto loaded = loadSettings({root / "config/default.toml", entry.path()}, {});
        ASSERT_TRUE(std::holds_alternative<Settings>(loaded)) << entry.path();
        Settings settings = std::get<Settings>(loaded);
        if (settings.snow.quality != Quality::Custom)
            continue;
        if (startRungRefusal(settings)) {
            refusedBlurCompare |= entry.path().stem() == "blur_compare";
            continue;
        }
        settings.snow.quality = kLlvmpipeStartQuality;
        const Settings run = effectiveSettings(settings);
        for (int s = 0; s < static_cast<int>(settings.sims.size()); ++s)
            EXPECT_EQ(differingKeys(run, s), differingKeys(settings, s))
                << entry.path().stem() << " sim " << simName(s);
    }
    EXPECT_TRUE(refusedBlurCompare);
}

} // namespace
} // namespace snowcap
