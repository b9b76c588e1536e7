// A vehicle on the snow for real (a 256² field of 2 cm texels on the driver): driving straight,
// its wheels leave two tracks one track width apart, each one wheel width wide, with nothing
// between them; the same run twice gives byte-identical buffers at 60 and at 144 fps.
#include "lab/lab.hpp"
#include "lab/run_stats.hpp"
#include "physics/PhysicsLabSupport.hpp"
#include "physics/PhysicsTestSupport.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr double kTexelCm = 2.0; // 512 cm over 256 texels

// 12 cm of snow: the car's chassis rides 29 cm above the ground, clear of it, so only the
// wheels press.
Settings trackField(double fps) {
    Settings settings = test::physicsSnow();
    settings.run.fps = fps;
    settings.snow.resolution = 256;
    settings.snow.orthoWidthCm = 512.0;
    settings.snow.depthCm = 12.0;
    settings.snow.regionCentreCm = {0.0, 0.0};
    for (SimSettings& sim : settings.sims)
        sim.decay = 0.999; // both sims keep the whole track for the run
    settings.vehicles = {test::straightCar("car", -200.0f, 600.0f)};
    return settings;
}

std::unique_ptr<Lab> makeLab(const Settings& settings) {
    return test::makeLab(settings, "vehicle");
}

using test::run;

// The runs of texels above `threshold` across one column of the buffer (along world y): where
// each starts and how many texels it holds.
struct TexelRun {
    int start = 0, texels = 0;
};
std::vector<TexelRun> runsAcross(const ImageFloat& image, int column, float threshold) {
    std::vector<TexelRun> runs;
    for (int y = 0; y < image.height; ++y) {
        if (!(image.at(column, y) > threshold))
            continue;
        if (runs.empty() || runs.back().start + runs.back().texels != y)
            runs.push_back({y, 0});
        ++runs.back().texels;
    }
    return runs;
}

TEST(VehicleTrack, DrivingStraightLeavesTwoTracksOneTrackWidthApartEachOneWheelWide) {
    auto lab = makeLab(trackField(60.0));
    ASSERT_TRUE(lab);
    run(*lab, 2.0);
    // Its chassis and wheels are deformers where the physics world has them.
    ASSERT_EQ(lab->instances().size(), 5u);
    const glm::vec3 at = lab->physics()->vehiclePositionCm(0);
    EXPECT_GT(at.x, 100.0f); // it drove on, the tracks behind it run over x = -100 .. 0
    EXPECT_NEAR(lab->instances()[0].model[3].x, at.x, 1e-3f);
    const double trackTexels = 60.0 / kTexelCm, wheelTexels = 20.0 / kTexelCm;
    for (int s = 0; s < lab->field().simCount(); ++s) {
        SCOPED_TRACE(s);
        const ImageFloat buffer = readPersistent(lab->field().sim(s));
        int columns = 0;
        // Texel columns x = -100 .. 0 cm: the wheels rolled over all of them.
        for (int column = 78; column < 128; column += 7) {
            SCOPED_TRACE(column);
            const std::vector<TexelRun> runs = runsAcross(buffer, column, 0.0f);
            ASSERT_EQ(runs.size(), 2u); // two tracks, nothing between or beside them
            for (const TexelRun& track : runs)
                EXPECT_NEAR(track.texels, wheelTexels, 1.0);
            const double apart =
                (runs[1].start + 0.5 * runs[1].texels) - (runs[0].start + 0.5 * runs[0].texels);
            EXPECT_NEAR(apart, trackTexels, 1.0);
            // Centred on y = 0: the first run is the right wheels' track, its middle at -30 cm.
            EXPECT_NEAR(runs[0].start + 0.5 * runs[0].texels, 128.0 - 0.5 * trackTexels, 1.0);
            ++columns;
        }
        EXPECT_EQ(columns, 8);
    }
    const PhysicsReport report = *lab->physicsReport();
    EXPECT_EQ(report.vehicles, 1);
    EXPECT_NEAR(report.vehicleReports[0].distanceCm, at.x + 200.0, 1.0);
    EXPECT_NEAR(report.vehicleReports[0].meanSinkageCm, 12.0, 0.5); // the snow's whole depth
}

TEST(VehicleTrack, TheSameRunTwiceGivesByteIdenticalBuffersAt60And144Fps) {
    for (double fps : {60.0, 144.0}) {
        SCOPED_TRACE(fps);
        std::vector<std::vector<ImageFloat>> buffers;
        for (int attempt = 0; attempt < 2; ++attempt) {
            Settings settings = trackField(fps);
            // A turn, so the steering and the suspensions work too.
            settings.vehicles[0].waypointsCm = {{-200, -100, 0}, {0, -100, 0}, {100, 100, 0}};
            auto lab = makeLab(settings);
            ASSERT_TRUE(lab);
            run(*lab, 1.5);
            EXPECT_EQ(lab->physicsReport()->steps, 180); // 1.5 s at 120 Hz
            buffers.push_back(test::readAllPersistent(lab->field()));
        }
        test::expectSameBytes(buffers[0], buffers[1]);
        for (std::size_t s = 0; s < buffers[0].size(); ++s) {
            float most = 0.0f; // not an empty field: the wheels pressed
            for (float v : buffers[0][s].values)
                most = std::max(most, v);
            EXPECT_GT(most, 0.01f) << "sim " << s;
        }
    }
}

} // namespace
} // namespace snowcap
