// terrain/: the height field's sampling, the heightmap and DEM readers (the same ground from a
// 16-bit PNG and from a GeoTIFF made of it by GDAL), the PNG writer's round trip, seeded noise,
// and hostile files refused in one line.
#include "terrain/terrain.hpp"

#include "TestSupport.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <sys/stat.h>

namespace snowcap {
namespace {

namespace fs = std::filesystem;

fs::path fixture(const char* name) {
    return test::sourceDir() / "tests/data/terrain" / name;
}

TerrainSettings ridgeHeightmap() {
    TerrainSettings terrain;
    terrain.kind = TerrainKind::Heightmap;
    terrain.file = fixture("ridge.png").string();
    terrain.sizeM = {640.0, 480.0};
    terrain.heightRangeM = {1200.0, 1500.0};
    return terrain;
}

std::string refusal(const TerrainSettings& terrain) {
    auto loaded = loadTerrain(terrain, test::sourceDir());
    return std::holds_alternative<std::string>(loaded) ? std::get<std::string>(loaded) : "";
}

TEST(HeightField, FlatIsZeroEverywhere) {
    const HeightField flat;
    EXPECT_TRUE(flat.flat());
    EXPECT_EQ(flat.heightCm(123.0, -4567.0), 0.0);
    EXPECT_EQ(flat.normal(1.0, 2.0), glm::dvec3(0.0, 0.0, 1.0));
    EXPECT_EQ(flat.spanCm({0.0, 0.0}, 1000.0).lowCm, 0.0);
    EXPECT_EQ(flat.spanCm({0.0, 0.0}, 1000.0).highCm, 0.0);
}

TEST(HeightField, SamplesAreCellCentresRowZeroNorthBilinearBetween) {
    // 2 x 2 cells of 100 cm about the origin: NW 1 m, NE 2 m, SW 3 m, SE 4 m.
    const HeightField field(2, 2, {1.0f, 2.0f, 3.0f, 4.0f}, {0.0, 0.0}, {200.0, 200.0});
    EXPECT_DOUBLE_EQ(field.heightCm(-50.0, 50.0), 100.0);     // NW centre
    EXPECT_DOUBLE_EQ(field.heightCm(50.0, 50.0), 200.0);      // NE
    EXPECT_DOUBLE_EQ(field.heightCm(-50.0, -50.0), 300.0);    // SW
    EXPECT_DOUBLE_EQ(field.heightCm(50.0, -50.0), 400.0);     // SE
    EXPECT_DOUBLE_EQ(field.heightCm(0.0, 0.0), 250.0);        // the middle: their mean
    EXPECT_DOUBLE_EQ(field.heightCm(-1000.0, 1000.0), 100.0); // beyond: the edge holds
    EXPECT_EQ(field.spanCm().lowCm, 100.0);
    EXPECT_EQ(field.spanCm().highCm, 400.0);
    // A square touching only the north row's cells sees only the north samples and their
    // neighbours below (bilinear heights between them lie within those).
    const HeightSpan north = field.spanCm({0.0, 90.0}, 10.0);
    EXPECT_GE(north.lowCm, 100.0);
    EXPECT_LE(north.highCm, 400.0);
}

TEST(HeightField, NormalOfARampLeansDownhill) {
    // Rising 1 m per 100 cm eastwards: a 45 degree slope whose normal leans west.
    std::vector<float> heights;
    for (int row = 0; row < 4; ++row)
        for (int column = 0; column < 4; ++column)
            heights.push_back(float(column));
    const HeightField ramp(4, 4, heights, {0.0, 0.0}, {400.0, 400.0});
    const glm::dvec3 n = ramp.normal(0.0, 0.0);
    EXPECT_NEAR(n.x, -std::sqrt(0.5), 1e-9);
    EXPECT_NEAR(n.y, 0.0, 1e-9);
    EXPECT_NEAR(n.z, std::sqrt(0.5), 1e-9);
}

TEST(TerrainFiles, PngAndGeoTiffOfTheSameHeightsAgreeWithinOneStep) {
    auto fromPng = loadTerrain(ridgeHeightmap(), test::sourceDir());
    ASSERT_TRUE(std::holds_alternative<HeightField>(fromPng)) << std::get<std::string>(fromPng);
    TerrainSettings dem;
    dem.kind = TerrainKind::Dem;
    dem.file = fixture("ridge_utm.tif").string();
    auto fromDem = loadTerrain(dem, test::sourceDir());
    ASSERT_TRUE(std::holds_alternative<HeightField>(fromDem)) << std::get<std::string>(fromDem);
    const HeightField& png = std::get<HeightField>(fromPng);
    const HeightField& tif = std::get<HeightField>(fromDem);
    ASSERT_EQ(png.columns(), 64);
    ASSERT_EQ(png.rows(), 48);
    EXPECT_EQ(tif.columns(), png.columns());
    EXPECT_EQ(tif.rows(), png.rows());
    EXPECT_EQ(tif.sizeCm(), png.sizeCm()); // the DEM's own extent: 64 x 10 m by 48 x 10 m
    EXPECT_EQ(tif.centreCm(), png.centreCm());
    const double stepCm = 300.0 / 65535.0 * 100.0; // one 16-bit step of the 300 m range
    double worst = 0.0;
    for (double y = -25000.0; y <= 25000.0; y += 370.0)
        for (double x = -33000.0; x <= 33000.0; x += 410.0)
            worst = std::max(worst, std::abs(png.heightCm(x, y) - tif.heightCm(x, y)));
    EXPECT_LE(worst, stepCm);
    // And the ridge is where the file put it: column 30 (x = -320 m + 305 m), the north row
    // higher than the saddle in the middle.
    EXPECT_GT(png.heightCm(-1500.0, 23500.0), png.heightCm(-1500.0, 0.0));
    EXPECT_GT(png.heightCm(-1500.0, 0.0), png.heightCm(-20000.0, 0.0));
}

TEST(TerrainFiles, FirstRowSouthTurnsTheRows) {
    TerrainSettings south = ridgeHeightmap();
    south.firstRow = TerrainFirstRow::South;
    const HeightField north = std::get<HeightField>(loadTerrain(ridgeHeightmap(), {}));
    const HeightField flipped = std::get<HeightField>(loadTerrain(south, {}));
    for (double x : {-30000.0, -1500.0, 12000.0})
        EXPECT_EQ(north.heightCm(x, 23500.0), flipped.heightCm(x, -23500.0));
}

TEST(TerrainFiles, HeightmapPngRoundTripsExactlyAndR16ReadsTheSame) {
    auto read = readHeightmapPng(fixture("ridge.png"), 1u << 20);
    ASSERT_TRUE(std::holds_alternative<HeightmapSamples>(read));
    const HeightmapSamples& samples = std::get<HeightmapSamples>(read);
    const fs::path dir = test::scratchDir();
    ASSERT_FALSE(writeHeightmapPng(dir / "again.png", samples));
    auto again = readHeightmapPng(dir / "again.png", 1u << 20);
    ASSERT_TRUE(std::holds_alternative<HeightmapSamples>(again));
    EXPECT_EQ(std::get<HeightmapSamples>(again).values, samples.values);

    // A square .r16 of the first 48 x 48 samples, little-endian.
    std::string bytes;
    std::vector<std::uint16_t> square;
    for (int y = 0; y < 48; ++y)
        for (int x = 0; x < 48; ++x) {
            const std::uint16_t v = samples.values[std::size_t(y) * 64 + x];
            square.push_back(v);
            bytes += char(v & 0xFF);
            bytes += char(v >> 8);
        }
    test::writeText(dir / "square.r16", bytes);
    auto r16 = readHeightmapR16(dir / "square.r16", 1u << 20);
    ASSERT_TRUE(std::holds_alternative<HeightmapSamples>(r16)) << std::get<std::string>(r16);
    EXPECT_EQ(std::get<HeightmapSamples>(r16).columns, 48);
    EXPECT_EQ(std::get<HeightmapSamples>(r16).values, square);
}

TEST(TerrainFiles, NoiseIsSeededAndSpansItsRelief) {
    TerrainSettings noise;
    noise.kind = TerrainKind::Noise;
    noise.sizeM = {200.0, 100.0};
    noise.reliefM = 20.0;
    noise.featureM = 80.0;
    const HeightField a = noiseTerrain(noise), again = noiseTerrain(noise);
    EXPECT_EQ(a.heightsM(), again.heightsM());
    EXPECT_EQ(a.spanCm().lowCm, 0.0);
    EXPECT_NEAR(a.spanCm().highCm, 2000.0, 1e-3);
    noise.seed = 2;
    EXPECT_NE(noiseTerrain(noise).heightsM(), a.heightsM());
}

// Each hostile file: one line naming terrain.file and the reason, at once.
void expectRefused(const TerrainSettings& terrain, const std::string& reasonPart) {
    const auto start = std::chrono::steady_clock::now();
    const std::string line = refusal(terrain);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(line.rfind("key 'terrain.file': ", 0), 0u) << line;
    EXPECT_NE(line.find(reasonPart), std::string::npos) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    EXPECT_LT(seconds, 2.0) << line;
}

TEST(TerrainFiles, HostileHeightmapsAreOneLineEach) {
    const fs::path dir = test::scratchDir();
    std::ifstream in(fixture("ridge.png"), std::ios::binary);
    const std::string png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    TerrainSettings terrain = ridgeHeightmap();

    test::writeText(dir / "truncated.png", png.substr(0, png.size() / 2));
    terrain.file = (dir / "truncated.png").string();
    expectRefused(terrain, "shorter than its 64 x 48 samples need");

    std::string lying = png; // IHDR claims 4096 x 4096: 64 MiB of heights from 2.6 KB
    lying[16] = 0, lying[17] = 0, lying[18] = 0x10, lying[19] = 0;
    lying[20] = 0, lying[21] = 0, lying[22] = 0x10, lying[23] = 0;
    test::writeText(dir / "lying.png", lying);
    terrain.file = (dir / "lying.png").string();
    expectRefused(terrain, "cannot hold the 4096 x 4096 samples");

    std::string huge = png; // 20000 samples a side
    huge[16] = 0, huge[17] = 0, huge[18] = char(0x4E), huge[19] = char(0x20);
    test::writeText(dir / "huge.png", huge);
    terrain.file = (dir / "huge.png").string();
    expectRefused(terrain, "at most 16384 a side");

    std::string budget = png; // 8192 x 8192 floats = 256 MiB > a 64 MiB budget
    budget[16] = 0, budget[17] = 0, budget[18] = 0x20, budget[19] = 0;
    budget[20] = 0, budget[21] = 0, budget[22] = 0x20, budget[23] = 0;
    test::writeText(dir / "budget.png", budget);
    terrain.file = (dir / "budget.png").string();
    terrain.maxMiB = 64.0;
    expectRefused(terrain, "over terrain.max_mib (64)");
    terrain.maxMiB = 256.0;

    test::writeText(dir / "text.png", "just some text");
    terrain.file = (dir / "text.png").string();
    expectRefused(terrain, "not a PNG");

    terrain.file = dir.string();
    expectRefused(terrain, "not a regular file (a directory)");
    ASSERT_EQ(::mkfifo((dir / "fifo.png").c_str(), 0600), 0);
    terrain.file = (dir / "fifo.png").string();
    expectRefused(terrain, "not a regular file (a FIFO)");

    test::writeText(dir / "odd.r16", std::string(2 * 47 * 48, '\0'));
    terrain.file = (dir / "odd.r16").string();
    expectRefused(terrain, "not a square of 16-bit samples");

    terrain.file.clear();
    expectRefused(terrain, "needs a file here");
}

TEST(TerrainFiles, HostileDemsAreOneLineEach) {
    const fs::path dir = test::scratchDir();
    TerrainSettings terrain;
    terrain.kind = TerrainKind::Dem;

    terrain.file = fixture("ridge_lonlat.tif").string();
    expectRefused(terrain, "geographic CRS (degrees): reproject it");

    std::ifstream in(fixture("ridge_utm.tif"), std::ios::binary);
    const std::string tif((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    test::writeText(dir / "truncated.tif", tif.substr(0, tif.size() / 3));
    terrain.file = (dir / "truncated.tif").string();
    expectRefused(terrain, dir.string());

    test::writeText(dir / "text.tif", "II*\0 not really a TIFF");
    terrain.file = (dir / "text.tif").string();
    expectRefused(terrain, "not a raster GDAL reads");

    terrain.file = dir.string();
    expectRefused(terrain, "not a regular file (a directory)");
    ASSERT_EQ(::mkfifo((dir / "fifo.tif").c_str(), 0600), 0);
    terrain.file = (dir / "fifo.tif").string();
    expectRefused(terrain, "not a regular file (a FIFO)");
}

} // namespace
} // namespace snowcap
