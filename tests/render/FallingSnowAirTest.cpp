// The air a perspective camera sees (core/falling_snow.hpp, fallingSnowAirAround): nested boxes
// ahead of the eye fill the view past the region, the sky included, within the flake budget; the
// flakes are fixed in the world while the camera moves (only which copy is drawn follows it).
#include "core/falling_snow.hpp"
#include "render/falling_snow_pass.hpp"
#include "render/view_params.hpp"

#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

Settings snowing() {
    Settings settings;
    settings.weather.snowfallCmH = 8.0;
    settings.weather.snowfallDensityKgM3 = 80.0;
    settings.weather.windMS = 6.0;
    settings.weather.windTowardDeg = 90.0;
    settings.wind.gustAmount = 0.35;
    settings.wind.gustHz = 0.3;
    settings.wind.gustWavelengthCm = 400.0;
    return settings;
}

// blizzard's region (5.12 m) seen from 9 m away, 12 degrees above the horizon: most of the view
// is ground and sky beyond the region.
const Region kRegion{{0.0, 0.0}, 512.0, 256};
Camera lowCamera(glm::vec3 shiftCm = glm::vec3(0.0f)) {
    Camera camera = orbitCamera(shiftCm, 900.0, 25.0, 12.0, 45.0, 16.0 / 9.0);
    return camera;
}

TEST(FallingSnowAir, APerspectiveViewIsFilledPastTheRegionWithinTheBudget) {
    const Settings settings = snowing();
    const Camera camera = lowCamera();
    const FallingSnowAir air = fallingSnowAirFor(settings, kRegion, camera, 3.0);
    ASSERT_EQ(air.levels, kFlakeLevels);
    EXPECT_EQ(air.flakes, settings.look.fallingSnowMaxFlakes); // 20,000: the budget binds
    const glm::mat4 viewProjection = camera.viewProjection();
    int inView[kFlakeLevels] = {}, beyondRegion = 0, aboveEye = 0, total = 0;
    for (int i = 0; i < air.flakes; ++i) {
        const glm::vec3 p = flakePosition(air, i);
        const glm::vec4 clip = viewProjection * glm::vec4(p, 1.0f);
        if (clip.w < 30.0f || std::abs(clip.x) > clip.w || std::abs(clip.y) > clip.w)
            continue;
        ++total;
        ++inView[flakeBoxOf(i, air.levels)];
        if (std::abs(p.x) > 256.0f || std::abs(p.y) > 256.0f)
            ++beyondRegion;
        if (p.z > camera.eyeCm.z)
            ++aboveEye;
    }
    std::printf("in view: %d of %d flakes (by box:", total, air.flakes);
    for (int l = 0; l < kFlakeLevels; ++l)
        std::printf(" %d", inView[l]);
    std::printf("); beyond the region %d, above the eye %d\n", beyondRegion, aboveEye);
    // Each box puts a share of its flakes (8000, 6000, 4000, 2000) in view.
    for (int l = 0; l < kFlakeLevels; ++l)
        EXPECT_GT(inView[l], 200) << "box " << l;
    EXPECT_GT(beyondRegion, total / 2);
    EXPECT_GT(aboveEye, total / 5);
    // The region's own box (an orthographic view's) puts none beyond its footprint.
    const FallingSnowAir over = fallingSnowAir(settings.weather, settings.wind, settings.look,
                                               kRegion, settings.snow.surfaceZCm, 3.0);
    for (int i = 0; i < over.flakes; i += 7) {
        const glm::vec3 p = flakePosition(over, i);
        EXPECT_LE(std::abs(p.x), 256.0f);
        EXPECT_LE(std::abs(p.y), 256.0f);
    }
}

TEST(FallingSnowAir, TheBudgetSplitsOverTheBoxes) {
    Settings settings = snowing();
    const FlakeEye eye{{0.0f, -500.0f, 200.0f}, {0.0f, 1.0f, 0.0f}};
    const auto flakes = [&](int budget, double snowfallCmH) {
        settings.look.fallingSnowMaxFlakes = budget;
        settings.weather.snowfallCmH = snowfallCmH;
        return fallingSnowAirAround(settings.weather, settings.wind, settings.look, eye,
                                    settings.snow.surfaceZCm, 1.0)
            .flakes;
    };
    EXPECT_EQ(flakes(20000, 8.0), 20000);
    EXPECT_EQ(flakes(20009, 8.0), 20000); // whole tens, never over the budget
    EXPECT_EQ(flakes(9, 8.0), 0);         // less than ten
    EXPECT_EQ(flakes(20000, 0.0), 0);
    // Below the budget the nearest box holds the snowfall's density and the rest their share:
    // 150 a m3 per mm/h x 64 m3 x 0.01 mm/h (0.0125 cm/h of 80 kg/m3) = 96 there, 240 in all.
    EXPECT_EQ(flakes(20000, 0.0125), 240);
    EXPECT_EQ(flakes(20000, 0.025), 480);
}

// Moving the camera moves the boxes but not the flakes: each flake's place in the new boxes is
// where it was, or a whole period away (another copy of it in its lattice).
TEST(FallingSnowAir, FlakesStayPutWhileTheCameraMoves) {
    const Settings settings = snowing();
    const FallingSnowAir a = fallingSnowAirFor(settings, kRegion, lowCamera(), 4.0);
    const FallingSnowAir b =
        fallingSnowAirFor(settings, kRegion, lowCamera(glm::vec3(70.0f, -40.0f, 0.0f)), 4.0);
    ASSERT_EQ(a.flakes, b.flakes);
    int same = 0;
    for (int i = 0; i < a.flakes; ++i) {
        const glm::vec3 size = a.boxes[std::size_t(flakeBoxOf(i, a.levels))].sizeCm;
        const glm::vec3 d = (flakePosition(b, i) - flakePosition(a, i)) / size;
        const glm::vec3 off = d - glm::round(d); // a whole number of periods
        ASSERT_LT(glm::length(off * size), 0.05f) << "flake " << i;
        same += glm::length(d) < 1e-5f ? 1 : 0;
    }
    std::printf("%d of %d flakes at the same place, the rest a period away\n", same, a.flakes);
    EXPECT_GT(same, a.flakes * 3 / 4);
}

} // namespace
} // namespace snowcap
