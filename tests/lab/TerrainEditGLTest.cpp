// A live edit of [terrain] (Lab::apply, the viewer's Terrain section): the plants of [[foliage]]
// grow on the new ground (each root at the flat ground plus the terrain's height under it), and
// back on flat ground at the flat ground; a file that cannot be the terrain is one line naming
// terrain.file, and the lab keeps the terrain, the plants and the settings it had.
#include "GLTestSupport.hpp"
#include "lab/lab.hpp"
#include "scene/deformer.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

// The worst distance of a plant's root from the flat ground plus `terrain` under it.
double worstRootCm(const Lab& lab, const HeightField* terrain) {
    double worst = 0.0;
    const double ground = groundZCm(lab.settings().snow);
    for (const Foliage& entry : lab.foliage().foliage())
        for (const FoliagePlant& plant : entry.plants) {
            const double h = terrain && !terrain->flat()
                                 ? terrain->heightCm(plant.rootCm.x, plant.rootCm.y)
                                 : 0.0;
            worst = std::max(worst, std::abs(double(entry.rootOf(plant).z) - (ground + h)));
        }
    return worst;
}

TEST(TerrainEdit, PlantsGrowOnTheNewTerrainAndABadFileKeepsTheOld) {
    auto created = Lab::create("foliage", {"snow.resolution=64"}, test::glInfo().renderer);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Lab>>(created))
        << std::get<std::string>(created);
    Lab& lab = *std::get<0>(created);
    ASSERT_GT(lab.foliage().plantCount(), 100u);
    EXPECT_EQ(worstRootCm(lab, nullptr), 0.0);

    Settings hills = lab.settings();
    hills.terrain.kind = TerrainKind::Noise;
    hills.terrain.reliefM = 4.0;
    hills.terrain.featureM = 6.0;
    hills.terrain.sizeM = {16.0, 16.0};
    ASSERT_FALSE(lab.apply(hills));
    const std::shared_ptr<const HeightField> terrain = lab.field().terrain();
    ASSERT_TRUE(terrain && !terrain->flat());
    // Float roots over heights of up to 4 m.
    EXPECT_LT(worstRootCm(lab, terrain.get()), 1e-3);
    double lifted = 0.0;
    for (const Foliage& entry : lab.foliage().foliage())
        for (const FoliagePlant& plant : entry.plants)
            lifted = std::max(lifted, double(plant.terrainCm));
    EXPECT_GT(lifted, 100.0) << "the meadow should lie on the hills";

    // A file that cannot be the terrain: one line, and everything stays as it was.
    Settings bad = lab.settings();
    bad.terrain.kind = TerrainKind::Heightmap;
    bad.terrain.file = "tests/data/no_such.png";
    const auto refused = lab.apply(bad);
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->find("terrain.file"), std::string::npos) << *refused;
    EXPECT_EQ(refused->find('\n'), std::string::npos) << *refused;
    EXPECT_EQ(lab.field().terrain(), terrain);
    EXPECT_EQ(lab.settings().terrain.kind, TerrainKind::Noise);
    EXPECT_LT(worstRootCm(lab, terrain.get()), 1e-3);

    // Back to flat: the plants on the flat ground again.
    Settings flat = lab.settings();
    flat.terrain.kind = TerrainKind::Flat;
    ASSERT_FALSE(lab.apply(flat));
    EXPECT_EQ(worstRootCm(lab, nullptr), 0.0);
}

} // namespace
} // namespace snowcap
