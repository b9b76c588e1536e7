// Falling snow on the driver (render/falling_snow_pass.hpp): flakes appear while it snows,
// their number follows the rate, the same clock draws the same picture, and a sky that does not
// snow (or look.falling_snow = false) draws nothing: the frame is what it was without them.
// Each flake is drawn where its CPU twin (core/falling_snow.cpp) projects, at its drawn size.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "render/RenderTestSupport.hpp"

#include <algorithm>
#include <glm/geometric.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSize = 64;
constexpr int kPixels = 128;

struct FallingSnowFixture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    Settings settings;
    std::unique_ptr<SnowField> field;
    std::unique_ptr<SceneRenderer> renderer;

    void SetUp() override {
        settings.snow.resolution = kSize;
        settings.snow.orthoWidthCm = 256.0;
        // Few enough flakes that they seldom overlap at 128², so the pixels they cover count
        // them: at 2 cm/h of 100 kg/m3, 20 a m3 per mm/h is 335 flakes in an orthographic
        // view's 2.56 x 2.56 x 1.28 m box, 6400 in a perspective view's four boxes (2560
        // in the nearest 4 m one).
        settings.look.fallingSnowFlakes = 20.0;
        auto created = SnowField::create(settings, shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SnowField>>(created))
            << std::get<std::string>(created);
        field = std::move(std::get<0>(created));
        auto made = SceneRenderer::create(shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made))
            << std::get<std::string>(made);
        renderer = std::move(std::get<0>(made));
    }

    std::vector<float> render(double snowfallCmH) {
        settings.weather.snowfallCmH = snowfallCmH;
        EXPECT_EQ(field->applySettings(settings), std::nullopt);
        return test::renderSim(*renderer, *field, 0, settings, kPixels, kPixels);
    }
};

// Pixels whose RGB differ by more than 1/255 anywhere.
int differing(const std::vector<float>& a, const std::vector<float>& b) {
    int n = 0;
    for (std::size_t p = 0; p + 3 < a.size(); p += 4)
        for (int c = 0; c < 3; ++c)
            if (std::abs(a[p + c] - b[p + c]) > 1.0f / 255.0f) {
                ++n;
                break;
            }
    return n;
}

TEST_F(FallingSnowFixture, FlakesAppearWhileItSnowsAndScaleWithTheRate) {
    const std::vector<float> clear = render(0.0);
    const std::vector<float> light = render(2.0);
    const std::vector<float> heavy = render(4.0);
    const int lightPixels = differing(clear, light), heavyPixels = differing(clear, heavy);
    const FallingSnowAir air = fallingSnowAirFor(
        settings, field->sim(0).region(),
        cameraFor(settings.view, field->sim(0).region(), settings.snow.surfaceZCm, 1.0),
        field->sim(0).timeS());
    std::printf("flakes at 4 cm/h: %d; pixels changed: 2 cm/h %d, 4 cm/h %d (of %d)\n", air.flakes,
                lightPixels, heavyPixels, kPixels * kPixels);
    EXPECT_GT(lightPixels, 50);
    // Twice the rate, twice the flakes (a superset: flake i is the same flake at any rate); a
    // little less than twice the pixels where flakes overlap.
    EXPECT_GT(heavyPixels, 1.6 * lightPixels);
    EXPECT_LT(heavyPixels, 2.2 * lightPixels);
}

TEST_F(FallingSnowFixture, TheSameClockDrawsTheSamePicture) {
    const std::vector<float> first = render(3.0);
    const std::vector<float> again = render(3.0);
    EXPECT_EQ(differing(first, again), 0);
    EXPECT_EQ(first, again);
    // Another instant draws the flakes elsewhere (the sims' clocks move with a step).
    settings.weather.snowfallCmH = 3.0;
    ASSERT_EQ(field->applySettings(settings), std::nullopt);
    field->step(std::span<const DeformerInstance>{}, 0.25);
    const std::vector<float> later =
        test::renderSim(*renderer, *field, 0, settings, kPixels, kPixels);
    EXPECT_GT(differing(first, later), 50);
}

// Four flakes seen from straight above (orthographic: all of them over the snow, none nearer
// than the eye's limit): every pixel they change lies within a flake's drawn radius of where
// flakePosition puts it, and every flake inside the view changes the pixel at its centre.
TEST_F(FallingSnowFixture, EachFlakeIsDrawnWhereItsCpuTwinProjects) {
    settings.look.fallingSnowMaxFlakes = 4;
    // White flakes on white snow differ by less than the threshold: a sun below the horizon
    // and no sky leave the snow's top dark, while a flake's light (its sun term) stays.
    settings.look.sunDirection = {0.0f, 0.0f, -1.0f};
    settings.look.skyColour = {0.0f, 0.0f, 0.0f};
    const auto renderTop = [&](double snowfallCmH) {
        settings.weather.snowfallCmH = snowfallCmH;
        EXPECT_EQ(field->applySettings(settings), std::nullopt);
        return test::renderSim(*renderer, *field, 0, settings, kPixels, kPixels, SurfaceOutput::Lit,
                               /*top=*/true);
    };
    const std::vector<float> clear = renderTop(0.0);
    const std::vector<float> snowing = renderTop(3.0);
    const Region& region = field->sim(0).region();
    const FallingSnowAir air =
        fallingSnowAir(settings.weather, settings.wind, settings.look, region,
                       settings.snow.surfaceZCm, field->sim(0).timeS());
    ASSERT_EQ(air.flakes, 4);
    const glm::mat4 viewProjection =
        topCamera(region, settings.snow.surfaceZCm, 1.0).viewProjection();
    // Orthographic: the radius is the projection's scale alone, never under the least.
    const float drawnPx =
        std::max(kFlakeRadiusCm * viewProjection[1][1] * 0.5f * kPixels, kFlakeMinRadiusPx);
    std::vector<glm::vec2> centres;
    for (int i = 0; i < air.flakes; ++i) {
        const glm::vec4 clip = viewProjection * glm::vec4(flakePosition(air, i), 1.0f);
        centres.push_back((glm::vec2(clip) / clip.w * 0.5f + 0.5f) * float(kPixels));
    }
    const auto changed = [&](int x, int y) {
        const std::size_t p = (std::size_t(y) * kPixels + x) * 4;
        for (int c = 0; c < 3; ++c)
            if (std::abs(clear[p + c] - snowing[p + c]) > 1.0f / 255.0f)
                return true;
        return false;
    };
    int changedPixels = 0, strays = 0;
    for (int y = 0; y < kPixels; ++y)
        for (int x = 0; x < kPixels; ++x) {
            if (!changed(x, y))
                continue;
            ++changedPixels;
            const glm::vec2 centre(x + 0.5f, y + 0.5f);
            const bool nearAFlake = std::any_of(centres.begin(), centres.end(), [&](glm::vec2 c) {
                return glm::distance(c, centre) <= drawnPx + 0.5f;
            });
            strays += nearAFlake ? 0 : 1;
        }
    int inside = 0;
    for (const glm::vec2 c : centres)
        if (c.x > drawnPx && c.y > drawnPx && c.x < kPixels - drawnPx && c.y < kPixels - drawnPx) {
            ++inside;
            EXPECT_TRUE(changed(int(c.x), int(c.y))) << "flake at " << c.x << ", " << c.y;
        }
    std::printf("drawn radius %.2f px; %d flakes inside the view; %d pixels changed, %d strays\n",
                drawnPx, inside, changedPixels, strays);
    EXPECT_GT(inside, 0);
    EXPECT_GT(changedPixels, 0);
    EXPECT_EQ(strays, 0);
}

// Seen from low and far (the region a small part of the view, the sky above the horizon),
// flakes fill the view: most of the pixels they change lie outside the screen rectangle of the
// region's own box, where a view over the region alone drew none.
TEST_F(FallingSnowFixture, APerspectiveViewIsFilledPastTheRegion) {
    settings.view.distanceCm = 900.0;
    settings.view.pitchDeg = 8.0;
    settings.look.fallingSnowFlakes = 150.0; // the default: the budget (20,000) binds
    const std::vector<float> clear = render(0.0);
    const std::vector<float> snowing = render(6.0);
    const Region& region = field->sim(0).region();
    const Camera camera = cameraFor(settings.view, region, settings.snow.surfaceZCm, 1.0);
    const glm::mat4 viewProjection = camera.viewProjection();
    glm::vec2 lo(1e9f), hi(-1e9f);
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p(region.centreCm.x + ((corner & 1) ? 0.5 : -0.5) * region.widthCm,
                          region.centreCm.y + ((corner & 2) ? 0.5 : -0.5) * region.widthCm,
                          settings.snow.surfaceZCm + ((corner & 4) ? 0.5 * region.widthCm : 0.0));
        const glm::vec4 clip = viewProjection * glm::vec4(p, 1.0f);
        const glm::vec2 px = (glm::vec2(clip) / clip.w * 0.5f + 0.5f) * float(kPixels);
        lo = glm::min(lo, px);
        hi = glm::max(hi, px);
    }
    lo -= glm::vec2(kFlakeMaxRadiusPx + 1.0f);
    hi += glm::vec2(kFlakeMaxRadiusPx + 1.0f);
    int inside = 0, outside = 0, aboveHorizon = 0;
    for (int y = 0; y < kPixels; ++y)
        for (int x = 0; x < kPixels; ++x) {
            const std::size_t p = (std::size_t(y) * kPixels + x) * 4;
            bool changed = false;
            for (int c = 0; c < 3; ++c)
                changed |= std::abs(clear[p + c] - snowing[p + c]) > 1.0f / 255.0f;
            if (!changed)
                continue;
            const bool inBox = x >= lo.x && x <= hi.x && y >= lo.y && y <= hi.y;
            (inBox ? inside : outside) += 1;
            aboveHorizon += y > hi.y ? 1 : 0; // rows count up from the bottom
        }
    std::printf("the region's box on screen: %.0f..%.0f x %.0f..%.0f px; pixels changed inside it "
                "%d, outside %d (above it %d)\n",
                lo.x, hi.x, lo.y, hi.y, inside, outside, aboveHorizon);
    EXPECT_GT(outside, 400);
    EXPECT_GT(aboveHorizon, 100);
}

// Two hundred flakes (twenty of each ten slots: four in the nearest box, three, two, one) seen in
// perspective:
// every pixel they change lies within its drawn radius of where flakePosition and the camera
// put it, so the vertex shader's boxes are the CPU twin's.
TEST_F(FallingSnowFixture, PerspectiveFlakesAreDrawnWhereTheirCpuTwinsProject) {
    settings.look.fallingSnowMaxFlakes = 200;
    settings.look.sunDirection = {0.0f, 0.0f, -1.0f};
    settings.look.skyColour = {0.0f, 0.0f, 0.0f};
    settings.view.distanceCm = 300.0;
    settings.view.pitchDeg = 20.0;
    const std::vector<float> clear = render(0.0);
    const std::vector<float> snowing = render(3.0);
    const Region& region = field->sim(0).region();
    const Camera camera = cameraFor(settings.view, region, settings.snow.surfaceZCm, 1.0);
    const FallingSnowAir air = fallingSnowAirFor(settings, region, camera, field->sim(0).timeS());
    ASSERT_EQ(air.flakes, 200);
    ASSERT_EQ(air.levels, kFlakeLevels);
    const glm::mat4 viewProjection = camera.viewProjection();
    struct Drawn {
        glm::vec2 centre;
        float radius;
    };
    std::vector<Drawn> flakes;
    int onScreen = 0;
    for (int i = 0; i < air.flakes; ++i) {
        const glm::vec4 clip = viewProjection * glm::vec4(flakePosition(air, i), 1.0f);
        if (clip.w < kFlakeNearCm)
            continue;
        const float radius =
            std::clamp(kFlakeRadiusCm * camera.projection[1][1] / clip.w * 0.5f * float(kPixels),
                       kFlakeMinRadiusPx, kFlakeMaxRadiusPx);
        flakes.push_back({(glm::vec2(clip) / clip.w * 0.5f + 0.5f) * float(kPixels), radius});
        onScreen += std::abs(clip.x) < clip.w && std::abs(clip.y) < clip.w ? 1 : 0;
    }
    int changedPixels = 0, strays = 0;
    for (int y = 0; y < kPixels; ++y)
        for (int x = 0; x < kPixels; ++x) {
            const std::size_t p = (std::size_t(y) * kPixels + x) * 4;
            bool changed = false;
            for (int c = 0; c < 3; ++c)
                changed |= std::abs(clear[p + c] - snowing[p + c]) > 1.0f / 255.0f;
            if (!changed)
                continue;
            ++changedPixels;
            const glm::vec2 centre(x + 0.5f, y + 0.5f);
            strays += std::any_of(flakes.begin(), flakes.end(),
                                  [&](const Drawn& f) {
                                      return glm::distance(f.centre, centre) <= f.radius + 0.5f;
                                  })
                          ? 0
                          : 1;
        }
    std::printf("%zu of 200 flakes before the eye, %d on screen; %d pixels changed, %d strays\n",
                flakes.size(), onScreen, changedPixels, strays);
    EXPECT_GT(onScreen, 10);
    EXPECT_GT(changedPixels, 0);
    EXPECT_EQ(strays, 0);
}

TEST_F(FallingSnowFixture, NoSnowfallOrTheLookKeyOffDrawsNothing) {
    const std::vector<float> before = test::renderSim(*renderer, *field, 0, settings, kPixels,
                                                      kPixels); // no [weather] at all
    EXPECT_EQ(render(0.0), before);
    settings.look.fallingSnow = false;
    EXPECT_EQ(render(5.0), before);
    // And the pass is not in the frame's list then.
    FrameView view;
    view.request.camera =
        cameraFor(settings.view, field->sim(0).region(), settings.snow.surfaceZCm, 1.0);
    view.request.viewportPx = {0, 0, kPixels, kPixels};
    const auto names = [&] {
        std::vector<std::string> out;
        for (const gpu::PassRecord& pass : framePasses(*field, *renderer, {{}, 0.0, {{view}}}))
            out.push_back(pass.name);
        return out;
    };
    const std::vector<std::string> off = names();
    EXPECT_EQ(std::count(off.begin(), off.end(), "view.falling_snow"), 0);
    settings.look.fallingSnow = true;
    ASSERT_EQ(field->applySettings(settings), std::nullopt);
    const std::vector<std::string> on = names();
    EXPECT_EQ(std::count(on.begin(), on.end(), "view.falling_snow"), 1);
}

} // namespace
} // namespace snowcap
