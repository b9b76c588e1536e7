// snow.quality: what each rung asks for, and that "off" asks for nothing at all.
#include "core/quality.hpp"

#include "core/snow_math.hpp"

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

} // namespace
} // namespace snowcap
