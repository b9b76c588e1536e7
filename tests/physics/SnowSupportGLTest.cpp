// The snowpack support for real (small fields on the driver): a sphere dropped on a snowpack
// rests at the depth the bearing law predicts; a vehicle's second lap through its own ruts
// sinks less than its first; the same run twice gives byte-identical buffers and states at 60
// and at 144 fps; the support sim's state is read back once a frame.
#include "core/support_law.hpp"
#include "lab/run_stats.hpp"
#include "physics/PhysicsLabSupport.hpp"
#include "physics/PhysicsTestSupport.hpp"
#include "snow/snowpack_sim.hpp"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <numbers>

namespace snowcap {
namespace {

using test::run;

// The frames from `fromS` on up to `toS`, at the lab's fixed step.
void runOn(Lab& lab, double fromS, double toS) {
    const double dt = lab.fixedDtS();
    for (long long i = std::llround(fromS / dt); i < std::llround(toS / dt); ++i)
        lab.stepTo(double(i + 1) * dt, dt);
}

// Sim a decays (0.999), sim b is a snowpack 30 cm deep of `densityKgM3` (rho_f 450), on
// `resolution` texels over `widthCm` about the origin; the snow's top at z = 0.
Settings packField(double fps, double densityKgM3, int resolution = 128, double widthCm = 256.0) {
    Settings settings = test::physicsSnow();
    settings.run.fps = fps;
    settings.snow.resolution = resolution;
    settings.snow.orthoWidthCm = widthCm;
    settings.snow.regionCentreCm = {0.0, 0.0};
    settings.sims[0].decay = 0.999;
    SimSettings& pack = settings.sims[1];
    pack.model = SimModel::Snowpack;
    pack.snowpack.depthCm = 30.0;
    pack.snowpack.densityKgM3 = densityKgM3;
    pack.snowpack.maxDensityKgM3 = 450.0;
    return settings;
}

// The bearing law's sinkage for the field's snow (its last sim's): h (1 - rho0 / rho_f).
double predictedSinkageCm(const Settings& settings) {
    const SnowpackSettings& pack = settings.sims.back().snowpack;
    return pack.depthCm * (1.0 - pack.densityKgM3 / pack.maxDensityKgM3);
}

TEST(SnowSupportGL, ADroppedSphereRestsAtTheDepthTheBearingLawPredicts) {
    for (double density : {120.0, 250.0}) {
        SCOPED_TRACE(density);
        Settings settings = packField(60.0, density);
        // A ball 20 cm across of 4 kg, its bottom 5 cm above the snow.
        // On a texel's centre.
        BodySettings ball = test::sphereBody("ball", {7.0f, -9.0f, 15.0f}, 10.0f);
        ball.massKg = 4.0;
        ball.restitution = 0.0;
        settings.bodies = {ball};
        auto lab = test::makeLab(settings, "support");
        ASSERT_TRUE(lab);
        run(*lab, 1.5);
        const double early = -(lab->physics()->positionCm(0).z - 10.0);
        runOn(*lab, 1.5, 3.0);
        const double sinkage = -(lab->physics()->positionCm(0).z - 10.0);
        const double predicted = predictedSinkageCm(settings);
        std::printf("[ figures ] rho0 %.0f: rests %.3f cm below the top (predicted %.3f; %.3f at "
                    "1.5 s)\n",
                    density, sinkage, predicted, early);
        EXPECT_NEAR(sinkage, predicted, 0.1 * predicted);
        EXPECT_NEAR(sinkage, early, 0.2); // come to rest, not creeping down
        // The snow under it packed to rho_f, hardly any of it ploughed away (snow slumping from the
        // print's walls into the columns under the ball adds to them: the ball rests a little
        // higher than the law says for the untouched column).
        const SnowpackSim& pack = *lab->field().snowpack(1);
        const Region& region = pack.region();
        const glm::ivec2 under = worldToTexel({7.0, -9.0}, region);
        const SnowColumn column =
            pack.readBack()[std::size_t(under.y * region.resolution + under.x)];
        std::printf("[ figures ] the column under it: %.2f kg/m2 (%.2f untouched), %.1f kg/m3\n",
                    column.massKgM2, 30.0 * 0.01 * density,
                    column.massKgM2 / (column.depthCm * 0.01f));
        EXPECT_GE(column.massKgM2, 0.99f * 30.0f * 0.01f * float(density));
        EXPECT_NEAR(column.massKgM2 / (column.depthCm * 0.01f), 450.0f, 15.0f);
        const PhysicsReport report = *lab->physicsReport();
        EXPECT_EQ(report.support, "sim.b");
        EXPECT_GE(report.supportUpdates, 180); // one state a frame
    }
}

TEST(SnowSupportGL, AfterAWholeFirstReadOnlyTheWindowAroundTheBodiesIsRead) {
    Settings settings = packField(60.0, 120.0); // 128 texels of 2 cm
    BodySettings ball = test::sphereBody("ball", {7.0f, -9.0f, 15.0f}, 10.0f);
    ball.restitution = 0.0;
    settings.bodies = {ball};
    auto lab = test::makeLab(settings, "support");
    ASSERT_TRUE(lab);
    run(*lab, 1.0);
    const double wholeBytes = 128.0 * 128.0 * 8.0;
    const PhysicsReport first = *lab->physicsReport();
    EXPECT_EQ(first.supportReads, 60); // one a frame, the first whole
    EXPECT_EQ(first.supportUpdates, 60);
    const double bytes = first.supportReadbackBytesMean * double(first.supportReads);
    std::printf("[ figures ] %lld reads, %.0f bytes a read (the whole region: %.0f)\n",
                first.supportReads, first.supportReadbackBytesMean, wholeBytes);
    EXPECT_GT(bytes, wholeBytes);
    EXPECT_LT(first.supportReadbackBytesMean, 0.1 * wholeBytes);
    // A frame of half a second after frames of 1/60 s: the window queued for 1/60 s lacks what
    // it can reach (it could fall 1.2 m), so the state is read again over the window it needs,
    // here the whole region.
    lab->stepTo(1.5, 1.0 / 60.0);
    const PhysicsReport after = *lab->physicsReport();
    EXPECT_EQ(after.supportReads, 61);
    EXPECT_DOUBLE_EQ(after.supportReadbackBytesMean * 61.0 - bytes, wholeBytes);
}

// A stadium: two straights of `straightCm` along X at y = +-radius, joined by half circles.
std::vector<glm::vec3> stadium(float straightCm, float radiusCm) {
    std::vector<glm::vec3> points;
    const float half = 0.5f * straightCm;
    for (float x = -half; x < half; x += 50.0f)
        points.push_back({x, -radiusCm, 0.0f});
    for (int k = 0; k < 12; ++k) {
        const double a = -0.5 * std::numbers::pi + std::numbers::pi * k / 12.0;
        points.push_back({half + radiusCm * float(std::cos(a)), radiusCm * float(std::sin(a)), 0});
    }
    for (float x = half; x > -half; x -= 50.0f)
        points.push_back({x, radiusCm, 0.0f});
    for (int k = 0; k < 12; ++k) {
        const double a = 0.5 * std::numbers::pi + std::numbers::pi * k / 12.0;
        points.push_back({-half + radiusCm * float(std::cos(a)), radiusCm * float(std::sin(a)), 0});
    }
    return points;
}

TEST(SnowSupportGL, AVehiclesSecondLapThroughItsRutsSinksLessThanItsFirst) {
    // The snowpack alone (sim b as sim a): 30 cm of 120 kg/m3 over 1024 cm at 256^2 (4 cm
    // texels); the small car twice round a stadium of 3 m straights and 1.5 m bends at 1.5 m/s.
    Settings settings = packField(30.0, 120.0, 256, 1024.0);
    settings.sims.erase(settings.sims.begin());
    VehicleSettings car = test::straightCar("car", 0.0f, 0.0f, 150.0);
    car.waypointsCm = stadium(300.0f, 150.0f);
    car.laps = 2;
    car.lookaheadCm = 80.0;
    settings.vehicles = {car};
    auto lab = test::makeLab(settings, "ruts");
    ASSERT_TRUE(lab);
    run(*lab, 23.0);
    const PhysicsReport report = *lab->physicsReport();
    ASSERT_EQ(report.vehicleReports.size(), 1u);
    const VehicleReport& vehicle = report.vehicleReports[0];
    ASSERT_EQ(vehicle.passes.size(), 2u);
    const PassReport& first = vehicle.passes[0];
    const PassReport& second = vehicle.passes[1];
    std::printf("[ figures ] distance %.1f cm; pass 1: %.2f cm into the snow met, %.2f below the "
                "top (%lld contacts); pass 2: %.2f, %.2f (%lld); predicted on fresh snow %.2f; "
                "reads %lld, waited %lld\n",
                vehicle.distanceCm, first.sinkageCm, first.belowSurfaceCm, first.samples,
                second.sinkageCm, second.belowSurfaceCm, second.samples,
                predictedSinkageCm(settings), report.supportReads, report.supportReadsWaited);
    EXPECT_GT(first.samples, 1000);
    EXPECT_GT(second.samples, 1000);
    EXPECT_LT(second.sinkageCm, first.sinkageCm);
    // Both laps stand on the snow's bearing surface, not on the ground 30 cm down.
    EXPECT_LT(first.belowSurfaceCm, 25.0);
    EXPECT_LT(second.belowSurfaceCm, 25.0);
    EXPECT_EQ(report.support, "sim.a");
}

// Every sim's buffer (readAllPersistent's), then the snowpack's state as one more image
// (four floats a texel), for the byte comparison.
std::vector<ImageFloat> buffersOf(Lab& lab) {
    std::vector<ImageFloat> out = test::readAllPersistent(lab.field());
    const std::vector<SnowColumn> state = lab.field().snowpack(1)->readBack();
    ImageFloat packed(int(state.size()) * 4, 1);
    std::memcpy(packed.values.data(), state.data(), packed.values.size() * sizeof(float));
    out.push_back(std::move(packed));
    return out;
}

TEST(SnowSupportGL, TheSameRunTwiceGivesByteIdenticalBuffersAt60And144Fps) {
    for (double fps : {60.0, 144.0}) {
        SCOPED_TRACE(fps);
        std::vector<std::vector<ImageFloat>> runs;
        std::vector<glm::vec3> rest;
        for (int attempt = 0; attempt < 2; ++attempt) {
            Settings settings = packField(fps, 120.0, 128, 512.0);
            BodySettings ball = test::sphereBody("ball", {-150.0f, 60.0f, 20.0f}, 10.0f);
            ball.velocityCmS = {250.0f, 0.0f, 0.0f};
            ball.massKg = 3.0;
            settings.bodies = {ball};
            VehicleSettings car = test::straightCar("car", -180.0f, 150.0f);
            car.waypointsCm = {{-180, -100, 0}, {0, -100, 0}, {150, 60, 0}};
            settings.vehicles = {car};
            auto lab = test::makeLab(settings, "support");
            ASSERT_TRUE(lab);
            run(*lab, 1.5);
            EXPECT_EQ(lab->physicsReport()->steps, 180);
            runs.push_back(buffersOf(*lab));
            rest.push_back(lab->physics()->positionCm(0));
        }
        EXPECT_EQ(std::memcmp(&rest[0], &rest[1], sizeof(glm::vec3)), 0);
        test::expectSameBytes(runs[0], runs[1]);
        // Not an untouched field: the wheels packed the snowpack (sim b's depth dropped).
        const std::vector<float>& state = runs[0].back().values;
        float shallowest = 1e9f;
        for (std::size_t k = 0; k < state.size(); k += 4)
            shallowest = std::min(shallowest, state[k]);
        EXPECT_LT(shallowest, 15.0f);
    }
}

} // namespace
} // namespace snowcap
