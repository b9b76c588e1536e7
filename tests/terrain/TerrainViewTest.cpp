// terrain/terrain_view: where a click lands on the terrain (the ray's first crossing of the
// undisturbed snow top, against the analytic crossing of a tilted plane and a hill in front of
// it) and the height/slope map the viewer's Terrain section draws, against the plane's slope.
#include "terrain/terrain_view.hpp"

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr double kCellCm = 100.0;
constexpr int kColumns = 65, kRows = 9;
const double kTan30 = std::tan(glm::radians(30.0));

// A plane rising 30 degrees eastwards over 64 m x 9 m centred on the origin: height 0 at the
// west edge. Bilinear heights of a linear function are the function itself between the first
// and the last sample centres.
HeightField slope30() {
    std::vector<float> heightsM;
    for (int row = 0; row < kRows; ++row)
        for (int column = 0; column < kColumns; ++column)
            heightsM.push_back(float((column + 0.5) * kCellCm * kTan30 / 100.0));
    return HeightField(kColumns, kRows, heightsM, {0.0, 0.0},
                       {kColumns * kCellCm, kRows * kCellCm});
}

double planeHeightCm(double xCm) {
    return (xCm + kColumns * kCellCm * 0.5) * kTan30;
}

TEST(TerrainView, SlopeOfA30DegreePlaneIs30Degrees) {
    const HeightField field = slope30();
    for (double x = -3000.0; x <= 3000.0; x += 250.0)
        EXPECT_NEAR(slopeDeg(field, x, 0.0), 30.0, 1e-4) << x;
    EXPECT_EQ(slopeDeg(HeightField(), 10.0, 20.0), 0.0);
}

TEST(TerrainView, TheMapHoldsEachCellsHeightAndSlopeSouthRowFirst) {
    const HeightField field = slope30();
    const TerrainMap map = terrainMap(field, 4096);
    ASSERT_EQ(map.columns, kColumns);
    ASSERT_EQ(map.rows, kRows);
    for (int row = 0; row < map.rows; ++row)
        // The outermost cells see the terrain level beyond the edge (central differences a cell
        // apart): the interior ones see only the plane.
        for (int column = 1; column + 1 < map.columns; ++column) {
            const glm::dvec2 at = map.centreCm(column, row);
            EXPECT_NEAR(map.heightCm(column, row), planeHeightCm(at.x), 1e-3);
            EXPECT_NEAR(map.slopeDeg(column, row), 30.0, 1e-3);
        }
    EXPECT_NEAR(map.highestSlopeDeg, 30.0, 1e-3);
    // A coarser map covers the same extent with fewer, wider cells.
    const TerrainMap coarse = terrainMap(field, 16);
    EXPECT_EQ(coarse.columns, 16);
    EXPECT_EQ(coarse.rows, kRows);
    EXPECT_DOUBLE_EQ(coarse.cellCm.x * coarse.columns, kColumns * kCellCm);
    EXPECT_TRUE(terrainMap(HeightField(), 64).texels.empty());
}

TEST(TerrainView, ARayMeetsTheTiltedSnowTopWhereTheLineMeetsThePlane) {
    const HeightField field = slope30();
    const double base = 30.0; // snow.surface_z_cm
    // From high above the west, looking down and east: crosses z = base + (x + 3200) tan 30.
    for (const glm::dvec3 to : {glm::dvec3(3000.0, 100.0, -2000.0), glm::dvec3(0.0, -50.0, 0.0),
                                glm::dvec3(-2500.0, 0.0, -500.0)}) {
        const glm::dvec3 from(-3000.0, 0.0, 4000.0);
        const auto hit = firstGroundHit(field, base, from, to);
        ASSERT_TRUE(hit);
        // The exact crossing: from.z + t dz = base + (from.x + t dx + 3200) tan30.
        const glm::dvec3 d = to - from;
        const double t =
            (base + (from.x + kColumns * kCellCm * 0.5) * kTan30 - from.z) / (d.z - d.x * kTan30);
        const glm::dvec3 exact = from + d * t;
        // The field holds its heights as float metres (up to 37 m here: a float's step is
        // 4e-4 cm there), so the plane it drapes is the exact one to about that.
        EXPECT_NEAR(hit->x, exact.x, 1e-3);
        EXPECT_NEAR(hit->y, exact.y, 1e-3);
        EXPECT_NEAR(hit->z, exact.z, 1e-3);
        // And it lies on the ray (the bisection's end, within a nanometre of it).
        const glm::dvec3 offRay = glm::cross(*hit - from, glm::normalize(d));
        EXPECT_LT(glm::length(offRay), 1e-6);
    }
}

TEST(TerrainView, TheFirstHillInFrontWinsOverTheGroundBehindIt) {
    // A 5 m bump one cell wide in the middle of level ground: a low ray towards the far side
    // meets its face, not the plane behind it where a flat pick would land.
    std::vector<float> heightsM(kColumns * kRows, 0.0f);
    for (int row = 0; row < kRows; ++row)
        heightsM[row * kColumns + kColumns / 2] = 5.0f;
    const HeightField field(kColumns, kRows, heightsM, {0.0, 0.0},
                            {kColumns * kCellCm, kRows * kCellCm});
    const glm::dvec3 from(-3000.0, 0.0, 300.0), to(3000.0, 0.0, -100.0);
    const auto hit = firstGroundHit(field, 0.0, from, to);
    ASSERT_TRUE(hit);
    EXPECT_GT(hit->z, 1.0);      // on the bump's western face
    EXPECT_LT(hit->x, 0.0);      // before its crest (the crest is at x = 0)
    EXPECT_GT(hit->x, -kCellCm); // and on its face, not short of it
    EXPECT_NEAR(hit->z, field.heightCm(hit->x, hit->y), 1e-6);
    // The flat plane would have taken the ray much further east.
    const auto flat = firstGroundHit(HeightField(), 0.0, from, to);
    ASSERT_TRUE(flat);
    EXPECT_NEAR(flat->x, 1500.0, 1e-6);
}

TEST(TerrainView, RaysThatMissOrStartUnderTheSnowHitNothing) {
    const HeightField field = slope30();
    // Pointing up, away from the ground.
    EXPECT_FALSE(firstGroundHit(field, 0.0, {0.0, 0.0, 5000.0}, {100.0, 0.0, 9000.0}));
    // Ending before it reaches the ground.
    EXPECT_FALSE(firstGroundHit(field, 0.0, {0.0, 0.0, 5000.0}, {0.0, 0.0, 4000.0}));
    // From under the snow top.
    EXPECT_FALSE(firstGroundHit(field, 0.0, {0.0, 0.0, 0.0}, {100.0, 0.0, -100.0}));
    // Flat: the plane z = base, as the viewer always picked.
    const auto flat = firstGroundHit(HeightField(), 12.0, {0.0, 0.0, 112.0}, {100.0, 0.0, -88.0});
    ASSERT_TRUE(flat);
    EXPECT_NEAR(flat->x, 50.0, 1e-9);
    EXPECT_NEAR(flat->z, 12.0, 1e-9);
}

} // namespace
} // namespace snowcap
