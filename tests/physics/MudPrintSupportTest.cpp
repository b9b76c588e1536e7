// The snowpack support over a ground that takes prints ([ground] kind = "mud", docs/ground.md
// section 5, docs/physics.md section 2.1): where the snow has gone and a print is in the mud, a
// body or a wheel sits in the print, the ground's surface at -print; outside the region the
// ground holds them at its own height, as where no print can be.
#include "core/support_law.hpp"
#include "physics/PhysicsTestSupport.hpp"
#include "physics/PhysicsWorldSupport.hpp"
#include "physics/physics_world.hpp"

#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

using test::made;

constexpr float kPrintCm = 3.0f;

// Sim b a snowpack 30 cm deep (rho_f 450) over 64 texels of 4 cm about the origin, on mud that
// takes prints 5 cm deep at most; the snow's top at z = 0, the ground at z = -30.
Settings mudSettings() {
    Settings settings = test::physicsSnow();
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    settings.snow.regionCentreCm = {0.0, 0.0};
    settings.sims[1].model = SimModel::Snowpack;
    settings.sims[1].snowpack.depthCm = 30.0;
    settings.sims[1].snowpack.densityKgM3 = 150.0;
    settings.sims[1].snowpack.maxDensityKgM3 = 450.0;
    settings.ground.kind = GroundKind::Mud;
    settings.ground.mudPrintMaxCm = 5.0;
    return settings;
}

// The snow gone from the whole region (bare mud): a print `printCm` deep over the texels
// [x0, x1) x [y0, y1), flat mud elsewhere; no prints at all with `withPrints` false.
SupportColumns bareMud(const Region& region, int x0, int y0, int x1, int y1, float printCm,
                       bool withPrints = true) {
    SupportColumns columns;
    columns.region = region;
    const int n = region.resolution;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            columns.depthMass.insert(columns.depthMass.end(), {0.0f, 0.0f});
            const bool in = x >= x0 && x < x1 && y >= y0 && y < y1;
            if (withPrints)
                columns.printCm.push_back(in ? printCm : 0.0f);
        }
    return columns;
}

TEST(MudPrintSupport, ABodyOnBareMudSitsInThePrint) {
    Settings settings = mudSettings();
    // Ball 0 over the print (texels 8..24: x, y in [-96, -32) cm), ball 1 over flat bare mud,
    // ball 2 outside the region (256 cm about the origin).
    BodySettings inPrint = test::sphereBody("in_print", {-64.0f, -64.0f, 15.0f}, 10.0f);
    BodySettings flat = test::sphereBody("flat", {64.0f, 64.0f, 15.0f}, 10.0f);
    BodySettings outside = test::sphereBody("outside", {400.0f, 0.0f, 15.0f}, 10.0f);
    for (BodySettings* b : {&inPrint, &flat, &outside})
        b->restitution = 0.0;
    settings.bodies = {inPrint, flat, outside};
    auto world = made(settings);
    ASSERT_TRUE(world);
    const Region region = world->supportPlan().region;
    world->setSupport(bareMud(region, 8, 8, 24, 24, kPrintCm));
    world->stepTo(3.0);
    const double ground = -30.0;
    const double inPrintZ = world->positionCm(0).z - 10.0;
    const double flatZ = world->positionCm(1).z - 10.0;
    const double outsideZ = world->positionCm(2).z - 10.0;
    std::printf("bare mud: a ball in a %.1f cm print rests at %.4f cm, one on the flat mud at "
                "%.4f (%.4f lower in the print), one outside the region at %.4f; the support "
                "%.4f in the print, %.4f on the flat\n",
                kPrintCm, inPrintZ, flatZ, flatZ - inPrintZ, outsideZ,
                world->supportZCmAt({-64.0, -64.0}), world->supportZCmAt({64.0, 64.0}));
    EXPECT_TRUE(world->resting(0));
    EXPECT_TRUE(world->resting(1));
    // Bullet leaves a resting body a fraction of a millimetre inside what it rests on.
    EXPECT_NEAR(inPrintZ, ground - kPrintCm + kSupportLiftCm, 0.1);
    EXPECT_NEAR(flatZ, ground + kSupportLiftCm, 0.1);
    EXPECT_NEAR(flatZ - inPrintZ, kPrintCm, 0.05);
    EXPECT_NEAR(outsideZ, ground, 0.1); // the frame: the ground's own height
    EXPECT_NEAR(world->supportZCmAt({-64.0, -64.0}), ground - kPrintCm + kSupportLiftCm, 1e-4);

    // The same state read without its prints (a ground that takes none): both on the flat.
    world->setSupport(bareMud(region, 8, 8, 24, 24, kPrintCm, false));
    world->stepTo(0.0);
    world->stepTo(3.0);
    EXPECT_NEAR(world->positionCm(0).z - 10.0, ground + kSupportLiftCm, 0.1);
    // Prints of the wrong count are refused, as columns of the wrong size are.
    SupportColumns wrong = bareMud(region, 8, 8, 24, 24, kPrintCm);
    wrong.printCm.pop_back();
    const long long updates = world->report().supportUpdates;
    world->setSupport(wrong);
    EXPECT_EQ(world->report().supportUpdates, updates);
}

TEST(MudPrintSupport, SnowInAPrintBearsFromThePrintsBottom) {
    Settings settings = mudSettings();
    BodySettings ball = test::sphereBody("ball", {-64.0f, -64.0f, 15.0f}, 10.0f);
    ball.restitution = 0.0;
    settings.bodies = {ball};
    auto world = made(settings);
    ASSERT_TRUE(world);
    const Region region = world->supportPlan().region;
    // 6 cm of snow packed to rho_f standing in the 3 cm print: its top 3 cm above the ground.
    SupportColumns columns = bareMud(region, 8, 8, 24, 24, kPrintCm);
    for (std::size_t k = 0; k < columns.printCm.size(); ++k)
        if (columns.printCm[k] > 0.0f) {
            columns.depthMass[2 * k] = 6.0f;
            columns.depthMass[2 * k + 1] = 6.0f * 0.01f * 450.0f;
        }
    world->setSupport(columns);
    world->stepTo(3.0);
    EXPECT_NEAR(world->positionCm(0).z - 10.0, -30.0 - kPrintCm + 6.0 + kSupportLiftCm, 0.1);
}

TEST(MudPrintSupport, AVehiclesWheelsSitInThePrints) {
    Settings settings = mudSettings();
    settings.vehicles = {test::straightCar("car", -60.0f, 100.0f, 20.0)};
    for (const bool printed : {false, true}) {
        auto world = made(settings);
        ASSERT_TRUE(world);
        // The whole region a print (bare mud 3 cm down), or flat bare mud.
        world->setSupport(
            bareMud(world->supportPlan().region, 0, 0, 64, 64, printed ? kPrintCm : 0.0f));
        world->stepTo(2.0);
        const double ground = -30.0 - (printed ? kPrintCm : 0.0f);
        for (int w = 0; w < 4; ++w) {
            const glm::mat4 hub = world->poseOf(1 + std::size_t(w));
            EXPECT_NEAR(hub[3].z, ground + kSupportLiftCm + 20.0, 0.5) << w << " " << printed;
            if (w == 0)
                std::printf("a wheel of radius 20 cm on bare mud %s: its hub at %.3f cm\n",
                            printed ? "3 cm down in a print" : "(flat)", hub[3].z);
        }
    }
}

} // namespace
} // namespace snowcap
