// terrain/snow_top_file: the snow top written as a 16-bit PNG, an EXR and the [terrain] that
// reads it back; read back through loadTerrain it gives every height within one 16-bit step,
// in the same place; the range widens only when the top leaves the heightmap's; an unwritable
// path is one line.
#include "TestSupport.hpp"
#include "core/config.hpp"
#include "io/exr.hpp"
#include "terrain/snow_top_file.hpp"
#include "terrain/terrain.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

// A top with some of everything: noise hills 1200 m up plus a "print" and a "rim".
HeightField sampleTop() {
    TerrainSettings hills;
    hills.kind = TerrainKind::Noise;
    hills.seed = 7;
    hills.reliefM = 35.0;
    hills.featureM = 30.0;
    hills.sizeM = {90.0, 60.0};
    hills.centreCm = {1250.0, -430.0};
    const HeightField noise = noiseTerrain(hills);
    std::vector<float> heights = noise.heightsM();
    for (float& h : heights)
        h += 1200.0f;
    heights[5] -= 0.4f;  // a print 40 cm deep
    heights[17] += 0.1f; // a rim
    return HeightField(noise.columns(), noise.rows(), std::move(heights), noise.centreCm(),
                       noise.sizeCm());
}

TerrainSettings readBack(const HeightmapMapping& mapping, const fs::path& png) {
    TerrainSettings terrain;
    terrain.kind = TerrainKind::Heightmap;
    terrain.file = png.string();
    terrain.sizeM = mapping.sizeM;
    terrain.heightRangeM = mapping.heightRangeM;
    terrain.centreCm = mapping.centreCm;
    terrain.firstRow = mapping.firstRow;
    return terrain;
}

// Writes `top`, reads the PNG back as the TOML says, and returns the largest difference over
// one 16-bit step (at most 1 passes).
double roundTripSteps(const HeightField& top, const HeightmapMapping& mapping,
                      const fs::path& dir) {
    fs::create_directories(dir);
    const fs::path stem = dir / "snow_top_a";
    std::vector<fs::path> written;
    EXPECT_EQ(writeSnowTopFiles(stem, top, mapping, &written), std::nullopt);
    EXPECT_EQ(written.size(), 3u);
    auto loaded = loadTerrain(readBack(mapping, dir / "snow_top_a.png"), {});
    EXPECT_TRUE(std::holds_alternative<HeightField>(loaded)) << std::get<std::string>(loaded);
    const HeightField& back = std::get<HeightField>(loaded);
    EXPECT_EQ(back.columns(), top.columns());
    EXPECT_EQ(back.rows(), top.rows());
    EXPECT_NEAR(back.centreCm().x, top.centreCm().x, 1e-9);
    EXPECT_NEAR(back.centreCm().y, top.centreCm().y, 1e-9);
    EXPECT_NEAR(back.sizeCm().x, top.sizeCm().x, 1e-9);
    EXPECT_NEAR(back.sizeCm().y, top.sizeCm().y, 1e-9);
    const double step = (mapping.heightRangeM[1] - mapping.heightRangeM[0]) / 65535.0;
    double worst = 0.0;
    for (int row = 0; row < top.rows(); ++row)
        for (int column = 0; column < top.columns(); ++column)
            worst = std::max(worst, std::abs(double(back.sampleM(column, row)) -
                                             double(top.sampleM(column, row))) /
                                        step);
    return worst;
}

TEST(SnowTopFile, ThePngReadsBackWithinOneStepInTheSamePlace) {
    const HeightField top = sampleTop();
    TerrainSettings dem;
    dem.kind = TerrainKind::Dem;
    const HeightmapMapping mapping = snowTopMapping(top, dem);
    // Any kind but a heightmap: exactly the lowest to the highest height.
    const auto [low, high] = std::minmax_element(top.heightsM().begin(), top.heightsM().end());
    EXPECT_EQ(mapping.heightRangeM[0], double(*low));
    EXPECT_EQ(mapping.heightRangeM[1], double(*high));
    EXPECT_EQ(mapping.firstRow, TerrainFirstRow::North);
    const double steps = roundTripSteps(top, mapping, test::scratchDir());
    std::cout << "snow top round trip: at most " << steps << " of a 16-bit step ("
              << steps * (mapping.heightRangeM[1] - mapping.heightRangeM[0]) / 65535.0 * 100.0
              << " cm) over " << top.columns() * top.rows() << " samples\n";
    EXPECT_LE(steps, 1.0);
}

TEST(SnowTopFile, AHeightmapKeepsItsRangeAndRowOrderUnlessTheTopLeavesIt) {
    const HeightField top = sampleTop();
    TerrainSettings landscape;
    landscape.kind = TerrainKind::Heightmap;
    landscape.heightRangeM = {1000.0, 1500.0};
    landscape.firstRow = TerrainFirstRow::South;
    const HeightmapMapping kept = snowTopMapping(top, landscape);
    EXPECT_EQ(kept.heightRangeM, landscape.heightRangeM);
    EXPECT_EQ(kept.firstRow, TerrainFirstRow::South);
    const fs::path scratch = test::scratchDir();
    EXPECT_LE(roundTripSteps(top, kept, scratch / "kept"), 1.0);

    landscape.heightRangeM = {1210.0, 1220.0}; // the hills rise above it and the print below
    const HeightmapMapping widened = snowTopMapping(top, landscape);
    const auto [low, high] = std::minmax_element(top.heightsM().begin(), top.heightsM().end());
    EXPECT_EQ(widened.heightRangeM[0], double(*low));
    EXPECT_EQ(widened.heightRangeM[1], double(*high));
    EXPECT_LE(roundTripSteps(top, widened, scratch / "widened"), 1.0);
}

TEST(SnowTopFile, TheExrHoldsTheHeightsExactlyNorthUp) {
    const HeightField top = sampleTop();
    const fs::path dir = test::scratchDir();
    TerrainSettings noise;
    noise.kind = TerrainKind::Noise;
    ASSERT_EQ(writeSnowTopFiles(dir / "snow_top_b", top, snowTopMapping(top, noise)), std::nullopt);
    auto read = readExr(dir / "snow_top_b.exr");
    ASSERT_TRUE(std::holds_alternative<ExrImage>(read)) << std::get<std::string>(read);
    const ExrImage& exr = std::get<ExrImage>(read);
    ASSERT_EQ(exr.width, top.columns());
    ASSERT_EQ(exr.height, top.rows());
    ASSERT_EQ(exr.channels, std::vector<std::string>{"Y"});
    ASSERT_EQ(exr.pixel, ExrPixel::Float);
    // ExrImage's row 0 is the bottom (south); the field's row 0 is north.
    for (int row = 0; row < top.rows(); ++row)
        for (int column = 0; column < top.columns(); ++column)
            ASSERT_EQ(exr.floats[std::size_t(top.rows() - 1 - row) * top.columns() + column],
                      top.sampleM(column, row));
}

TEST(SnowTopFile, TheTomlIsATerrainTableThatReadsThePngBack) {
    const HeightField top = sampleTop();
    const fs::path dir = test::scratchDir();
    TerrainSettings noise;
    noise.kind = TerrainKind::Noise;
    const HeightmapMapping mapping = snowTopMapping(top, noise);
    ASSERT_EQ(writeSnowTopFiles(dir / "snow_top_a", top, mapping), std::nullopt);
    // As a config layer: its file resolves beside it, and the keys are [terrain]'s.
    auto loaded = loadSettings({dir / "snow_top_a.toml"}, {});
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded)) << std::get<ConfigError>(loaded).message;
    const TerrainSettings& terrain = std::get<Settings>(loaded).terrain;
    EXPECT_EQ(terrain.kind, TerrainKind::Heightmap);
    EXPECT_EQ(fs::path(terrain.file), dir / "snow_top_a.png");
    EXPECT_EQ(terrain.sizeM, mapping.sizeM);
    EXPECT_EQ(terrain.heightRangeM, mapping.heightRangeM);
    EXPECT_EQ(terrain.centreCm, mapping.centreCm);
}

TEST(SnowTopFile, AnUnwritablePlaceIsOneLine) {
    const HeightField top = sampleTop();
    const HeightmapMapping mapping = snowTopMapping(top, TerrainSettings{});
    const fs::path scratch = test::scratchDir();
    const fs::path blocker = scratch / "snow_top_blocker";
    std::ofstream(blocker) << "a file where a folder should be";
    for (const fs::path& stem : {fs::path("/proc/snow_top_a"), blocker / "snow_top_a",
                                 scratch / "no_such_folder" / "snow_top_a"}) {
        const auto error = writeSnowTopFiles(stem, top, mapping);
        ASSERT_TRUE(error.has_value()) << stem;
        EXPECT_EQ(error->find('\n'), std::string::npos) << *error;
        EXPECT_NE(error->find(stem.string() + ".png"), std::string::npos) << *error;
    }
}

} // namespace
} // namespace snowcap
