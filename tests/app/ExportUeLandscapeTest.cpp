// The landscape in an Unreal card (app/export_ue_landscape.hpp): UE's component layouts for the
// Landscape Technical Guide's sizes, and the import values taken the way UE applies them (vertex
// (i, j) at location + scale (i, j), height (v - 32768) / 128 x scale_z above the actor) put
// every sample of the ridge heightmap back where snowcap has it.
#include "TestSupport.hpp"
#include "app/export_ue_landscape.hpp"
#include "terrain/terrain.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

TerrainSettings ridge() {
    TerrainSettings terrain;
    terrain.kind = TerrainKind::Heightmap;
    terrain.file = (test::sourceDir() / "tests/data/terrain/ridge.png").string();
    terrain.sizeM = {640.0, 480.0};
    terrain.heightRangeM = {1200.0, 1500.0};
    terrain.centreCm = {2500.0, -700.0};
    return terrain;
}

TEST(LandscapeLayout, TheGuidesSizesFitExactlyWithTheFewestComponents) {
    // Overall resolution: components x sections x quads + 1 a side.
    EXPECT_EQ(landscapeLayout(505, 505), (LandscapeLayout{63, 2, 4, 4}));
    EXPECT_EQ(landscapeLayout(1009, 1009), (LandscapeLayout{63, 2, 8, 8}));
    EXPECT_EQ(landscapeLayout(8129, 8129), (LandscapeLayout{127, 2, 32, 32}));
    EXPECT_EQ(landscapeLayout(64, 64), (LandscapeLayout{63, 1, 1, 1}));
    // Not square: one layout for both sides.
    EXPECT_EQ(landscapeLayout(253, 127), (LandscapeLayout{63, 2, 2, 1}));
}

TEST(LandscapeLayout, AFileNoLayoutHoldsIsPaddedByTheFewestVertices) {
    // 64 x 48: 63 quads across, 47 (a prime) down. 7-quad sections pad 48 rows to 50 (128
    // vertices more); every other section size pads more.
    const LandscapeLayout layout = landscapeLayout(64, 48);
    EXPECT_EQ(layout, (LandscapeLayout{7, 1, 9, 7}));
    EXPECT_EQ(layout.verticesX(), 64);
    EXPECT_EQ(layout.verticesY(), 50);
    for (int sections : {1, 2})
        for (int quads : kLandscapeQuadsPerSection) {
            const int unit = quads * sections;
            const long long x = (63 + unit - 1) / unit * unit + 1,
                            y = (47 + unit - 1) / unit * unit + 1;
            EXPECT_GE(x * y, 64LL * 50) << quads << " x " << sections;
        }
}

TEST(LandscapeImport, EverySampleComesBackWhereSnowcapHasIt) {
    for (const TerrainFirstRow firstRow : {TerrainFirstRow::North, TerrainFirstRow::South}) {
        TerrainSettings terrain = ridge();
        terrain.firstRow = firstRow;
        auto loaded = loadTerrain(terrain, test::sourceDir());
        ASSERT_TRUE(std::holds_alternative<HeightField>(loaded));
        const HeightField& field = std::get<HeightField>(loaded);
        auto read = readHeightmapPng(terrain.file, 1ull << 30);
        ASSERT_TRUE(std::holds_alternative<HeightmapSamples>(read));
        const HeightmapSamples& file = std::get<HeightmapSamples>(read);
        const double groundZCm = -25.0; // snow.surface_z_cm 5 - snow.depth_cm 30
        const double lowCm = terrain.heightRangeM[0] * 100.0,
                     highCm = terrain.heightRangeM[1] * 100.0;
        const LandscapeImport import =
            landscapeImport(field, lowCm, highCm, groundZCm, firstRow == TerrainFirstRow::North);
        ASSERT_EQ(import.columns, file.columns);
        ASSERT_EQ(import.rows, file.rows);
        EXPECT_EQ(import.flipRows, firstRow == TerrainFirstRow::North);
        const glm::dvec2 west_north(field.centreCm().x - field.sizeCm().x * 0.5,
                                    field.centreCm().y + field.sizeCm().y * 0.5);
        const glm::dvec2 cell = field.cellCm();
        double worstCm = 0.0;
        for (int fileRow = 0; fileRow < file.rows; ++fileRow)
            for (int column = 0; column < file.columns; ++column) {
                const double v = file.values[std::size_t(fileRow) * file.columns + column];
                // UE's row: the flipped file's row when asked to flip, else the file's.
                const int ueRow = import.flipRows ? file.rows - 1 - fileRow : fileRow;
                const double ueX = import.locationCm[0] + import.scaleX * column;
                const double ueY = import.locationCm[1] + import.scaleY * ueRow;
                const double ueZ = import.locationCm[2] + (v - 32768.0) / 128.0 * import.scaleZ;
                // snowcap: the sample's centre (row 0 north), the ground plus the mapped value.
                const int northRow =
                    firstRow == TerrainFirstRow::North ? fileRow : file.rows - 1 - fileRow;
                const double x = west_north.x + (column + 0.5) * cell.x;
                const double y = west_north.y - (northRow + 0.5) * cell.y;
                const double z = groundZCm + lowCm + v / 65535.0 * (highCm - lowCm);
                EXPECT_NEAR(ueX, x, 1e-6);
                EXPECT_NEAR(ueY, y, 1e-6);
                EXPECT_NEAR(ueZ, z, 1e-6);
                // The field snowcap drapes over holds the same height, to its float metres.
                worstCm = std::max(worstCm, std::abs(groundZCm + field.heightCm(x, y) - ueZ));
            }
        EXPECT_LT(worstCm, 0.01); // float32 metres at 1500 m: 6e-5 m at most
    }
}

TEST(LandscapeSection, FlatHasNoneAGeneratedTerrainSaysSoAndABadFileIsOneLine) {
    Settings settings;
    auto flat = ueLandscapeSection(settings, test::sourceDir());
    ASSERT_TRUE(std::holds_alternative<std::optional<nlohmann::ordered_json>>(flat));
    EXPECT_FALSE(std::get<std::optional<nlohmann::ordered_json>>(flat));

    settings.terrain.kind = TerrainKind::Noise;
    auto noise = ueLandscapeSection(settings, test::sourceDir());
    const auto& noiseSection = std::get<std::optional<nlohmann::ordered_json>>(noise);
    ASSERT_TRUE(noiseSection);
    EXPECT_FALSE(noiseSection->contains("Scale"));
    EXPECT_NE((*noiseSection)["Kind"]["note"].get<std::string>().find("no heightmap"),
              std::string::npos);

    settings.terrain = ridge();
    settings.terrain.file = "tests/data/terrain/no_such.png";
    auto missing = ueLandscapeSection(settings, test::sourceDir());
    ASSERT_TRUE(std::holds_alternative<std::string>(missing));
    EXPECT_NE(std::get<std::string>(missing).find("terrain.file"), std::string::npos);
}

TEST(LandscapeSection, TheHeightmapsCardCarriesTheImportValues) {
    Settings settings;
    settings.terrain = ridge();
    auto made = ueLandscapeSection(settings, test::sourceDir());
    const auto& section = std::get<std::optional<nlohmann::ordered_json>>(made);
    ASSERT_TRUE(section);
    const auto& scale = (*section)["Scale"]["value"];
    EXPECT_DOUBLE_EQ(scale[0].get<double>(), 1000.0); // 640 m over 64 samples
    EXPECT_DOUBLE_EQ(scale[1].get<double>(), 1000.0); // 480 m over 48
    EXPECT_NEAR(scale[2].get<double>(), 30000.0 * 128.0 / 65535.0, 1e-6);
    const auto& location = (*section)["Location"]["value"];
    EXPECT_DOUBLE_EQ(location[0].get<double>(), 2500.0 - 32000.0 + 500.0);
    EXPECT_DOUBLE_EQ(location[1].get<double>(), -700.0 - 24000.0 + 500.0);
    const double ground = settings.snow.surfaceZCm - settings.snow.depthCm;
    EXPECT_NEAR(location[2].get<double>(), ground + 120000.0 + 32768.0 * 30000.0 / 65535.0, 1e-6);
    EXPECT_TRUE((*section)["Flip_Rows"]["value"].get<bool>());
    EXPECT_EQ((*section)["Overall_Resolution"]["value"], nlohmann::json::array({64, 50}));
    const std::string md = ueLandscapeMarkdown(*section);
    EXPECT_NE(md.find("## Landscape"), std::string::npos);
    EXPECT_NE(md.find("pad it to 64 x 50"), std::string::npos);
}

TEST(LandscapeSection, ADemIsConvertedOverItsSpan) {
    Settings settings;
    settings.terrain = ridge();
    settings.terrain.kind = TerrainKind::Dem;
    settings.terrain.file = (test::sourceDir() / "tests/data/terrain/ridge_utm.tif").string();
    auto made = ueLandscapeSection(settings, test::sourceDir());
    ASSERT_TRUE(std::holds_alternative<std::optional<nlohmann::ordered_json>>(made))
        << std::get<std::string>(made);
    const auto& section = std::get<std::optional<nlohmann::ordered_json>>(made);
    ASSERT_TRUE(section);
    const std::string file = (*section)["Heightmap_File"]["value"].get<std::string>();
    EXPECT_NE(file.find("gdal_translate -ot UInt16 -scale"), std::string::npos);
    EXPECT_TRUE((*section)["Flip_Rows"]["value"].get<bool>()); // GDAL writes north first
}

} // namespace
} // namespace snowcap
