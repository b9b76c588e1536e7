// The look's layers and lights on the driver: flat snow with the new switches off is the
// diffuse look from before them (a CPU evaluation of that formula), the layers' occlusion and
// roughness, the deformers' shadow map against a CPU ray test, and sparkle seeded in the world.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "render/deformer_set.hpp"
#include "render/frame.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"

#include <cmath>
#include <glm/geometric.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSize = 64;          // buffer texels per side
constexpr double kWidthCm = 256.0; // 4 cm a texel

struct LookFixture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    Settings settings;
    std::unique_ptr<SnowField> field;
    std::unique_ptr<SceneRenderer> renderer;

    void SetUp() override {
        settings.snow.resolution = kSize;
        settings.snow.orthoWidthCm = kWidthCm;
        settings.look.detailNormal = 0.0; // flat: the ground normal is exactly +Z
        for (SimSettings& sim : settings.sims)
            sim.material.rtBlurDistance = 3.0 / kSize;
        auto created = SnowField::create(settings, shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SnowField>>(created))
            << std::get<std::string>(created);
        field = std::move(std::get<0>(created));
        auto made = SceneRenderer::create(shaders);
        ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SceneRenderer>>(made))
            << std::get<std::string>(made);
        renderer = std::move(std::get<0>(made));
    }

    void apply() { ASSERT_EQ(field->applySettings(settings), std::nullopt); }

    // Sim 0 from straight above over `view` (a region-sized square), RGBA floats, bottom row
    // first, with `deformers` in the frame (they cast; debug outputs do not draw them).
    std::vector<float> renderTop(SurfaceOutput output, int pixels, const Region& view,
                                 std::span<const DeformerInstance> deformers = {}) {
        gpu::Texture2D colour(pixels, pixels, gpu::TextureFormat::RGBA32F, "test.colour");
        gpu::Texture2D depth(pixels, pixels, gpu::TextureFormat::D32F, "test.depth");
        gpu::Framebuffer framebuffer(&colour, &depth, "test.fbo");
        FrameView top;
        top.request.framebuffer = framebuffer.id();
        top.request.camera = topCamera(view, settings.snow.surfaceZCm, 1.0);
        top.request.viewportPx = {0, 0, pixels, pixels};
        top.request.output = output;
        runFrame(*field, *renderer, {deformers, 0.0, {{top}}});
        return colour.readFloats();
    }

    void pressTexels(const std::vector<float>& texels) {
        glTextureSubImage2D(field->sim(0).persistent().id(), 0, 0, 0, kSize, kSize, GL_RED,
                            GL_FLOAT, texels.data());
    }
};

// shade() and toDisplay() as they were before occlusion, specular and shadows, for n = +Z.
glm::vec3 diffuseLookOnFlatSnow(const LookSettings& look, glm::vec3 albedo) {
    const glm::vec3 toSun = glm::normalize(look.sunDirection);
    const float wrap = static_cast<float>(look.wrap);
    const float lambert = std::max(toSun.z, 0.0f);
    const float wrapped = std::max((toSun.z + wrap) / (1.0f + wrap), 0.0f);
    const glm::vec3 linear =
        albedo * look.sunColour * lambert +
        albedo * look.ssSnow * look.sunColour * std::max(wrapped - lambert, 0.0f) +
        albedo * look.skyColour * 1.0f;
    glm::vec3 out;
    for (int c = 0; c < 3; ++c) {
        const float x = linear[c] * 0.8f;
        const float m =
            std::clamp((x * (2.51f * x + 0.03f)) / (x * (2.43f * x + 0.59f) + 0.14f), 0.0f, 1.0f);
        out[c] = m < 0.0031308f ? 12.92f * m : 1.055f * std::pow(m, 1.0f / 2.4f) - 0.055f;
    }
    return out;
}

TEST_F(LookFixture, FlatSnowWithTheNewSwitchesOffIsTheDiffuseLook) {
    settings.look.specular = false;
    settings.look.sparkle = false;
    settings.look.deformerShadows = false;
    settings.look.snowOr[0] = 1.0; // no occlusion in the layer's hollows
    apply();
    const Region& region = field->sim(0).region();
    const std::vector<float> albedo = renderTop(SurfaceOutput::Albedo, 32, region);
    const std::vector<float> lit = renderTop(SurfaceOutput::Lit, 32, region);
    double worst = 0.0;
    for (std::size_t i = 0; i < lit.size(); i += 4) {
        const glm::vec3 expected =
            diffuseLookOnFlatSnow(settings.look, {albedo[i], albedo[i + 1], albedo[i + 2]});
        for (int c = 0; c < 3; ++c)
            worst = std::max(worst, std::abs(double(lit[i + c]) - expected[c]));
    }
    RecordProperty("max_difference", std::to_string(worst));
    EXPECT_LT(worst, 2e-4); // float rounding; one 8-bit code is 4e-3
    // And the default look is not that: the specular lobe and the sky's reflection add light.
    settings.look = LookSettings{};
    settings.look.detailNormal = 0.0;
    settings.look.snowOr[0] = 1.0;
    apply();
    const std::vector<float> specular = renderTop(SurfaceOutput::Lit, 32, region);
    EXPECT_NE(specular, lit);
}

TEST_F(LookFixture, ADeepNarrowPrintIsOccludedAtItsBottomAndPackedSnowIsSmoother) {
    settings.sims[0].material.maskMulti = 1.0; // the blurred print as it is: a V, not a floor
    settings.look.snowOr = {1.0, 0.6};
    settings.look.packedOr = {1.0, 0.3};
    apply();
    // A groove one texel wide along y at x = -64 cm, a disc of radius 60 cm at x = +64 cm.
    const Region& region = field->sim(0).region();
    std::vector<float> texels(kSize * kSize, 0.0f);
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const glm::dvec2 p = texelCentreToWorld({x, y}, region);
            if (std::abs(p.x + 64.0) < 2.5) // two texels
                texels[y * kSize + x] = 1.0f;
            if (glm::length(p - glm::dvec2(64.0, 0.0)) < 60.0)
                texels[y * kSize + x] = 1.0f;
        }
    pressTexels(texels);
    const int pixels = 128; // 2 cm a pixel
    auto at = [&](const std::vector<float>& image, double xCm, double yCm) {
        const int px = static_cast<int>((xCm + kWidthCm / 2) / kWidthCm * pixels);
        const int py = static_cast<int>((yCm + kWidthCm / 2) / kWidthCm * pixels);
        return image[(static_cast<std::size_t>(py) * pixels + px) * 4];
    };
    const std::vector<float> occlusion = renderTop(SurfaceOutput::Occlusion, pixels, region);
    const std::vector<float> roughness = renderTop(SurfaceOutput::Roughness, pixels, region);
    const float groove = at(occlusion, -64.0, 0.0), floor = at(occlusion, 64.0, 0.0),
                untouched = at(occlusion, 0.0, 100.0);
    RecordProperty("groove_occlusion", std::to_string(groove));
    EXPECT_EQ(untouched, 1.0f);
    EXPECT_GT(floor, 0.97f); // the wide floor is flat: no crevice
    EXPECT_LT(groove, floor - 0.1f);
    // Roughness: the layer's value +-10 %; packed snow in the disc, fresh snow outside.
    EXPECT_NEAR(at(roughness, 0.0, 100.0), 0.6, 0.061);
    EXPECT_NEAR(at(roughness, 64.0, 0.0), 0.3, 0.031);
    // With the crevice term off the groove is as open as the snow around it.
    settings.look.creviceOcclusion = 0.0;
    apply();
    EXPECT_EQ(at(renderTop(SurfaceOutput::Occlusion, pixels, region), -64.0, 0.0), 1.0f);
}

// Whether the segment from `p` towards the sun meets the box (slab test, t >= 0).
bool rayHitsBox(glm::dvec3 p, glm::dvec3 toSun, glm::dvec3 low, glm::dvec3 high) {
    double t0 = 0.0, t1 = 1e9;
    for (int a = 0; a < 3; ++a) {
        if (std::abs(toSun[a]) < 1e-12) {
            if (p[a] < low[a] || p[a] > high[a])
                return false;
            continue;
        }
        double ta = (low[a] - p[a]) / toSun[a], tb = (high[a] - p[a]) / toSun[a];
        if (ta > tb)
            std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
    }
    return t0 <= t1;
}

// What a box on the snow at `centreXy` shadows in a top view of the shadow stage over `view`,
// against a CPU ray test of every pixel's point on the surface.
struct BoxShadowCheck {
    int shadowed = 0;      // pixels the ray test puts in the shadow or under the box
    int outsideRegion = 0; // of those, beyond the region's border (on the skirt)
    int edge = 0;          // disagreements within one shadow texel of the shadow's edge
    int wrong = 0;         // the others
    double texelCm = 0.0;
};

BoxShadowCheck checkBoxShadow(LookFixture& f, glm::dvec2 centreXy, const Region& view) {
    f.settings.look.sunDirection = {-0.6f, -0.45f, 0.6f}; // 39 degrees up: a 100 cm shadow
    DeformerSettings box;
    box.name = "box";
    box.shape = DeformerShape::Box;
    box.sizeCm = {20.0f, 15.0f, 40.0f}; // half extents
    box.placement = DeformerSettings::Placement::Absolute;
    const glm::dvec3 centre(centreXy, f.settings.snow.surfaceZCm + 40.0); // on the snow
    box.path = {{0.0, glm::vec3(centre)}};
    f.settings.deformers = {box};
    f.apply();
    std::vector<Deformer> deformers;
    deformers.push_back(makeDeformer(box, groundZCm(f.settings.snow)));
    DeformerSet set(std::move(deformers));
    const auto& instances = set.instancesAt(0.0);
    BoxShadowCheck check;
    EXPECT_EQ(instances.size(), 1u);
    if (instances.size() != 1)
        return check;
    const glm::dvec3 low = glm::dvec3(instances[0].worldBounds.min);
    const glm::dvec3 high = glm::dvec3(instances[0].worldBounds.max);
    EXPECT_NEAR(low.z, f.settings.snow.surfaceZCm, 1e-3);

    const int pixels = 128;
    const Region& region = f.field->sim(0).region();
    const std::vector<float> shadow = f.renderTop(SurfaceOutput::Shadow, pixels, view, instances);
    const glm::dvec3 toSun = glm::normalize(glm::dvec3(f.settings.look.sunDirection));
    // One shadow texel, as far as it reaches along the ground (stretched by 1 / sin elevation).
    check.texelCm = f.renderer->shadow().current().block.texel[2];
    const double reach = check.texelCm / toSun.z;
    for (int py = 0; py < pixels; ++py)
        for (int px = 0; px < pixels; ++px) {
            const glm::dvec3 p(view.centreCm.x + ((px + 0.5) / pixels - 0.5) * view.widthCm,
                               view.centreCm.y + ((py + 0.5) / pixels - 0.5) * view.widthCm,
                               f.settings.snow.surfaceZCm);
            const bool expected = rayHitsBox(p, toSun, low, high);
            const bool measured = shadow[(static_cast<std::size_t>(py) * pixels + px) * 4] < 0.5f;
            check.shadowed += expected;
            const glm::dvec2 offset = glm::abs(glm::dvec2(p) - region.centreCm);
            check.outsideRegion +=
                expected && std::max(offset.x, offset.y) > region.widthCm * 0.5 + 4.0;
            if (expected == measured)
                continue;
            // Within one texel of the shadow's edge either answer is right.
            bool nearEdge = false;
            for (double dx : {-reach, 0.0, reach})
                for (double dy : {-reach, 0.0, reach})
                    nearEdge |=
                        rayHitsBox(p + glm::dvec3(dx, dy, 0.0), toSun, low, high) != expected;
            (nearEdge ? check.edge : check.wrong) += 1;
        }
    return check;
}

TEST_F(LookFixture, ABoxShadowsTheTexelsARayTestSays) {
    const BoxShadowCheck check = checkBoxShadow(*this, {-50.0, -40.0}, field->sim(0).region());
    RecordProperty("shadowed_pixels", check.shadowed);
    RecordProperty("edge_disagreements", check.edge);
    RecordProperty("shadow_texel_cm", std::to_string(check.texelCm));
    EXPECT_GT(check.shadowed, 500); // the box's footprint and its shadow: about 40 x 130 cm
    EXPECT_EQ(check.wrong, 0);
    EXPECT_LT(check.texelCm, 1.0);
}

// A box near the region's corner throws its shadow past the border onto the skirt: the map
// covers it there too (growShadowBox), and the ray test agrees beyond the border as inside.
TEST_F(LookFixture, AShadowPastTheRegionsBorderFallsOnTheSkirt) {
    const Region view{{0.0, 0.0}, 2.0 * kWidthCm, 128}; // twice the region: 4 cm a pixel
    const BoxShadowCheck check = checkBoxShadow(*this, {90.0, 80.0}, view);
    RecordProperty("shadowed_pixels", check.shadowed);
    RecordProperty("outside_region", check.outsideRegion);
    RecordProperty("edge_disagreements", check.edge);
    RecordProperty("shadow_texel_cm", std::to_string(check.texelCm));
    EXPECT_GT(check.outsideRegion, 100); // most of the ~80 x 100 cm shadow is beyond x, y = 128
    EXPECT_EQ(check.wrong, 0);
}

TEST_F(LookFixture, SparkleGlintsStayOnTheirWorldPointsAsTheCameraMoves) {
    settings.look.sparkle = true;
    apply();
    // 0.5 cm a pixel; the second camera is 8 pixels (4 cm) further along +x.
    const int pixels = 128;
    Region view{{0.0, 0.0}, 64.0, pixels};
    const std::vector<float> first = renderTop(SurfaceOutput::SparkleSeed, pixels, view);
    view.centreCm.x += 4.0;
    const std::vector<float> second = renderTop(SurfaceOutput::SparkleSeed, pixels, view);
    int seeds = 0, same = 0, compared = 0;
    for (int y = 0; y < pixels; ++y)
        for (int x = 0; x + 8 < pixels; ++x) {
            const float a = first[(static_cast<std::size_t>(y) * pixels + x + 8) * 4];
            const float b = second[(static_cast<std::size_t>(y) * pixels + x) * 4];
            seeds += a > 0.5f;
            same += (a > 0.5f) == (b > 0.5f);
            ++compared;
        }
    RecordProperty("seed_pixels", seeds);
    EXPECT_GT(seeds, compared / 100); // there are glints to compare
    EXPECT_LT(seeds, compared / 4);
    EXPECT_GT(same, compared - compared / 200); // all but a few rounding cases on cell edges
}

// The glints' light in the specular stage (the sun's lobe and the glints, tone-mapped): its
// mean over a top view, sparkle on less sparkle off.
double meanGlint(LookFixture& f, const Region& view, int pixels) {
    f.settings.look.sparkle = true;
    f.apply();
    const std::vector<float> on = f.renderTop(SurfaceOutput::Specular, pixels, view);
    f.settings.look.sparkle = false;
    f.apply();
    const std::vector<float> off = f.renderTop(SurfaceOutput::Specular, pixels, view);
    double sum = 0.0;
    for (std::size_t i = 0; i < on.size(); i += 4)
        sum += on[i] - off[i];
    return sum / (on.size() / 4);
}

TEST_F(LookFixture, FarSparkleFadesWithThePixelsFootprint) {
    // Point-sampled glints keep their mean at any distance (each pixel catches a glint with the
    // same odds) but flicker where a pixel spans several cells: from 2 cells a pixel they fade.
    const int pixels = 256;
    // Widths that put the pixel centres at every phase of the 1 cm cells (4 cm a pixel exactly
    // would sample each cell at its corner, where no glint sits, with or without the fade).
    const double near = meanGlint(*this, Region{{0.3, 0.7}, 97.0, pixels}, pixels);  // 0.38 cm
    const double far = meanGlint(*this, Region{{0.3, 0.7}, 1001.0, pixels}, pixels); // 3.9 cm
    RecordProperty("mean_glint_near", std::to_string(near));
    RecordProperty("mean_glint_far", std::to_string(far));
    EXPECT_GT(near, 1e-4); // there are glints close up
    EXPECT_LT(std::abs(far), 0.02 * near);
}

} // namespace
} // namespace snowcap
