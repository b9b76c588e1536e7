// [[foliage]] and [wind]: the keys and their one-line errors, the seeded scatter, and the CPU
// reference of the wind's bend (shaders/common/wind.glsl; FoliageWindGLTest holds the shader to
// it).
#include "scene/foliage.hpp"

#include "TestSupport.hpp"
#include "core/config.hpp"
#include "scene/foliage_wind.hpp"

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <string>

namespace snowcap {
namespace {

struct FoliageConfig : ::testing::Test {
    std::variant<Settings, ConfigError> load(const std::string& toml) {
        const auto file = test::scratchDir() / "foliage.toml";
        test::writeText(file, toml);
        return loadSettings({file}, {});
    }
    std::string errorOf(const std::string& toml) {
        auto loaded = load(toml);
        if (auto* error = std::get_if<ConfigError>(&loaded))
            return error->message;
        return "(loaded without error)";
    }
};

TEST_F(FoliageConfig, ReadsAnEntryAndTheWind) {
    auto loaded = load("[wind]\ndirection_deg = 90\nstrength = 0.4\ngust_hz = 1\n"
                       "[[foliage]]\nname = 'meadow'\nmesh = 'bush'\ncount = 12\nseed = 7\n"
                       "centre_cm = [10, -20]\nsize_cm = [300, 200]\nscale = [0.5, 0.7]\n"
                       "stiffness = 3\nmin_spacing_cm = 15\ncontact = 'animal'\n");
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded)) << std::get<ConfigError>(loaded).message;
    const Settings& s = std::get<Settings>(loaded);
    EXPECT_EQ(s.wind.directionDeg, 90.0);
    EXPECT_EQ(s.wind.strength, 0.4);
    EXPECT_EQ(s.wind.gustHz, 1.0);
    ASSERT_EQ(s.foliage.size(), 1u);
    const FoliageSettings& f = s.foliage[0];
    EXPECT_EQ(f.name, "meadow");
    EXPECT_EQ(f.mesh, "bush");
    EXPECT_EQ(f.count, 12);
    EXPECT_EQ(f.seed, 7);
    EXPECT_EQ(f.centreCm, (std::array<double, 2>{10.0, -20.0}));
    EXPECT_EQ(f.sizeCm, (std::array<double, 2>{300.0, 200.0}));
    EXPECT_EQ(f.scaleRange, (std::array<double, 2>{0.5, 0.7}));
    EXPECT_EQ(f.stiffness, 3.0);
    EXPECT_EQ(f.minSpacingCm, 15.0);
    EXPECT_EQ(f.contact, ContactType::Animal);
    // No foliage unless a scenario gives it; the wind is always there.
    auto plain = load("");
    ASSERT_TRUE(std::holds_alternative<Settings>(plain));
    EXPECT_TRUE(std::get<Settings>(plain).foliage.empty());
}

TEST_F(FoliageConfig, BadValuesNameTheKey) {
    const std::string entry = "[[foliage]]\nname = 'm'\n";
    EXPECT_NE(errorOf(entry + "count = 0\n").find("key 'foliage[0].count': must be"),
              std::string::npos);
    EXPECT_NE(errorOf(entry + "count = 5\ndensity_per_m2 = 2\n")
                  .find("key 'foliage[0].density_per_m2': give either count or density_per_m2"),
              std::string::npos);
    EXPECT_NE(errorOf(entry + "scale = [1.2, 0.8]\n")
                  .find("key 'foliage[0].scale': [min, max] needs min <= max, got [1.2, 0.8]"),
              std::string::npos);
    EXPECT_NE(errorOf(entry + "max_lean = 1\n").find("key 'foliage[0].max_lean': must be"),
              std::string::npos);
    EXPECT_NE(errorOf(entry + "size_cm = [100, 0]\n").find("key 'foliage[0].size_cm"),
              std::string::npos);
    EXPECT_NE(errorOf(entry + "wobble = 1\n").find("unknown key 'foliage[0].wobble'"),
              std::string::npos);
    EXPECT_NE(errorOf("[[foliage]]\ncount = 3\n").find("missing required key 'name'"),
              std::string::npos);
    EXPECT_NE(
        errorOf(entry + entry).find("key 'foliage[1].name': 'm' is already used by foliage[0]"),
        std::string::npos);
    EXPECT_NE(errorOf("[wind]\nstrength = -1\n").find("key 'wind.strength': must be"),
              std::string::npos);
    EXPECT_NE(errorOf("[wind]\ngust_wavelength_cm = 0\n").find("key 'wind.gust_wavelength_cm'"),
              std::string::npos);
}

FoliageSettings meadow(int count, double spacing = 0.0) {
    FoliageSettings f;
    f.name = "m";
    f.count = count;
    f.centreCm = {100.0, -50.0};
    f.sizeCm = {400.0, 200.0};
    f.minSpacingCm = spacing;
    return f;
}

std::vector<FoliagePlant> scatter(const FoliageSettings& f) {
    auto result = scatterFoliage(f, "foliage[0]");
    if (auto* error = std::get_if<FoliageError>(&result)) {
        ADD_FAILURE() << error->line();
        return {};
    }
    return std::get<std::vector<FoliagePlant>>(result);
}

TEST(FoliageScatter, SeededInsideTheAreaWithinTheSpreads) {
    FoliageSettings f = meadow(500);
    f.scaleRange = {0.5, 1.5};
    f.yawSpreadDeg = 90.0;
    const std::vector<FoliagePlant> plants = scatter(f);
    ASSERT_EQ(plants.size(), 500u);
    glm::vec2 mean(0.0f);
    float smallest = 10.0f, largest = 0.0f;
    for (const FoliagePlant& p : plants) {
        EXPECT_GE(p.rootCm.x, -100.0f);
        EXPECT_LT(p.rootCm.x, 300.0f);
        EXPECT_GE(p.rootCm.y, -150.0f);
        EXPECT_LT(p.rootCm.y, 50.0f);
        EXPECT_GE(p.yawRad, 0.0f);
        EXPECT_LT(p.yawRad, glm::radians(90.0f));
        smallest = std::min(smallest, p.scale);
        largest = std::max(largest, p.scale);
        mean += p.rootCm / 500.0f;
    }
    EXPECT_GE(smallest, 0.5f);
    EXPECT_LE(largest, 1.5f);
    EXPECT_LT(smallest, 0.55f); // spread over the range, not bunched
    EXPECT_GT(largest, 1.45f);
    EXPECT_NEAR(mean.x, 100.0f, 15.0f); // uniform: the mean is near the centre
    EXPECT_NEAR(mean.y, -50.0f, 10.0f);
    // The same seed grows the same meadow; another seed another.
    const std::vector<FoliagePlant> again = scatter(f);
    EXPECT_EQ(again[123].rootCm, plants[123].rootCm);
    EXPECT_EQ(again[123].phaseRad, plants[123].phaseRad);
    f.seed = 2;
    EXPECT_NE(scatter(f)[123].rootCm, plants[123].rootCm);
}

TEST(FoliageScatter, MinSpacingHoldsOrFailsNamingTheKey) {
    const std::vector<FoliagePlant> plants = scatter(meadow(200, 12.0));
    ASSERT_EQ(plants.size(), 200u);
    float closest = 1e9f;
    for (std::size_t i = 0; i < plants.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            closest = std::min(closest, glm::distance(plants[i].rootCm, plants[j].rootCm));
    EXPECT_GE(closest, 12.0f);
    // 400 x 200 cm holds about 0.9 / (pi/4 x 60^2) per cm^2 at 60 cm: far fewer than 300.
    auto tight = scatterFoliage(meadow(300, 60.0), "foliage[0]");
    ASSERT_TRUE(std::holds_alternative<FoliageError>(tight));
    EXPECT_EQ(std::get<FoliageError>(tight).key, "foliage[0].min_spacing_cm");
    EXPECT_EQ(
        std::get<FoliageError>(tight).line().rfind("key 'foliage[0].min_spacing_cm': only ", 0),
        0u);
    EXPECT_NE(
        std::get<FoliageError>(tight).reason.find("of 300 plants fit 60 cm apart in 400 x 200 cm"),
        std::string::npos);
}

TEST(FoliageScatter, DensityGivesTheCount) {
    FoliageSettings f = meadow(1);
    f.densityPerM2 = 2.5; // 8 m^2
    EXPECT_EQ(scatter(f).size(), 20u);
}

TEST(FoliageLoad, BundledPlantsAndBadFiles) {
    FoliageSettings f = meadow(10);
    for (const char* mesh : {"grass_tuft", "bush"}) {
        f.mesh = mesh;
        auto loaded = loadFoliage(f, "foliage[0]", test::sourceDir(), -30.0);
        ASSERT_TRUE(std::holds_alternative<Foliage>(loaded))
            << std::get<FoliageError>(loaded).line();
        const Foliage& foliage = std::get<Foliage>(loaded);
        EXPECT_EQ(foliage.plants.size(), 10u);
        EXPECT_GT(foliage.heightCm, 30.0f);
        EXPECT_NEAR(foliage.mesh.bounds().min.z, 0.0f, 1e-4f); // the root on the ground
        const glm::mat4 model = foliage.modelOf(foliage.plants[0]);
        EXPECT_EQ(glm::vec3(model[3]), glm::vec3(foliage.plants[0].rootCm, -30.0f));
    }
    f.mesh = "assets/meshes/none.glb";
    auto missing = loadFoliage(f, "foliage[0]", test::sourceDir(), 0.0);
    ASSERT_TRUE(std::holds_alternative<FoliageError>(missing));
    EXPECT_EQ(std::get<FoliageError>(missing).key, "foliage[0].mesh");
    EXPECT_EQ(std::get<FoliageError>(missing).reason.rfind("foliage 'm': ", 0), 0u);
    f.mesh = "assets/meshes/biped.glb";
    auto skinned = loadFoliage(f, "foliage[0]", test::sourceDir(), 0.0);
    ASSERT_TRUE(std::holds_alternative<FoliageError>(skinned));
    EXPECT_EQ(std::get<FoliageError>(skinned).key, "foliage[0].mesh");
    EXPECT_NE(std::get<FoliageError>(skinned).reason.find("is skinned"), std::string::npos);
}

// ---- the wind's bend -------------------------------------------------------------------------

constexpr glm::vec4 kSway{0.3f, 1.0f, 40.0f, 0.85f}; // phase, stiffness, height, max lean

WindSettings steadyWind(double strength) {
    WindSettings w;
    w.directionDeg = 0.0;
    w.strength = strength;
    w.gustAmount = 0.0;
    w.gustHz = 0.0; // no gusts, no flutter in time: a steady lean of `strength` (+ flutter)
    return w;
}

TEST(FoliageWind, TheRootStaysAndTheTipMovesMostDownwind) {
    const WindState wind = windAt(steadyWind(0.3), 2.0, {});
    const glm::mat4 model(1.0f);
    EXPECT_EQ(windOffset(wind, {0, 0, 0}, kSway, model), glm::vec3(0.0f));
    float last = 0.0f;
    for (float z : {5.0f, 10.0f, 20.0f, 30.0f, 40.0f}) {
        const glm::vec3 offset = windOffset(wind, {1, 2, z}, kSway, model);
        EXPECT_GT(offset.x, last); // grows with height
        EXPECT_LE(offset.z, 0.0f); // bending lowers it
        last = offset.x;
    }
    // At the tip: lean x height along the wind, within the flutter (15 %) and sideways 10 %.
    const glm::vec3 tip = windOffset(wind, {0, 0, 40}, kSway, model);
    EXPECT_NEAR(tip.x, 0.3f * 40.0f, 0.15f * 0.3f * 40.0f);
    EXPECT_LE(std::abs(tip.y), 0.1f * 0.3f * 40.0f + 1e-4f);
    // Its distance from the root holds (the bend turns it over, not out).
    const glm::vec3 bent = glm::vec3(0, 0, 40) + tip;
    EXPECT_NEAR(glm::length(bent), 40.0f, 40.0f * 0.02f);
}

TEST(FoliageWind, StiffnessScaleAndTheCap) {
    const WindState wind = windAt(steadyWind(0.3), 1.0, {});
    const glm::vec3 soft = windOffset(wind, {0, 0, 40}, kSway, glm::mat4(1.0f));
    glm::vec4 stiff = kSway;
    stiff.y = 3.0f;
    EXPECT_NEAR(windOffset(wind, {0, 0, 40}, stiff, glm::mat4(1.0f)).x, soft.x / 3.0f, 0.05f);
    // Twice the size: twice the offset (a turn about Z does not change the wind's direction).
    const glm::mat4 big =
        glm::rotate(glm::scale(glm::mat4(1.0f), glm::vec3(2.0f)), 1.0f, glm::vec3(0, 0, 1));
    EXPECT_NEAR(glm::length(windOffset(wind, {0, 0, 40}, kSway, big)), 2.0f * glm::length(soft),
                1e-3f);
    // A gale leans it no further than max_lean.
    const WindState gale = windAt(steadyWind(2.0), 1.0, {});
    EXPECT_NEAR(glm::length(plantLean(gale, {0, 0, 0}, 40.0f, kSway)), 0.85f, 1e-5f);
}

TEST(FoliageWind, GustsSweepDownwind) {
    WindSettings w = steadyWind(0.3);
    w.gustHz = 0.5;
    w.gustAmount = 1.0;
    w.gustWavelengthCm = 400.0;
    // A plant 100 cm downwind sees the gust a quarter period (0.5 s) later; only the flutter
    // (15 % of the strength, its own frequency) differs between the two.
    const glm::vec4 sway{0.0f, 1.0f, 40.0f, 0.85f};
    const auto leanX = [&](double t, float x) {
        return plantLean(windAt(w, t, {}), {x, 0, 0}, 40.0f, sway).x;
    };
    for (double t : {0.1, 0.7, 1.3})
        EXPECT_NEAR(leanX(t, 0.0f), leanX(t + 0.5, 100.0f), 2.0f * 0.15f * 0.3f);
    // ... and the gust is there: half a period apart, the lean at one plant swings widely.
    EXPECT_GT(std::abs(leanX(0.5, 0.0f) - leanX(1.5, 0.0f)), 0.4f);
}

TEST(FoliageWind, DeformersPushPlantsAwayWithinTheirReach) {
    WindSettings w = steadyWind(0.0); // calm: only the push
    w.pushMarginCm = 20.0;
    w.pushLean = 0.5;
    const WindPusher walker{{0.0f, 0.0f}, -30.0f, 25.0f};
    const WindState wind = windAt(w, 0.0, {&walker, 1});
    const glm::vec4 sway{0.0f, 1.0f, 40.0f, 0.85f};
    const glm::vec2 inside = plantLean(wind, {0, 10, -30}, 40.0f, sway);
    EXPECT_NEAR(inside.y, 0.5f, 1e-5f); // within its radius: the full lean, away (+y)
    EXPECT_NEAR(inside.x, 0.0f, 1e-5f);
    const glm::vec2 edge = plantLean(wind, {-35, 0, -30}, 40.0f, sway);
    EXPECT_LT(edge.x, -0.05f); // half way through the margin: less, still away (-x)
    EXPECT_GT(edge.x, -0.5f);
    EXPECT_EQ(plantLean(wind, {50, 0, -30}, 40.0f, sway), glm::vec2(0.0f)); // out of reach
    // A deformer that passes above the plant's top does not bend it.
    const WindPusher high{{0.0f, 0.0f}, 20.0f, 25.0f};
    EXPECT_EQ(plantLean(windAt(w, 0.0, {&high, 1}), {0, 10, -30}, 40.0f, sway), glm::vec2(0.0f));
}

} // namespace
} // namespace snowcap
