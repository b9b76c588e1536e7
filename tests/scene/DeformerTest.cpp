// Deformers built from scenario entries: placement on the ground under the snow, the scale /
// rotation / offset / fit overrides, facing along the path, root motion, clips by name or
// index, and the player driven by input (no window, no GL).
#include "scene/deformer.hpp"

#include "TestSupport.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

namespace snowcap {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kGround = -30.0; // surface 0, 30 cm of snow

Aabb worldBounds(const Deformer& deformer, double t) {
    Aabb box{glm::vec3(1e30f), glm::vec3(-1e30f)};
    const glm::mat4 model = deformer.modelAt(t);
    for (const glm::vec3& p : deformer.mesh.positions) {
        const glm::vec3 q = glm::vec3(model * glm::vec4(p, 1.0f));
        box.min = glm::min(box.min, q);
        box.max = glm::max(box.max, q);
    }
    return box;
}

DeformerSettings sphereAt(glm::vec3 position) {
    DeformerSettings settings;
    settings.name = "ball";
    settings.shape = DeformerShape::Sphere;
    settings.sizeCm = glm::vec3(25.0f);
    settings.path = {{0.0, position}};
    return settings;
}

TEST(DeformerPlacement, OnTheGroundByDefault) {
    EXPECT_DOUBLE_EQ(groundZCm(SnowSettings{}), -30.0);
    SnowSettings deep;
    deep.surfaceZCm = 12.0;
    deep.depthCm = 50.0;
    EXPECT_DOUBLE_EQ(groundZCm(deep), -38.0);

    const Aabb box = worldBounds(makeDeformer(sphereAt({40, -20, 0}), kGround), 0.0);
    EXPECT_NEAR(box.min.z, kGround, 1e-3); // stands on the ground: through all the snow
    EXPECT_NEAR(box.max.z, kGround + 50.0, 1e-3);
    EXPECT_NEAR(0.5f * (box.min.x + box.max.x), 40.0, 1e-3);
    EXPECT_NEAR(0.5f * (box.min.y + box.max.y), -20.0, 1e-3);
    // The path's z is a height above the ground.
    EXPECT_NEAR(worldBounds(makeDeformer(sphereAt({0, 0, 12}), kGround), 0.0).min.z, kGround + 12.0,
                1e-3);
}

// A plane rising 20 degrees towards +X through height 0 at x = 0: seven columns 20 m apart
// (bilinear heights of a linear field are exact, and so are the normal's central differences
// a cell apart within 40 m of the middle).
std::shared_ptr<const HeightField> ramp20() {
    std::vector<float> heights;
    for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 7; ++column)
            heights.push_back(float((column - 3) * 20.0 * std::tan(20.0 * kPi / 180.0)));
    return std::make_shared<const HeightField>(7, 3, heights, glm::dvec2(0.0),
                                               glm::dvec2(14000.0, 6000.0));
}

TEST(DeformerPlacement, DrapedStandsOnTheSnowTopUnderItWhereverItGoes) {
    SnowSettings snow;
    snow.surfaceZCm = 12.0;
    snow.depthCm = 40.0;
    const auto terrain = ramp20();
    const DeformerGround ground(snow, terrain);
    DeformerSettings settings = sphereAt({0, 0, -5});
    settings.placement = DeformerSettings::Placement::Draped;
    settings.pathKind = DeformerSettings::PathKind::Polyline;
    settings.waypointsCm = {{-500, 30, -5}, {500, 30, -5}};
    settings.speedCmS = 100.0;
    const Deformer walker = makeDeformer(settings, ground);
    // Its placement point (the lowest point of the shape) 5 cm below the snow top under it, at
    // every moment of the walk (not only at its waypoints): the top is surface_z_cm plus the
    // terrain's height there. A rigid shape lies on the slope: its up is the terrain's normal.
    const glm::dvec3 normal = terrain->normal(0.0, 0.0);
    EXPECT_NEAR(normal.z, std::cos(20.0 * kPi / 180.0), 1e-6);
    for (double t : {0.0, 2.5, 5.0, 7.3, 10.0}) {
        SCOPED_TRACE(t);
        const glm::mat4 model = walker.modelAt(t);
        const double x = model[3].x;
        EXPECT_NEAR(x, -500.0 + 100.0 * t, 1e-3);
        EXPECT_NEAR(model[3].z, 12.0 + terrain->heightCm(x, 30.0) - 5.0, 1e-3);
        EXPECT_NEAR(glm::distance(glm::dvec3(glm::vec3(model[2])), normal), 0.0, 1e-6);
        // The sphere touches the slope's parallel 5 cm under the top at its placement point.
        const glm::vec3 centre(model * glm::vec4(0.0f, 0.0f, 12.5f, 1.0f));
        EXPECT_NEAR(
            glm::distance(glm::dvec3(centre), glm::dvec3(glm::vec3(model[3])) + normal * 12.5), 0.0,
            1e-3);
    }
    EXPECT_NEAR(walker.positionAt(10.0).z, 12.0 + 500.0 * std::tan(20.0 * kPi / 180.0) - 5.0, 1e-3);
    // A skinned deformer stands upright, its feet on the slope: a point at the root's height
    // and 30 cm uphill or 10 cm aside lands on the slope's tangent plane, 5 cm under the top.
    Deformer skinned = makeDeformer(settings, ground);
    skinned.skin = DeformerSkin{};
    for (double t : {2.5, 7.3}) {
        SCOPED_TRACE(t);
        const glm::mat4 model = skinned.modelAt(t);
        EXPECT_NEAR(glm::distance(glm::vec3(model[2]), glm::vec3(0.0f, 0.0f, 1.0f)), 0.0f, 1e-6f);
        for (const glm::vec2 foot : {glm::vec2(30.0f, 0.0f), glm::vec2(-30.0f, 10.0f)}) {
            const glm::vec3 at(model * glm::vec4(foot, 0.0f, 1.0f));
            EXPECT_NEAR(at.z, 12.0 + terrain->heightCm(at.x, at.y) - 5.0, 1e-3);
        }
    }
    // "ground" keeps the flat ground whatever the terrain: a scenario made for flat snow
    // keeps its heights.
    settings.placement = DeformerSettings::Placement::Ground;
    EXPECT_NEAR(worldBounds(makeDeformer(settings, ground), 10.0).min.z, -28.0 - 5.0, 1e-3);
    // On flat terrain draped is measured from surface_z_cm.
    settings.placement = DeformerSettings::Placement::Draped;
    EXPECT_NEAR(worldBounds(makeDeformer(settings, DeformerGround(snow, nullptr)), 10.0).min.z,
                12.0 - 5.0, 1e-3);
    // The player walks the hill too: driven 3 m uphill, it stands on the top there.
    settings.player = true;
    Deformer player = makeDeformer(settings, ground);
    player.drive({1.0f, 0.0f}, 3.0);
    EXPECT_NEAR(player.positionAt(0.0).x, -200.0, 1e-3);
    EXPECT_NEAR(player.positionAt(0.0).z, 12.0 + terrain->heightCm(-200.0, 30.0) - 5.0, 1e-3);
}

TEST(DeformerPlacement, AbsoluteZPutsTheShapesCentreThere) {
    DeformerSettings settings = sphereAt({0, 0, -20});
    settings.placement = DeformerSettings::Placement::Absolute;
    const Aabb box = worldBounds(makeDeformer(settings, kGround), 0.0);
    EXPECT_NEAR(box.min.z, -45.0, 1e-3);
    EXPECT_NEAR(box.max.z, 5.0, 1e-3);
}

TEST(DeformerPlacement, MeshesStandOnTheGroundToo) {
    DeformerSettings settings;
    settings.name = "boot";
    settings.mesh = "assets/meshes/boot.glb";
    settings.path = {{0.0, {100, 50, 0}}};
    auto made = loadDeformer(settings, test::sourceDir(), kGround);
    ASSERT_TRUE(std::holds_alternative<Deformer>(made)) << std::get<std::string>(made);
    const Aabb box = worldBounds(std::get<Deformer>(made), 0.0);
    EXPECT_NEAR(box.min.z, kGround, 1e-3);
    EXPECT_NEAR(box.max.z - box.min.z, 26.0, 0.05); // the boot's measured height
    settings.placement = DeformerSettings::Placement::Absolute;
    auto absolute = loadDeformer(settings, test::sourceDir(), kGround);
    ASSERT_TRUE(std::holds_alternative<Deformer>(absolute));
    EXPECT_NEAR(worldBounds(std::get<Deformer>(absolute), 0.0).min.z, 0.0, 1e-3);
}

TEST(DeformerWarnings, AMeshOutOfHumanScaleIsWarnedAboutOnceOnLoad) {
    // The boot at scale 0.001 is a quarter of a millimetre tall: metres read as centimetres.
    DeformerSettings settings;
    settings.name = "boot";
    settings.mesh = "assets/meshes/boot.glb";
    settings.path = {{0.0, {100, 50, 0}}};
    std::vector<std::string> warnings;
    auto sane = loadDeformer(settings, test::sourceDir(), kGround, {}, &warnings);
    ASSERT_TRUE(std::holds_alternative<Deformer>(sane));
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    settings.scale = 0.001;
    std::vector<DeformerSettings> crowd(3, settings); // one file, one set of options: one line
    auto tiny = loadDeformers(crowd, test::sourceDir(), kGround, {}, &warnings);
    ASSERT_TRUE(std::holds_alternative<std::vector<Deformer>>(tiny));
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rfind("deformer 'boot': ", 0), 0u) << warnings[0];
    EXPECT_NE(warnings[0].find("boot.glb: "), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("under human scale"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("fit_height_cm"), std::string::npos) << warnings[0];
}

TEST(DeformerOverrides, ScaleRotationOffsetAndFitApplyToShapes) {
    DeformerSettings settings;
    settings.name = "box";
    settings.shape = DeformerShape::Box;
    settings.sizeCm = {20, 10, 5}; // 40 x 20 x 10 cm
    settings.path = {{0.0, {0, 0, 0}}};
    settings.scale = 2.0;
    Aabb box = worldBounds(makeDeformer(settings, kGround), 0.0);
    EXPECT_NEAR(box.max.x - box.min.x, 80.0, 1e-3);
    EXPECT_NEAR(box.max.z - box.min.z, 20.0, 1e-3);
    EXPECT_NEAR(box.min.z, kGround, 1e-3);

    settings.rotationDeg = {0, 0, 90}; // its long side now along Y
    box = worldBounds(makeDeformer(settings, kGround), 0.0);
    EXPECT_NEAR(box.max.y - box.min.y, 80.0, 1e-3);
    EXPECT_NEAR(box.max.x - box.min.x, 40.0, 1e-3);

    settings.offsetCm = {5, -7, -3}; // after placement: 3 cm into the ground
    box = worldBounds(makeDeformer(settings, kGround), 0.0);
    EXPECT_NEAR(box.min.z, kGround - 3.0, 1e-3);
    EXPECT_NEAR(0.5f * (box.min.x + box.max.x), 5.0, 1e-3);
    EXPECT_NEAR(0.5f * (box.min.y + box.max.y), -7.0, 1e-3);

    settings.fitHeightCm = 50.0; // wins over scale
    box = worldBounds(makeDeformer(settings, kGround), 0.0);
    EXPECT_NEAR(box.max.z - box.min.z, 50.0, 1e-3);
    EXPECT_NEAR(box.max.y - box.min.y, 200.0, 1e-3);
}

TEST(DeformerOverrides, ScaleAndOffsetReachMeshFiles) {
    DeformerSettings settings;
    settings.name = "boot";
    settings.mesh = "assets/meshes/boot.glb";
    settings.path = {{0.0, {0, 0, 0}}};
    settings.scale = 0.5;
    settings.offsetCm = {0, 0, -4};
    auto made = loadDeformer(settings, test::sourceDir(), kGround);
    ASSERT_TRUE(std::holds_alternative<Deformer>(made)) << std::get<std::string>(made);
    const Aabb box = worldBounds(std::get<Deformer>(made), 0.0);
    EXPECT_NEAR(box.max.x - box.min.x, 15.0, 0.05); // 30 cm long at scale 1
    EXPECT_NEAR(box.min.z, kGround - 4.0, 1e-3);
}

TEST(DeformerMotion, FacesAlongEveryPathKind) {
    DeformerSettings settings;
    settings.name = "box";
    settings.shape = DeformerShape::Box;
    settings.sizeCm = {30, 5, 5}; // long along its +X
    settings.facePath = true;
    settings.speedCmS = 100.0;
    settings.pathKind = DeformerSettings::PathKind::Circle;
    settings.circleRadiusCm = 200.0;
    const Deformer circling = makeDeformer(settings, kGround);
    // A quarter lap in: at (0, 200), moving along -X, so the long side lies along X.
    const double quarter = 0.5 * kPi * 200.0 / 100.0;
    const glm::mat4 model = circling.modelAt(quarter);
    const glm::vec3 forward = glm::vec3(model * glm::vec4(1, 0, 0, 0));
    EXPECT_NEAR(forward.x, -1.0, 1e-4);
    EXPECT_NEAR(forward.y, 0.0, 1e-4);
    EXPECT_NEAR(model[3].y, 200.0, 1e-3);

    settings.pathKind = DeformerSettings::PathKind::Polyline;
    settings.waypointsCm = {{0, 0, 0}, {0, -300, 0}};
    const glm::mat4 down = makeDeformer(settings, kGround).modelAt(1.0);
    EXPECT_NEAR((down * glm::vec4(1, 0, 0, 0)).y, -1.0, 1e-4);
    EXPECT_NEAR(down[3].y, -100.0, 1e-3);

    settings.facePath = false; // the mesh keeps its own orientation
    const glm::mat4 fixed = makeDeformer(settings, kGround).modelAt(1.0);
    EXPECT_NEAR((fixed * glm::vec4(1, 0, 0, 0)).x, 1.0, 1e-4);
}

TEST(DeformerMotion, InPlaceStaysAtThePathsStart) {
    DeformerSettings settings = sphereAt({0, 0, 0});
    settings.pathKind = DeformerSettings::PathKind::Polyline;
    settings.waypointsCm = {{-50, 10, 0}, {150, 10, 0}};
    settings.rootMotion = DeformerSettings::RootMotion::InPlace;
    const Deformer deformer = makeDeformer(settings, kGround);
    for (double t : {0.0, 1.0, 5.0})
        EXPECT_EQ(deformer.positionAt(t), glm::vec3(-50, 10, kGround));
}

TEST(DeformerClips, ByNameOrIndex) {
    DeformerSettings settings;
    settings.name = "walker";
    settings.mesh = "assets/meshes/biped.fbx";
    settings.path = {{0.0, {0, 0, 0}}};
    settings.clipIndex = 0;
    auto byIndex = loadDeformer(settings, test::sourceDir(), kGround);
    ASSERT_TRUE(std::holds_alternative<Deformer>(byIndex)) << std::get<std::string>(byIndex);
    ASSERT_TRUE(std::get<Deformer>(byIndex).skin);
    EXPECT_EQ(std::get<Deformer>(byIndex).skin->clip.name, "walk");
    // The same clip by name gives the same pose.
    settings.clipIndex = -1;
    settings.clip = "walk";
    auto byName = loadDeformer(settings, test::sourceDir(), kGround);
    ASSERT_TRUE(std::holds_alternative<Deformer>(byName));
    const auto a = std::get<Deformer>(byIndex).skinningAt(0.3);
    const auto b = std::get<Deformer>(byName).skinningAt(0.3);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t j = 0; j < a.size(); ++j)
        EXPECT_EQ(a[j], b[j]);

    settings.clip = "";
    settings.clipIndex = 3;
    auto missing = loadDeformer(settings, test::sourceDir(), kGround);
    ASSERT_TRUE(std::holds_alternative<std::string>(missing));
    EXPECT_NE(std::get<std::string>(missing).find("deformer 'walker': "), std::string::npos);
    EXPECT_NE(std::get<std::string>(missing).find("has 1 clip, no clip_index 3"),
              std::string::npos);
    settings.clipIndex = -1;
    settings.clip = "run";
    auto unnamed = loadDeformer(settings, test::sourceDir(), kGround);
    ASSERT_TRUE(std::holds_alternative<std::string>(unnamed));
    EXPECT_NE(std::get<std::string>(unnamed).find("has no clip 'run'"), std::string::npos);
    settings.mesh = "assets/meshes/boot.glb";
    auto rigid = loadDeformer(settings, test::sourceDir(), kGround);
    ASSERT_TRUE(std::holds_alternative<std::string>(rigid));
    EXPECT_NE(std::get<std::string>(rigid).find("has no skin"), std::string::npos);
}

// ---- the player --------------------------------------------------------------------------

Deformer makePlayer() {
    DeformerSettings settings = sphereAt({100, 50, 0});
    settings.player = true;
    settings.speedCmS = 120.0;
    return makeDeformer(settings, kGround);
}

TEST(DeformerPlayer, StartsWhereItsPathStartsAndIgnoresTime) {
    const Deformer player = makePlayer();
    ASSERT_TRUE(player.player);
    EXPECT_EQ(player.positionAt(0.0), glm::vec3(100, 50, kGround));
    EXPECT_EQ(player.positionAt(30.0), glm::vec3(100, 50, kGround));
    EXPECT_FALSE(makeDeformer(sphereAt({0, 0, 0}), kGround).player);
}

TEST(DeformerPlayer, MovesAtItsSpeedAndTurnsToFaceItsMotion) {
    Deformer player = makePlayer();
    // One second north (+Y) in 60 frames.
    for (int frame = 0; frame < 60; ++frame)
        player.drive({0.0f, 1.0f}, 1.0 / 60.0);
    EXPECT_NEAR(player.player->positionCm.x, 100.0, 1e-3);
    EXPECT_NEAR(player.player->positionCm.y, 50.0 + 120.0, 1e-2);
    EXPECT_NEAR(player.player->positionCm.z, kGround, 1e-6); // stays on the ground
    EXPECT_NEAR(player.player->headingRad, 0.5 * kPi, 1e-5);
    const glm::mat4 model = player.modelAt(0.0);
    EXPECT_NEAR((model * glm::vec4(1, 0, 0, 0)).y, 1.0, 1e-5); // its +X now points north
    EXPECT_NEAR(model[3].y, 170.0, 1e-2);

    // Turning round takes time: one frame of west input moves it west at once but turns it
    // by at most the turn rate, never past its goal.
    player.drive({-1.0f, 0.0f}, 1.0 / 60.0);
    EXPECT_NEAR(player.player->positionCm.x, 98.0, 1e-3);
    EXPECT_NEAR(player.player->headingRad, 0.5 * kPi + kPlayerTurnRadPerS / 60.0, 1e-5);
    for (int frame = 0; frame < 60; ++frame)
        player.drive({-1.0f, 0.0f}, 1.0 / 60.0);
    EXPECT_NEAR(std::abs(player.player->headingRad), kPi, 1e-5);
}

TEST(DeformerPlayer, InputIsClampedAndBadInputIgnored) {
    Deformer player = makePlayer();
    player.drive({3.0f, 4.0f}, 0.5); // length 5: full speed, no faster
    EXPECT_NEAR(player.player->positionCm.x, 100.0 + 0.6 * 60.0, 1e-3);
    EXPECT_NEAR(player.player->positionCm.y, 50.0 + 0.8 * 60.0, 1e-3);
    const glm::vec3 before = player.player->positionCm;
    const double clip = player.player->clipTimeS;
    player.drive({0.5f, 0.0f}, 1.0); // half tilt: half speed
    EXPECT_NEAR(player.player->positionCm.x, before.x + 60.0, 1e-3);
    EXPECT_NEAR(player.player->clipTimeS, clip + 0.5, 1e-9);
    const glm::vec3 moved = player.player->positionCm;
    player.drive({0.0f, 0.0f}, 1.0);  // idle: stands, clip paused
    player.drive({NAN, 1.0f}, 1.0);   // garbage input
    player.drive({1.0f, 0.0f}, -1.0); // time going back
    player.drive({1.0f, 0.0f}, INFINITY);
    EXPECT_EQ(player.player->positionCm, moved);
    EXPECT_NEAR(player.player->clipTimeS, clip + 0.5, 1e-9);
    player.resetPlayer();
    EXPECT_EQ(player.player->positionCm, glm::vec3(100, 50, kGround));
    EXPECT_EQ(player.player->clipTimeS, 0.0);
}

} // namespace
} // namespace snowcap
