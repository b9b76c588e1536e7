// Bodies in the mud's prints through the whole lab (a 128² field on the driver): a box deformer
// stands 3 cm into the bare mud under a thin snowpack and leaves a print there; a ball dropped
// into that print comes to rest on the print's bottom, 3 cm below the one dropped beside it on
// the flat mud. This is the frame's path (Lab::feedSupport hands the read's prints to the
// support), not the support alone (MudPrintSupport.*, CPU).
#include "physics/PhysicsLabSupport.hpp"
#include "physics/PhysicsTestSupport.hpp"
#include "snow/snowpack_sim.hpp"

#include <cstdio>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr float kRadiusCm = 10.0f;
constexpr float kPrintCm = 3.0f;

// Sim b a snowpack 1 cm deep over mud, the snow's top at z = 0 (the ground at -1); a 30 cm box
// deformer standing still at the origin, its lowest point kPrintCm below the ground; balls
// dropped at the origin (into the print) and 60 cm along x (onto the flat mud).
Settings mudWithAPrint() {
    Settings settings = test::physicsSnow();
    settings.snow.depthCm = 1.0;
    settings.snow.resolution = 128;
    settings.snow.orthoWidthCm = 256.0;
    settings.snow.regionCentreCm = {0.0, 0.0};
    settings.ground.kind = GroundKind::Mud;
    settings.ground.mudPrintMaxCm = 5.0;
    SimSettings& pack = settings.sims[1];
    pack.model = SimModel::Snowpack;
    pack.snowpack.depthCm = 1.0;
    DeformerSettings box;
    box.name = "stamp";
    box.shape = DeformerShape::Box;
    box.sizeCm = {15.0f, 15.0f, 10.0f};
    box.path = {{0.0, {0.0f, 0.0f, -kPrintCm}}};
    settings.deformers = {box};
    for (const auto& [name, x] : {std::pair{"in_print", 1.0f}, std::pair{"on_mud", 61.0f}}) {
        BodySettings ball = test::sphereBody(name, {x, 1.0f, 12.0f}, kRadiusCm);
        ball.massKg = 4.0;
        ball.restitution = 0.0;
        settings.bodies.push_back(ball);
    }
    return settings;
}

TEST(MudPrintLabGL, ABallDroppedIntoAPrintRestsOnItsBottom) {
    const Settings settings = mudWithAPrint();
    auto lab = test::makeLab(settings, "mud_print");
    ASSERT_TRUE(lab);
    ASSERT_TRUE(lab->physics());
    test::run(*lab, 2.0);
    const float earlyZ = lab->physics()->positionCm(0).z;
    for (int i = 0; i < 60; ++i) // one more second: come to rest, not creeping down
        lab->stepTo(2.0 + (i + 1) * lab->fixedDtS(), lab->fixedDtS());
    const SnowpackSim& pack = *lab->field().snowpack(1);
    const Region& region = pack.region();
    const glm::ivec2 under = worldToTexel({1.0, 1.0}, region);
    const SnowColumn column = pack.readBack()[std::size_t(under.y * region.resolution + under.x)];
    // The stamp's print (the ball's landing may press it a little deeper), the snow ploughed away.
    EXPECT_NEAR(column.groundPrintCm, kPrintCm + 0.1f, 0.15f);
    EXPECT_LT(column.depthCm, 1e-4f);
    const float groundZ = float(settings.snow.surfaceZCm - settings.snow.depthCm);
    const float inPrint = lab->physics()->positionCm(0).z - kRadiusCm;
    const float onMud = lab->physics()->positionCm(1).z - kRadiusCm;
    std::printf(
        "[ figures ] ball bottoms: in the print %.4f cm, on the mud %.4f cm (ground %.1f)\n",
        inPrint, onMud, groundZ);
    EXPECT_NEAR(lab->physics()->positionCm(0).z, earlyZ, 0.05f);
    EXPECT_NEAR(inPrint, groundZ - kPrintCm, 0.1f);
    EXPECT_GT(onMud, groundZ - 0.3f);     // on the thin snow over flat mud, not in a print
    EXPECT_GT(onMud - inPrint, kPrintCm); // without the print it rests on the mud's level
}

} // namespace
} // namespace snowcap
