// A body on a terrain for real (a lab with a 128² field on the driver): a ball released on a
// 20 degree slope of a heightmap rolls down it on Bullet's terrain ground and presses one trail
// into the snow, unbroken from where it landed to where it is, measured against the terrain.
#include "physics/PhysicsLabSupport.hpp"
#include "physics/PhysicsTestSupport.hpp"
#include "terrain/terrain.hpp"

#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <numbers>
#include <unistd.h>

namespace snowcap {
namespace {

// The 4-connected groups of texels above `threshold` in `image`: how many, and the x extent
// (texels) of the largest.
struct Groups {
    int count = 0;
    int largestWidth = 0;
};
Groups groupsOf(const ImageFloat& image, float threshold) {
    Groups out;
    std::vector<char> seen(image.values.size(), 0);
    long long largest = 0;
    for (int y0 = 0; y0 < image.height; ++y0)
        for (int x0 = 0; x0 < image.width; ++x0) {
            if (!(image.at(x0, y0) > threshold) || seen[std::size_t(y0 * image.width + x0)])
                continue;
            ++out.count;
            long long texels = 0;
            int minX = x0, maxX = x0;
            std::vector<std::pair<int, int>> stack{{x0, y0}};
            seen[std::size_t(y0 * image.width + x0)] = 1;
            while (!stack.empty()) {
                const auto [x, y] = stack.back();
                stack.pop_back();
                ++texels;
                minX = std::min(minX, x), maxX = std::max(maxX, x);
                for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
                    const int nx = x + dx, ny = y + dy;
                    if (nx < 0 || ny < 0 || nx >= image.width || ny >= image.height)
                        continue;
                    char& s = seen[std::size_t(ny * image.width + nx)];
                    if (s || !(image.at(nx, ny) > threshold))
                        continue;
                    s = 1;
                    stack.push_back({nx, ny});
                }
            }
            if (texels > largest) {
                largest = texels;
                out.largestWidth = maxX - minX + 1;
            }
        }
    return out;
}

TEST(TerrainBody, ABallRollsDownA20DegreeSlopeLeavingOneUnbrokenTrail) {
    // A 60 m square heightmap of three columns rising 20 degrees towards +X (16-bit: the
    // heights within 0.2 mm of the plane).
    const double rise = 20.0 * std::tan(20.0 * std::numbers::pi / 180.0); // m, column to column
    const std::filesystem::path png = std::filesystem::temp_directory_path() /
                                      ("snowcap_ramp20_" + std::to_string(getpid()) + ".png");
    HeightmapSamples ramp{3, 3, {}};
    for (int row = 0; row < 3; ++row)
        for (std::uint16_t v : {std::uint16_t(0), std::uint16_t(32768), std::uint16_t(65535)})
            ramp.values.push_back(v);
    ASSERT_FALSE(writeHeightmapPng(png, ramp).has_value());
    Settings settings = test::physicsSnow();
    settings.snow.depthCm = 10.0;
    settings.snow.resolution = 128;
    settings.snow.orthoWidthCm = 768.0; // 6 cm a texel
    settings.snow.regionCentreCm = {-250.0, 0.0};
    settings.terrain.kind = TerrainKind::Heightmap;
    settings.terrain.file = png.string();
    settings.terrain.sizeM = {60.0, 60.0};
    settings.terrain.heightRangeM = {-rise, rise};
    constexpr float radius = 20.0f;
    const double startZ = -10.0 + (radius + 1.0) / std::cos(20.0 * std::numbers::pi / 180.0);
    BodySettings ball = test::sphereBody("ball", {0.0f, 0.0f, float(startZ)}, radius);
    ball.restitution = 0.0;
    settings.bodies = {ball};
    for (SimSettings& sim : settings.sims)
        sim.decay = 0.9999; // the whole trail kept for the run
    auto lab = test::makeLab(settings, "terrain_ball");
    std::filesystem::remove(png);
    ASSERT_TRUE(lab);
    ASSERT_TRUE(lab->physics());
    test::run(*lab, 2.5);
    const glm::vec3 end = lab->physics()->positionCm(0);
    std::cout << "ball on a 20 deg heightmap: from (0, 0, " << startZ << ") to (" << end.x << ", "
              << end.y << ", " << end.z << ") cm in 2.5 s\n";
    EXPECT_LT(end.z, startZ - 50.0); // lower than it started
    EXPECT_LT(end.x, -150.0f);       // down the slope
    // One trail in each sim, as long as the roll (less a little at the ends), no gap in it.
    const double texelCm = 768.0 / 128.0;
    for (int s = 0; s < lab->field().simCount(); ++s) {
        SCOPED_TRACE(s);
        const Groups trail = groupsOf(readPersistent(lab->field().sim(s)), 0.01f);
        std::cout << "sim " << s << ": " << trail.count << " print(s), the largest "
                  << trail.largestWidth * texelCm << " cm along x\n";
        EXPECT_EQ(trail.count, 1);
        EXPECT_GT(trail.largestWidth * texelCm, -end.x - 2.0 * radius);
    }
}

} // namespace
} // namespace snowcap
