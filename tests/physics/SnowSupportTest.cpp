// The snowpack support without GL (src/core/support_law.cpp, src/physics/snow_support.cpp):
// which sim holds the bodies up (physics.support_sim) and the one line for a bad value, the
// bearing law against the shallow-snow sinkage it comes from, and a body resting on the
// heightfield made from a snowpack state handed to the world as plain arrays.
#include "core/support_law.hpp"
#include "physics/PhysicsTestSupport.hpp"
#include "physics/PhysicsWorldSupport.hpp"
#include "physics/physics_world.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

using test::failure;
using test::made;

// Sim a decays, sim b is a snowpack of `densityKgM3` 30 cm deep (rho_f 450) over 64 texels of
// 4 cm about the origin; the snow's top at z = 0, the ground at z = -30.
Settings packSettings(double densityKgM3 = 150.0) {
    Settings settings = test::physicsSnow();
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    settings.snow.regionCentreCm = {0.0, 0.0};
    settings.sims[1].model = SimModel::Snowpack;
    settings.sims[1].snowpack.depthCm = 30.0;
    settings.sims[1].snowpack.densityKgM3 = densityKgM3;
    settings.sims[1].snowpack.maxDensityKgM3 = 450.0;
    return settings;
}

// A uniform state of the plan's region: every column `depthCm` deep holding `massKgM2`.
SupportColumns uniformColumns(const SupportPlan& plan, float depthCm, float massKgM2) {
    SupportColumns columns;
    columns.region = plan.region;
    const std::size_t texels = std::size_t(plan.region.resolution) * plan.region.resolution;
    for (std::size_t k = 0; k < texels; ++k) {
        columns.depthMass.push_back(depthCm);
        columns.depthMass.push_back(massKgM2);
    }
    return columns;
}

TEST(SnowSupport, TheFirstSnowpackSimHoldsTheBodiesUpByDefault) {
    Settings settings = test::physicsSnow();
    auto plan = supportPlan(settings);
    ASSERT_TRUE(std::holds_alternative<SupportPlan>(plan));
    EXPECT_EQ(std::get<SupportPlan>(plan).sim, -1); // two decay sims: the ground
    EXPECT_EQ(std::get<SupportPlan>(plan).name(), "ground");
    EXPECT_EQ(std::get<SupportPlan>(plan).groundZCm, -30.0);

    settings = packSettings();
    plan = supportPlan(settings);
    EXPECT_EQ(std::get<SupportPlan>(plan).sim, 1);
    EXPECT_EQ(std::get<SupportPlan>(plan).name(), "sim.b");
    EXPECT_EQ(std::get<SupportPlan>(plan).region.resolution, 64);
    // 30 cm of 150 kg/m3 bears at 30 x 150 / 450 = 10 cm above the ground (and the 1 mm lift).
    EXPECT_NEAR(std::get<SupportPlan>(plan).initialBearingZCm, -20.0 + kSupportLiftCm, 1e-4);

    settings.physics.supportSim = "ground";
    EXPECT_EQ(std::get<SupportPlan>(supportPlan(settings)).sim, -1);
    settings.physics.supportSim = "a"; // a decay sim: its mask carries nothing
    EXPECT_EQ(std::get<SupportPlan>(supportPlan(settings)).sim, -1);
    settings.physics.supportSim = "b";
    EXPECT_EQ(std::get<SupportPlan>(supportPlan(settings)).sim, 1);
}

TEST(SnowSupport, ABadSupportSimIsOneLineNamingTheKey) {
    Settings settings = packSettings();
    settings.bodies = {test::sphereBody("ball", {0.0f, 0.0f, 20.0f})};
    for (const char* bad : {"c", "B", "snow"}) {
        settings.physics.supportSim = bad;
        const std::string line = failure(settings);
        EXPECT_EQ(line.rfind("key 'physics.support_sim': no sim \"" + std::string(bad) + "\"", 0),
                  0u)
            << line;
        EXPECT_NE(line.find("the sims are \"a\", \"b\""), std::string::npos) << line;
        EXPECT_EQ(line.find('\n'), std::string::npos);
    }
}

TEST(SnowSupport, TheBearingLawIsTheShallowSnowSinkage) {
    // Shallow snow sinkage (CRREL 95-7): z = h (1 - rho0 / rho_f), over its test snow (10-37 cm
    // of 110-250 kg/m3) and its final densities (500-650 kg/m3).
    for (float h : {10.0f, 22.0f, 37.0f})
        for (float rho0 : {110.0f, 180.0f, 250.0f})
            for (float rhoF : {500.0f, 550.0f, 650.0f}) {
                const float mass = h * 0.01f * rho0;
                const float sinkage = h - bearingHeightCm(h, mass, rhoF);
                EXPECT_NEAR(sinkage, h * (1.0f - rho0 / rhoF), 1e-4f) << h << " " << rho0;
            }
    // Snow already packed to rho_f bears at its own top: no further sinkage.
    EXPECT_FLOAT_EQ(bearingHeightCm(8.0f, 8.0f * 0.01f * 450.0f, 450.0f), 8.0f);
    // Never above the column's top (a column denser than rho_f stays as it is).
    EXPECT_FLOAT_EQ(bearingHeightCm(5.0f, 5.0f * 0.01f * 600.0f, 450.0f), 5.0f);
    EXPECT_FLOAT_EQ(bearingHeightCm(0.0f, 0.0f, 450.0f), 0.0f);
}

TEST(SnowSupport, ABodyRestsOnTheBearingSurfaceOfTheStateItWasHanded) {
    Settings settings = packSettings(150.0);
    BodySettings ball = test::sphereBody("ball", {10.0f, -6.0f, 15.0f}, 10.0f);
    ball.restitution = 0.0;
    // One outside the snowpack's region (256 cm about the origin) stands on the ground.
    BodySettings outside = test::sphereBody("outside", {400.0f, 0.0f, 15.0f}, 10.0f);
    outside.restitution = 0.0;
    settings.bodies = {ball, outside};
    auto world = made(settings);
    ASSERT_TRUE(world);
    const SupportPlan& plan = world->supportPlan();
    ASSERT_EQ(plan.sim, 1);
    world->stepTo(2.0);
    const double bearing = -20.0 + kSupportLiftCm; // the untouched snow's
    EXPECT_NEAR(world->positionCm(0).z - 10.0, bearing, 0.1);
    EXPECT_NEAR(world->supportZCmAt({10.0, -6.0}), bearing, 1e-4);
    EXPECT_NEAR(world->positionCm(1).z - 10.0, -30.0, 0.1);
    EXPECT_TRUE(world->resting(0));

    // A state whose columns were packed to 450 kg/m3 and lost a third of their mass (ploughed):
    // 20 cm of 150 kg/m3's mass, 6.67 cm at rho_f. The ball sinks to it.
    world->setSupport(uniformColumns(plan, 6.6667f, 0.2f * 150.0f));
    world->stepTo(4.0);
    EXPECT_NEAR(world->positionCm(0).z - 10.0, -30.0 + 6.6667 + kSupportLiftCm, 0.1);
    const PhysicsReport report = world->report();
    EXPECT_EQ(report.support, "sim.b");
    EXPECT_EQ(report.supportUpdates, 1);

    // Kept across a restart: the world starts over on the last state it took.
    world->stepTo(0.0);
    world->stepTo(2.0);
    EXPECT_NEAR(world->positionCm(0).z - 10.0, -30.0 + 6.6667 + kSupportLiftCm, 0.1);
}

TEST(SnowSupport, TheWindowReadIsAroundTheBodiesAfterAWholeState) {
    Settings settings = packSettings(150.0);
    BodySettings ball = test::sphereBody("ball", {10.0f, -6.0f, 15.0f}, 10.0f);
    ball.restitution = 0.0;
    settings.bodies = {ball};
    auto world = made(settings);
    ASSERT_TRUE(world);
    const Region region = world->supportPlan().region; // 64 texels of 4 cm about the origin
    const SupportWindow whole = wholeWindow(region);
    const double frame = 1.0 / 60.0;
    // No state taken yet: the whole region.
    EXPECT_EQ(world->supportWindow(region, frame), whole);
    world->setSupport(uniformColumns(world->supportPlan(), 30.0f, 45.0f)); // the untouched snow
    world->stepTo(2.0);
    ASSERT_TRUE(world->resting(0));
    const SupportWindow window = world->supportWindow(region, world->timeS() + frame);
    // The ball's box (20 cm across, where it came to rest) grown by 4 texels and 5 cm (21 cm),
    // and no more than a texel each side for the rest of the growth and the rounding.
    const glm::dvec2 at(world->positionCm(0));
    const glm::ivec2 low = worldToTexel(at - 31.0, region), high = worldToTexel(at + 31.0, region);
    EXPECT_TRUE(window.contains({low, high - low + 1}));
    EXPECT_TRUE(SupportWindow({low - 1, high - low + 3}).contains(window));
    // Another region, a time before now (the world starts over), a reset: the whole region.
    Region moved = region;
    moved.centreCm.x += region.texelCm();
    EXPECT_EQ(world->supportWindow(moved, world->timeS() + frame), whole);
    EXPECT_EQ(world->supportWindow(region, 1.0), whole);

    // A window's columns replace its texels' heights only.
    const double bearing = -20.0 + kSupportLiftCm; // the untouched snow's
    SupportColumns part;
    part.region = region;
    part.window = window;
    for (long long k = 0; k < window.texels(); ++k)
        part.depthMass.insert(part.depthMass.end(), {6.6667f, 0.2f * 150.0f});
    world->setSupport(part);
    EXPECT_NEAR(world->supportZCmAt({10.0, -6.0}), -30.0 + 6.6667 + kSupportLiftCm, 1e-4);
    EXPECT_NEAR(world->supportZCmAt({-100.0, 100.0}), bearing, 1e-4);
    EXPECT_EQ(world->report().supportUpdates, 2);
    // ... of that region only, and of the window's size.
    SupportColumns elsewhere = part;
    elsewhere.region = moved;
    world->setSupport(elsewhere);
    part.depthMass.pop_back();
    world->setSupport(part);
    EXPECT_EQ(world->report().supportUpdates, 2);

    world->reset();
    EXPECT_EQ(world->supportWindow(region, frame), whole);
    // On the ground there is nothing to read.
    Settings ground = test::physicsSnow();
    ground.bodies = {ball};
    auto onGround = made(ground);
    ASSERT_TRUE(onGround);
    EXPECT_EQ(onGround->supportWindow(region, frame).texels(), 0);
}

TEST(SnowSupport, ABodyStartingInsideTheBearingSurfaceIsOneLine) {
    Settings settings = packSettings(150.0);
    // Its bottom at -25, 5 cm below the bearing surface at -20 and above the ground at -30.
    settings.bodies = {test::sphereBody("buried", {0.0f, 0.0f, -15.0f}, 10.0f)};
    const std::string line = failure(settings);
    EXPECT_EQ(line.rfind("key 'body[0].position_cm': body 'buried' starts ", 0), 0u) << line;
    EXPECT_NE(line.find("into the snow's bearing surface (sim.b"), std::string::npos) << line;
}

TEST(SnowSupport, AVehicleStartsWithItsWheelsOnTheBearingSurface) {
    Settings settings = packSettings(150.0);
    // Its rear wheels (40 cm behind its centre) inside the region too.
    settings.vehicles = {test::straightCar("car", -60.0f, 100.0f)};
    auto world = made(settings);
    ASSERT_TRUE(world);
    world->stepTo(0.5);
    // Its wheels stand on the bearing surface 10 cm above the ground: each wheel's hub is one
    // radius (20 cm) above it.
    for (int w = 0; w < 4; ++w) {
        const glm::mat4 hub = world->poseOf(1 + std::size_t(w));
        EXPECT_NEAR(hub[3].z, -20.0 + kSupportLiftCm + 20.0, 0.5) << w;
    }
    const PhysicsReport report = world->report();
    ASSERT_EQ(report.vehicleReports.size(), 1u);
    ASSERT_EQ(report.vehicleReports[0].passes.size(), 1u);
    // The top it meets is the untouched snow's (no state handed yet): 20 cm into it.
    EXPECT_NEAR(report.vehicleReports[0].passes[0].sinkageCm, 20.0 - kSupportLiftCm, 0.5);
    EXPECT_NEAR(report.vehicleReports[0].meanSinkageCm, 20.0 - kSupportLiftCm, 0.5);
}

} // namespace
} // namespace snowcap
