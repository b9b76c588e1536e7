// The snow surface on the driver: displacement heights (vertex grid and tessellation), the
// fake-shadow normals, the region's border, and a golden image of the lit result.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "core/config.hpp"
#include "io/image.hpp"
#include "lab/run_pictures.hpp"
#include "render/deformer_set.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSize = 64;          // buffer texels per side
constexpr double kWidthCm = 256.0; // 4 cm a texel

struct SurfaceFixture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    Settings settings;
    std::unique_ptr<SnowField> field;
    std::unique_ptr<SceneRenderer> renderer;

    void SetUp() override {
        settings.snow.resolution = kSize;
        settings.snow.orthoWidthCm = kWidthCm;
        settings.look.detailNormal = 0.0; // a flat landscape: the ground normal is +Z
        // A 3-texel blur keeps prints local on this small buffer (the table's default for 64
        // texels is 20 texels, most of the region).
        for (SimSettings& sim : settings.sims)
            sim.material.rtBlurDistance = 3.0 / kSize;
        build();
    }

    void build() {
        auto created = SnowField::create(settings, shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SnowField>>(created))
            << std::get<std::string>(created);
        field = std::move(std::get<0>(created));
        auto made = SceneRenderer::create(shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made))
            << std::get<std::string>(made);
        renderer = std::move(std::get<0>(made));
    }

    // Writes a persistent buffer directly: a disc of `value` of radius `radiusCm` at `centreCm`,
    // with a linear ramp `rampCm` wide at its edge (0: a hard edge).
    void pressDisc(int sim, glm::dvec2 centreCm, double radiusCm, float value = 1.0f,
                   double rampCm = 0.0) {
        const Region& region = field->sim(sim).region();
        std::vector<float> texels(kSize * kSize, 0.0f);
        for (int y = 0; y < kSize; ++y)
            for (int x = 0; x < kSize; ++x) {
                const double r = glm::length(texelCentreToWorld({x, y}, region) - centreCm);
                const double inside = rampCm > 0.0 ? std::clamp((radiusCm - r) / rampCm, 0.0, 1.0)
                                                   : (r <= radiusCm ? 1.0 : 0.0);
                texels[y * kSize + x] = static_cast<float>(inside * value);
            }
        glTextureSubImage2D(field->sim(sim).persistent().id(), 0, 0, 0, kSize, kSize, GL_RED,
                            GL_FLOAT, texels.data());
    }

    // Renders one debug output of sim 0 from straight above, one pixel per `pixelCm`, covering
    // `extent` region widths; returns RGBA floats, bottom row first.
    std::vector<float> renderTop(SurfaceOutput output, int pixels, double extent = 1.0,
                                 double eyeHeightCm = 0.0) {
        gpu::Texture2D colour(pixels, pixels, gpu::TextureFormat::RGBA32F, "test.colour");
        gpu::Texture2D depth(pixels, pixels, gpu::TextureFormat::D32F, "test.depth");
        gpu::Framebuffer framebuffer(&colour, &depth, "test.fbo");
        Region view = field->sim(0).region();
        view.widthCm *= extent;
        FrameView top;
        top.request.framebuffer = framebuffer.id();
        top.request.camera = topCamera(view, settings.snow.surfaceZCm, 1.0);
        if (eyeHeightCm > 0.0) // only the tessellation level looks at the eye's distance
            top.request.camera.eyeCm.z = static_cast<float>(eyeHeightCm);
        top.request.viewportPx = {0, 0, pixels, pixels};
        top.request.output = output;
        runFrame(*field, *renderer, {{}, 0.0, {{top}}});
        return colour.readFloats();
    }
};

TEST_F(SurfaceFixture, UntouchedSnowStaysAtTheSurfaceAndAFullPrintReachesTheGround) {
    pressDisc(0, {0.0, 0.0}, 60.0);
    field->applySettings(settings); // params upload; the buffer is kept
    for (SurfaceGeometry geometry : {SurfaceGeometry::VertexGrid, SurfaceGeometry::Tessellation}) {
        settings.sims[0].displacement = geometry;
        ASSERT_EQ(field->applySettings(settings), std::nullopt);
        const std::vector<float> height = renderTop(SurfaceOutput::Height, kSize);
        const float centre = height[(32 * kSize + 32) * 4];
        const float corner = height[(2 * kSize + 2) * 4];
        // A full print sinks (tgh - tgl) x displacement = snow depth (30 cm by default).
        EXPECT_NEAR(centre, -settings.snow.depthCm, 1e-3) << toString(geometry);
        EXPECT_EQ(corner, 0.0f) << toString(geometry); // exactly at surface_z
    }
}

class SurfaceTessellationLevels : public SurfaceFixture,
                                  public ::testing::WithParamInterface<double> {};

TEST_P(SurfaceTessellationLevels, VertexGridAndTessellationAgree) {
    // A smooth bowl (mask_multi 1, a 40 cm ramp) so the surface has no vertical walls. The eye
    // height sets the tessellation level: far (level ~8) and near (the maximum, 64 here).
    settings.sims[0].material.maskMulti = 1.0;
    pressDisc(0, {10.0, -20.0}, 70.0, 1.0f, 40.0);
    std::vector<std::vector<float>> heights;
    for (SurfaceGeometry geometry : {SurfaceGeometry::VertexGrid, SurfaceGeometry::Tessellation}) {
        settings.sims[0].displacement = geometry;
        ASSERT_EQ(field->applySettings(settings), std::nullopt);
        heights.push_back(renderTop(SurfaceOutput::Height, 128, 1.0, GetParam()));
    }
    // Both evaluate the same displacement function; they sample it at different vertices, so
    // they can differ only where the surface curves, by a linear interpolation error of about
    // slope x vertex spacing (0.75 x 4 cm). On flat snow and the flat print floor they agree
    // exactly.
    double worst = 0.0;
    int exact = 0;
    for (std::size_t i = 0; i < heights[0].size(); i += 4) {
        const double delta = std::abs(heights[0][i] - heights[1][i]);
        worst = std::max(worst, delta);
        exact += delta == 0.0;
    }
    RecordProperty("max_height_difference_cm", std::to_string(worst));
    EXPECT_LT(worst, 3.0);
    EXPECT_GT(exact, 128 * 128 / 2);
}

INSTANTIATE_TEST_SUITE_P(EyeHeights, SurfaceTessellationLevels, ::testing::Values(1000.0, 20.0),
                         [](const auto& info) { return info.param > 100.0 ? "Far" : "Near"; });

TEST_F(SurfaceFixture, BlurPrepassMatchesThePerPixelSpiralBlur) {
    // The same taps, once per texel centre and then interpolated, instead of at every pixel:
    // a linear filter commutes with bilinear interpolation up to the interpolation error.
    settings.sims[0].material.maskMulti = 1.0; // compare the blur itself, not its saturation
    pressDisc(0, {0.0, 0.0}, 50.0);
    std::vector<std::vector<float>> masks;
    for (BlurMode blur : {BlurMode::PerPixel, BlurMode::Prepass}) {
        settings.sims[0].blur = blur;
        ASSERT_EQ(field->applySettings(settings), std::nullopt);
        masks.push_back(renderTop(SurfaceOutput::SnowMask, 128));
    }
    double worst = 0.0, sum = 0.0;
    for (std::size_t i = 0; i < masks[0].size(); i += 4) {
        const double delta = std::abs(masks[0][i] - masks[1][i]);
        worst = std::max(worst, delta);
        sum += delta;
    }
    const double mean = sum / (masks[0].size() / 4);
    RecordProperty("max_abs_difference", std::to_string(worst));
    RecordProperty("mean_abs_difference", std::to_string(mean));
    EXPECT_LT(worst, 0.05);
    EXPECT_LT(mean, 0.005);
}

TEST_F(SurfaceFixture, FlatFieldGivesTheGroundNormalExactly) {
    for (NormalMode mode : {NormalMode::HeightToNormal, NormalMode::Sobel}) {
        settings.sims[0].normals = mode;
        ASSERT_EQ(field->applySettings(settings), std::nullopt);
        const std::vector<float> normals = renderTop(SurfaceOutput::Normal, 32);
        for (std::size_t i = 0; i < normals.size(); i += 4) {
            ASSERT_EQ(normals[i + 0], 0.0f);
            ASSERT_EQ(normals[i + 1], 0.0f);
            ASSERT_EQ(normals[i + 2], 1.0f);
        }
    }
}

TEST_F(SurfaceFixture, RimNormalsTiltTowardThePrintCentre) {
    const glm::dvec2 centre{0.0, 0.0};
    // A soft-edged print (mask_multi 1, a 30 cm ramp) so the rim spans many pixels.
    pressDisc(0, centre, 70.0, 1.0f, 30.0);
    settings.sims[0].material.maskMulti = 1.0;
    for (NormalMode mode : {NormalMode::HeightToNormal, NormalMode::Sobel}) {
        settings.sims[0].normals = mode;
        ASSERT_EQ(field->applySettings(settings), std::nullopt);
        const int pixels = 128;
        const std::vector<float> normals = renderTop(SurfaceOutput::Normal, pixels);
        int tilted = 0, inward = 0;
        for (int y = 0; y < pixels; ++y)
            for (int x = 0; x < pixels; ++x) {
                const float* n = &normals[(y * pixels + x) * 4];
                const glm::dvec2 world =
                    (glm::dvec2(x, y) + 0.5) / double(pixels) * kWidthCm - kWidthCm / 2.0;
                if (std::hypot(n[0], n[1]) < 0.05)
                    continue;
                ++tilted;
                inward += glm::dot(glm::dvec2(n[0], n[1]), centre - world) > 0.0;
            }
        EXPECT_GT(tilted, 100) << toString(mode);
        EXPECT_EQ(inward, tilted) << toString(mode);
    }
}

TEST_F(SurfaceFixture, OutsideTheRegionIsUntouchedSnowWithoutWrapAround) {
    // A print against the region's east border: nothing may appear beyond the border, nor at
    // the west border (wrap-around), nor smeared outward by a clamping sampler.
    pressDisc(0, {kWidthCm / 2.0 - 10.0, 0.0}, 40.0);
    const int pixels = 128;
    const std::vector<float> mask = renderTop(SurfaceOutput::SnowMask, pixels, 2.0);
    const std::vector<float> height = renderTop(SurfaceOutput::Height, pixels, 2.0);
    const std::vector<float> normal = renderTop(SurfaceOutput::Normal, pixels, 2.0);
    float insideMax = 0.0f;
    for (int y = 0; y < pixels; ++y)
        for (int x = 0; x < pixels; ++x) {
            const std::size_t i = (y * pixels + x) * 4;
            const bool outside =
                x < pixels / 4 || x >= 3 * pixels / 4 || y < pixels / 4 || y >= 3 * pixels / 4;
            // Undrawn pixels keep the clear value (0, 0, 0): a hole in the surface.
            ASSERT_GT(std::hypot(normal[i], normal[i + 1], normal[i + 2]), 0.5)
                << "a hole in the surface at " << x << "," << y;
            if (outside) {
                ASSERT_EQ(mask[i], 0.0f) << x << "," << y;
                ASSERT_EQ(height[i], 0.0f) << x << "," << y;
            } else {
                insideMax = std::max(insideMax, mask[i]);
                if (x < 3 * pixels / 8) // the region's west quarter: far from the print
                    ASSERT_EQ(mask[i], 0.0f) << "wrap-around at " << x << "," << y;
            }
        }
    EXPECT_GT(insideMax, 0.5f);
}

// normals: on a hard print edge Sobel's response is sharper than HeightToNormal's: a higher
// peak tilt over a narrower band (differences 2 texels apart, vs 3 for the smoothed central
// differences). Measured along the x axis through a disc's centre, 4 pixels a texel.
TEST_F(SurfaceFixture, SobelEdgeResponseIsSharperThanHeightToNormal) {
    settings.sims[0].material.maskMulti = 1.0;        // the raw step, unsaturated
    settings.sims[0].material.rtBlurDistance = 1e-4;  // and unblurred (a tap at the centre)
    settings.sims[0].material.normalIntensity = 0.05; // keep the tilt off its 90-degree limit
    ASSERT_EQ(field->applySettings(settings), std::nullopt);
    pressDisc(0, {0.0, 0.0}, 62.0);
    const int pixels = 256;
    struct Response {
        double peak = 0.0;
        double widthCm = 0.0;
    };
    std::array<Response, 2> responses;
    for (NormalMode mode : {NormalMode::HeightToNormal, NormalMode::Sobel}) {
        settings.sims[0].normals = mode;
        ASSERT_EQ(field->applySettings(settings), std::nullopt);
        const std::vector<float> normals = renderTop(SurfaceOutput::Normal, pixels);
        // The east edge: x from the centre out, row through the centre.
        const int row = pixels / 2;
        std::vector<double> tilt;
        for (int x = pixels / 2; x < pixels; ++x) {
            const float* n = &normals[(row * pixels + x) * 4];
            tilt.push_back(std::hypot(n[0], n[1]));
        }
        Response& r = responses[mode == NormalMode::Sobel];
        r.peak = *std::max_element(tilt.begin(), tilt.end());
        const auto above =
            std::count_if(tilt.begin(), tilt.end(), [&](double t) { return t > 0.5 * r.peak; });
        r.widthCm = above * kWidthCm / pixels;
    }
    RecordProperty("height_to_normal_peak_tilt", std::to_string(responses[0].peak));
    RecordProperty("height_to_normal_half_width_cm", std::to_string(responses[0].widthCm));
    RecordProperty("sobel_peak_tilt", std::to_string(responses[1].peak));
    RecordProperty("sobel_half_width_cm", std::to_string(responses[1].widthCm));
    std::printf("edge response: height_to_normal peak %.4f over %.1f cm, sobel peak %.4f over "
                "%.1f cm\n",
                responses[0].peak, responses[0].widthCm, responses[1].peak, responses[1].widthCm);
    EXPECT_GT(responses[0].peak, 0.01);
    EXPECT_GT(responses[1].peak, responses[0].peak * 1.2);
    EXPECT_LT(responses[1].widthCm, responses[0].widthCm);
}

// rims = "on": a single print gets a raised ring up to rim_height_cm just outside its visible
// edge; the print itself and the snow far away are untouched by it.
TEST_F(SurfaceFixture, RimsRaiseARingAroundASinglePrint) {
    settings.sims[0].material.rimHeightCm = 2.0;
    settings.sims[0].material.rimWidthCm = 16.0;
    std::array<std::vector<float>, 2> heights;
    for (RimMode rims : {RimMode::Off, RimMode::On}) {
        settings.sims[0].rims = rims;
        ASSERT_EQ(field->applySettings(settings), std::nullopt);
        pressDisc(0, {0.0, 0.0}, 40.0);
        heights[rims == RimMode::On] = renderTop(SurfaceOutput::Height, 128);
    }
    const int pixels = 128;
    // Per 4 cm annulus of distance from the centre: the highest point with rims on.
    std::array<float, 32> ringMax{};
    float inPrintDifference = 0.0f, farDifference = 0.0f, highest = 0.0f;
    for (int y = 0; y < pixels; ++y)
        for (int x = 0; x < pixels; ++x) {
            const std::size_t i = (y * pixels + x) * 4;
            const double r =
                glm::length((glm::dvec2(x, y) + 0.5) / double(pixels) * kWidthCm - kWidthCm / 2.0);
            const float on = heights[1][i], off = heights[0][i];
            highest = std::max(highest, on);
            ringMax[std::min(int(r / 4.0), 31)] = std::max(ringMax[std::min(int(r / 4.0), 31)], on);
            if (off < -0.999f * settings.snow.depthCm)
                inPrintDifference = std::max(inPrintDifference, std::abs(on - off));
            if (r > 100.0 && r < 120.0)
                farDifference = std::max(farDifference, std::abs(on - off));
        }
    std::string profile;
    for (int k = 8; k < 24; ++k)
        profile += std::to_string(k * 4) + "cm:" + std::to_string(ringMax[k]).substr(0, 5) + " ";
    RecordProperty("rim_profile", profile);
    RecordProperty("rim_crest_cm", std::to_string(highest));
    std::printf("rim crest %.3f cm; ring maxima %s\n", highest, profile.c_str());
    EXPECT_GT(highest, 0.8 * settings.sims[0].material.rimHeightCm);
    EXPECT_LE(highest, settings.sims[0].material.rimHeightCm + 1e-3);
    EXPECT_EQ(inPrintDifference, 0.0f) << "a rim must not lift the print's floor";
    EXPECT_EQ(farDifference, 0.0f) << "snow far from the print stays at the surface";
    // The crest lies outside the print and its blur: not within 40 cm of the centre.
    for (int k = 0; k < 10; ++k)
        EXPECT_LE(ringMax[k], 0.0f) << "raised inside the print at " << k * 4 << " cm";

    // The ring shades too: it stands where Snow_Mask is 0, so it must bring its own normals.
    const std::vector<float> normals = renderTop(SurfaceOutput::Normal, pixels);
    int tiltedOnRing = 0;
    for (int y = 0; y < pixels; ++y)
        for (int x = 0; x < pixels; ++x) {
            const double r =
                glm::length((glm::dvec2(x, y) + 0.5) / double(pixels) * kWidthCm - kWidthCm / 2.0);
            const float* n = &normals[(y * pixels + x) * 4];
            tiltedOnRing += r > 52.0 && r < 72.0 && std::hypot(n[0], n[1]) > 0.05;
        }
    EXPECT_GT(tiltedOnRing, 200);
}

// rims = "on" where prints overlap: a rim never fills another print, so every texel of both
// prints keeps exactly the depth it has without rims.
TEST_F(SurfaceFixture, OverlappingPrintsKeepTheirDepthWithRims) {
    const Region& region = field->sim(0).region();
    std::vector<float> texels(kSize * kSize, 0.0f);
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const glm::dvec2 p = texelCentreToWorld({x, y}, region);
            const bool first = glm::length(p - glm::dvec2(-28.0, 0.0)) <= 32.0;
            const bool second = glm::length(p - glm::dvec2(28.0, 10.0)) <= 32.0;
            texels[y * kSize + x] = first ? 1.0f : (second ? 0.5f : 0.0f);
        }
    std::array<std::vector<float>, 2> heights;
    for (RimMode rims : {RimMode::Off, RimMode::On}) {
        settings.sims[0].rims = rims;
        ASSERT_EQ(field->applySettings(settings), std::nullopt);
        glTextureSubImage2D(field->sim(0).persistent().id(), 0, 0, 0, kSize, kSize, GL_RED,
                            GL_FLOAT, texels.data());
        heights[rims == RimMode::On] = renderTop(SurfaceOutput::Height, 128);
    }
    // Where a print is full depth the rim adds exactly nothing; on its sloping edge at most
    // rim_height x (1 - Snow_Mask), the untouched share of the snow there.
    const double depth = settings.snow.depthCm, rim = settings.sims[0].material.rimHeightCm;
    int pressed = 0, changed = 0, overBound = 0;
    float raised = 0.0f;
    for (std::size_t i = 0; i < heights[0].size(); i += 4) {
        const float off = heights[0][i], on = heights[1][i];
        raised = std::max(raised, on);
        if (off < -0.999f * depth) { // full depth, up to float rounding of the remap
            ++pressed;
            changed += std::abs(on - off) > 1e-3f;
        } else if (off < 0.0f) {
            overBound += on - off > rim * (1.0 + off / depth) + 1e-3;
        }
    }
    EXPECT_GT(pressed, 500);
    EXPECT_EQ(changed, 0);
    EXPECT_EQ(overBound, 0);
    EXPECT_GT(raised, 1.0f) << "the pair still has a rim around it";
}

// The lit result as a picture, compared with a reference of the driver's vendor class
// (tests/golden/press_release_lit.png rendered on llvmpipe; press_release_lit.hardware.png, once
// a GPU has written one, for GPUs; until then a GPU compares with llvmpipe's, more loosely).
// Tolerance on llvmpipe: |delta| <= 3/255 per channel on at most 0.5 % of pixels — room for a
// different LLVM's transcendental approximations (pow, sin/cos in the blur taps) shifting a few
// edge pixels by one or two codes; a changed look (light, layers, normals) moves thousands.
// Against its own class's reference a GPU is held to the same. Against llvmpipe's: 12/255 on
// 3 % — the persistent buffer's half floats round to nearest there (truncated on llvmpipe), a
// half ulp that mask_multi (50) turns into up to 0.025 of snow mask on the prints' slopes, and
// bilinear weights of 8 sub-texel bits move the blurred rims; both shift whole rim outlines by a
// few codes, not the picture.
// Regenerate: SNOWCAP_UPDATE_GOLDEN=1 ctest -R Golden (writes the reference of this driver's
// class), then look at the new PNG.
TEST(SurfaceGolden, PressReleaseLitMatchesReference) {
    auto loaded = loadSettings({test::sourceDir() / "config/default.toml",
                                test::sourceDir() / "config/scenarios/press_release.toml"},
                               {"view.width=256", "view.height=144", "view.distance_cm=420",
                                "view.pitch_deg=35", "sim.a.decay=0.95"});
    ASSERT_TRUE(std::holds_alternative<Settings>(loaded)) << std::get<ConfigError>(loaded).message;
    const Settings settings = std::get<Settings>(loaded);
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto field = SnowField::create(settings, shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SnowField>>(field));
    auto renderer = SceneRenderer::create(shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(renderer));
    std::vector<Deformer> deformers;
    for (const DeformerSettings& d : settings.deformers)
        deformers.push_back(makeDeformer(d, groundZCm(settings.snow)));
    DeformerSet set(std::move(deformers));
    SnowField& snow = *std::get<0>(field);
    const double dt = 1.0 / 60.0;
    // 1 s after the release: A (0.95) is fading from the rim inwards, B (0.999) is not.
    const int steps = 120;
    for (int step = 0; step < steps; ++step)
        snow.step(set.instancesAt((step + 1) * dt), dt);

    const ImageRgba8 actual =
        renderFinalImage(snow, *std::get<0>(renderer), set.instancesAt(steps * dt), settings);

    const auto golden = test::sourceDir() / "tests/golden";
    const bool hardware = test::vendorClass() == test::VendorClass::Hardware;
    const auto ownReference =
        golden / (hardware ? "press_release_lit.hardware.png" : "press_release_lit.png");
    if (std::getenv("SNOWCAP_UPDATE_GOLDEN")) {
        ASSERT_EQ(writePng(ownReference, actual), std::nullopt);
        GTEST_SKIP() << "reference written to " << ownReference;
    }
    const bool ownClass = std::filesystem::exists(ownReference);
    const auto reference = ownClass ? ownReference : golden / "press_release_lit.png";
    const int tolerance = ownClass ? 3 : 12;
    const double share = ownClass ? 0.005 : 0.03;
    auto expected = readPng(reference);
    ASSERT_TRUE(std::holds_alternative<ImageRgba8>(expected)) << std::get<std::string>(expected);
    const ImageDiff diff = compareImages(std::get<ImageRgba8>(expected), actual, tolerance);
    RecordProperty("vendor_class", test::vendorClassName());
    RecordProperty("reference", reference.filename().string());
    RecordProperty("max_delta", diff.maxDelta);
    RecordProperty("fraction_over", std::to_string(diff.fractionOver));
    if (diff.fractionOver > share) {
        const auto dir = test::scratchDir();
        writePng(dir / "actual.png", actual);
        writePng(dir / "diff.png", diff.diffImage);
        ADD_FAILURE() << "golden image " << reference.filename() << " differs ("
                      << test::vendorClassName() << " driver): " << diff.fractionOver * 100.0
                      << " % of pixels over " << tolerance << "/255 (max " << diff.maxDelta
                      << "); actual and diff in " << dir;
    }
}

} // namespace
} // namespace snowcap
