// Bodies on the snow for real (a 128² field on the driver): a sphere dropped on a decay sim
// comes to rest on the ground under the snow and leaves one round print of its diameter; the
// same run twice gives byte-identical buffers at 60 and at 144 fps; the physics step is a pass
// of its own, first in the frame.
#include "lab/pass_table.hpp"
#include "lab/run_stats.hpp"
#include "physics/PhysicsLabSupport.hpp"
#include "physics/PhysicsTestSupport.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <utility>

namespace snowcap {
namespace {

constexpr double kTexelCm = 2.0; // 256 cm over 128 texels
constexpr std::pair<int, int> kNeighbours[] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

Settings smallField(double fps) {
    Settings settings = test::physicsSnow();
    settings.run.fps = fps;
    settings.snow.resolution = 128;
    settings.snow.orthoWidthCm = 256.0;
    settings.snow.regionCentreCm = {0.0, 0.0};
    return settings;
}

BodySettings ball(const std::string& name, glm::vec3 at, float radiusCm) {
    BodySettings body = test::sphereBody(name, at, radiusCm);
    body.restitution = 0.0;
    return body;
}

std::unique_ptr<Lab> makeLab(const Settings& settings) {
    return test::makeLab(settings, "bodies");
}

using test::run;

// The 4-connected groups of texels above `threshold`: how many, and the first one's extent and
// size in texels.
struct Prints {
    int count = 0;
    int width = 0, height = 0;
    long long texels = 0;
};
Prints printsOf(const ImageFloat& image, float threshold) {
    Prints out;
    std::vector<int> label(image.values.size(), 0);
    for (int y0 = 0; y0 < image.height; ++y0)
        for (int x0 = 0; x0 < image.width; ++x0) {
            if (!(image.at(x0, y0) > threshold) || label[std::size_t(y0 * image.width + x0)])
                continue;
            ++out.count;
            int minX = x0, maxX = x0, minY = y0, maxY = y0;
            long long texels = 0;
            std::vector<std::pair<int, int>> stack{{x0, y0}};
            label[std::size_t(y0 * image.width + x0)] = out.count;
            while (!stack.empty()) {
                const auto [x, y] = stack.back();
                stack.pop_back();
                ++texels;
                minX = std::min(minX, x), maxX = std::max(maxX, x);
                minY = std::min(minY, y), maxY = std::max(maxY, y);
                for (const auto& [dx, dy] : kNeighbours) {
                    const int nx = x + dx, ny = y + dy;
                    if (nx < 0 || ny < 0 || nx >= image.width || ny >= image.height)
                        continue;
                    int& l = label[std::size_t(ny * image.width + nx)];
                    if (l || !(image.at(nx, ny) > threshold))
                        continue;
                    l = out.count;
                    stack.push_back({nx, ny});
                }
            }
            if (out.count == 1) {
                out.width = maxX - minX + 1;
                out.height = maxY - minY + 1;
                out.texels = texels;
            }
        }
    return out;
}

TEST(BodyPrint, ADroppedSphereRestsOnTheGroundAndLeavesOneRoundPrintOfItsDiameter) {
    Settings settings = smallField(60.0);
    constexpr float radius = 20.0f; // its centre rests 10 cm below the snow top
    settings.bodies = {ball("drop", {0.0f, 0.0f, 60.0f}, radius)};
    auto lab = makeLab(settings);
    ASSERT_TRUE(lab);
    ASSERT_TRUE(lab->physics());
    run(*lab, 2.0);
    const glm::vec3 at = lab->physics()->positionCm(0);
    EXPECT_NEAR(at.z, -30.0 + radius, 0.5); // on the ground under the snow
    EXPECT_TRUE(lab->physics()->resting(0));
    // Its deformer is where the body is.
    ASSERT_EQ(lab->instances().size(), 1u);
    EXPECT_NEAR(lab->instances()[0].model[3].z, at.z, 1e-4);
    const double diameterTexels = 2.0 * radius / kTexelCm; // 20
    for (int s = 0; s < lab->field().simCount(); ++s) {
        SCOPED_TRACE(s);
        const ImageFloat buffer = readPersistent(lab->field().sim(s));
        const Prints prints = printsOf(buffer, 0.01f);
        EXPECT_EQ(prints.count, 1);
        EXPECT_NEAR(prints.width, diameterTexels, 2.0);
        EXPECT_NEAR(prints.height, diameterTexels, 2.0);
        // Round: the disc's area, within the rim's texels.
        const double disc = std::numbers::pi * 0.25 * diameterTexels * diameterTexels;
        EXPECT_NEAR(double(prints.texels), disc, std::numbers::pi * diameterTexels);
    }
}

// Thrown balls and tumbling crates: contacts between bodies, with the ground and in the snow.
std::vector<BodySettings> busyBodies() {
    BodySettings balls = ball("ball", {-80.0f, 0.0f, 40.0f}, 8.0f);
    balls.count = 4;
    balls.formation = CrowdSettings::Formation::Column;
    balls.width = 2;
    balls.spacingCm = 40.0;
    balls.velocityCmS = {300.0f, 0.0f, 150.0f};
    balls.velocitySpreadCmS = 80.0;
    balls.restitution = 0.4;
    BodySettings crates;
    crates.name = "crate";
    crates.shape = BodyShape::Box;
    crates.sizeCm = {12.0f, 8.0f, 8.0f};
    crates.massKg = 5.0;
    crates.positionCm = {40.0f, 0.0f, 80.0f};
    crates.count = 4;
    crates.spacingCm = 40.0;
    crates.rotationSpreadDeg = 40.0;
    return {balls, crates};
}

TEST(BodyPrint, TheSameRunTwiceGivesByteIdenticalBuffersAt60And144Fps) {
    for (double fps : {60.0, 144.0}) {
        SCOPED_TRACE(fps);
        std::vector<std::vector<ImageFloat>> buffers;
        for (int attempt = 0; attempt < 2; ++attempt) {
            Settings settings = smallField(fps);
            settings.bodies = busyBodies();
            auto lab = makeLab(settings);
            ASSERT_TRUE(lab);
            run(*lab, 1.5);
            EXPECT_EQ(lab->physicsReport()->steps, 180); // 1.5 s at 120 Hz
            buffers.push_back(test::readAllPersistent(lab->field()));
        }
        test::expectSameBytes(buffers[0], buffers[1]);
        for (std::size_t s = 0; s < buffers[0].size(); ++s) // not an empty field: they pressed
            EXPECT_GT(printsOf(buffers[0][s], 0.01f).count, 1) << "sim " << s;
    }
}

TEST(BodyPrint, ThePhysicsStepIsAPassOfItsOwnBeforeTheSnow) {
    Settings settings = smallField(60.0);
    settings.bodies = busyBodies();
    auto lab = makeLab(settings);
    ASSERT_TRUE(lab);
    const std::vector<gpu::PassRecord> passes = scenarioFramePasses(*lab);
    ASSERT_FALSE(passes.empty());
    EXPECT_EQ(passes.front().name, "physics");
    EXPECT_EQ(passes.front().timerName(), "physics");
    EXPECT_NE(passes.front().stateNote.find("8 bodies"), std::string::npos);
    EXPECT_TRUE(gpu::unwrittenReads(passes).empty());
    // Without bodies there is no physics pass.
    auto bare = makeLab(smallField(60.0));
    ASSERT_TRUE(bare);
    for (const gpu::PassRecord& pass : scenarioFramePasses(*bare))
        EXPECT_NE(pass.name, "physics");
}

TEST(BodyPrint, ABadBodyFailsTheLabWithOneLine) {
    Settings settings = smallField(60.0);
    settings.bodies = {ball("a", {0.0f, 0.0f, 50.0f}, 10.0f),
                       ball("b", {0.0f, 5.0f, 50.0f}, 10.0f)};
    auto created = Lab::create(settings, "bodies", {}, test::glInfo().renderer);
    ASSERT_TRUE(std::holds_alternative<std::string>(created));
    EXPECT_EQ(std::get<std::string>(created),
              "key 'body[1].position_cm': body 'b' starts 15.0 cm inside body 'a'");
}

} // namespace
} // namespace snowcap
