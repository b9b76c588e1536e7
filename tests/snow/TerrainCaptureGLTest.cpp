// The capture against the terrain (capture_reference = "terrain", docs/terrain.md): each texel's
// camera sits capture_z below its own snow top, so the depth it records is what the flat capture
// records over flat snow; against the one flat plane ("plane") a print's depth depends on where
// on the hill it is. The CPU reference is the geometry itself: a sled's flat bottom, tilted with
// the slope, at a known depth below the local snow top.
#include "GLTestSupport.hpp"
#include "gpu/gpu_mesh.hpp"
#include "scene/deformer.hpp"
#include "snow/contact_capture.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <iostream>

namespace snowcap {
namespace {

constexpr double kCameraZCm = -100.0; // snow.surface_z_cm 0 + capture_z_cm -100
constexpr double kFarCm = 2000.0;

// A plane rising `slopeDeg` towards +X through height 0 at x = 0: seven columns 20 m apart
// (bilinear heights of a linear field are exact, and so is the normal's central difference a
// cell apart within 40 m of the middle).
std::shared_ptr<const HeightField> ramp(double slopeDeg) {
    const double rise = std::tan(glm::radians(slopeDeg)); // metres per metre
    std::vector<float> heights;
    for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 7; ++column)
            heights.push_back(float((column - 3) * 20.0 * rise));
    return std::make_shared<const HeightField>(7, 3, heights, glm::dvec2(0.0),
                                               glm::dvec2(14000.0, 6000.0));
}

struct TerrainCaptureFixture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    const gpu::ShaderProgram* flatProgram = nullptr;
    const gpu::ShaderProgram* terrainProgram = nullptr;

    void SetUp() override {
        for (bool terrain : {false, true}) {
            auto loaded = shaders.load(contactCaptureProgram(terrain));
            ASSERT_TRUE(std::holds_alternative<gpu::ShaderProgram*>(loaded))
                << std::get<std::string>(loaded);
            (terrain ? terrainProgram : flatProgram) = std::get<gpu::ShaderProgram*>(loaded);
        }
    }

    static CaptureKey key(const Region& region, std::shared_ptr<const HeightField> terrain) {
        CaptureKey k{region, kCameraZCm, kFarCm};
        k.terrain = std::move(terrain);
        k.terrainSpanCm = captureTerrainSpan(k);
        return k;
    }
};

// A sled: a box of half extents `half` turned about Y so that its bottom lies along a slope of
// `slopeDeg` rising towards +X, the middle of its bottom at `bottomCentre`.
glm::mat4 sledModel(glm::vec3 bottomCentre, glm::vec3 half, double slopeDeg) {
    const glm::mat4 turn =
        glm::rotate(glm::mat4(1.0f), float(glm::radians(-slopeDeg)), glm::vec3(0, 1, 0));
    const glm::vec3 up = glm::vec3(turn * glm::vec4(0, 0, 1, 0));
    return glm::translate(glm::mat4(1.0f), bottomCentre + up * half.z) * turn;
}

TEST_F(TerrainCaptureFixture, EachTexelRecordsTheDepthAboveItsOwnSnowTop) {
    // A sled 20 cm into the snow of a 30 degree slope: every texel under its bottom records 80
    // cm above its own camera (100 cm below its own top), as over flat snow.
    const Region region{{0.0, 0.0}, 256.0, 64};
    const auto terrain = ramp(30.0);
    ContactCapture capture(key(region, terrain));
    const glm::vec3 half{60.0f, 40.0f, 10.0f};
    const Mesh box = makeBox(half);
    const gpu::GpuMesh mesh(box, "sled");
    const glm::vec3 bottom(0.0f, 0.0f, float(terrain->heightCm(0.0, 0.0) - 20.0));
    const glm::mat4 model = sledModel(bottom, half, 30.0);
    const DeformerInstance sled{&mesh, model, box.bounds().transformed(model)};
    EXPECT_EQ(capture.capture({&sled, 1}, *terrainProgram), 1);

    const std::vector<float> depth = capture.depth().readFloats();
    const std::vector<float> heights = capture.terrainHeight().readFloats();
    int under = 0;
    double worst = 0.0;
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) {
            const glm::dvec2 at = texelCentreToWorld({x, y}, region);
            // The terrain texture holds the field's heights at the texel centres.
            ASSERT_NEAR(heights[y * 64 + x], terrain->heightCm(at.x, at.y), 1e-3);
            // Texels well inside the bottom's footprint (its edges run diagonally in depth).
            const double along = at.x / std::cos(glm::radians(30.0));
            if (std::abs(along) > half.x - 8.0 || std::abs(at.y) > half.y - 8.0)
                continue;
            ++under;
            worst = std::max(worst, std::abs(depth[y * 64 + x] * kFarCm - 80.0));
        }
    EXPECT_GT(under, 100);
    EXPECT_LT(worst, 0.01);    // cm: float rounding of heights of about a metre
    EXPECT_EQ(depth[0], 1.0f); // nothing at the corner
}

TEST_F(TerrainCaptureFixture, FlatTerrainMakesTheFlatCapture) {
    CaptureKey flatKey{{{0.0, 0.0}, 256.0, 64}, kCameraZCm, kFarCm};
    flatKey.terrain = std::make_shared<const HeightField>();
    EXPECT_FALSE(flatKey.followsTerrain());
    ContactCapture capture(flatKey);
    EXPECT_EQ(capture.terrainHeight().id(), 0u); // no texture, the flat camera
}

// The deepest print under the sled (cm below the snow top as the sims read it: capture_z
// above the camera minus the recorded depth), and how many texels press at all.
struct Print {
    double deepestCm = 0.0;
    int texels = 0;
};
Print printOf(const ContactCapture& capture) {
    Print print;
    for (float d : capture.depth().readFloats()) {
        if (d >= 1.0f)
            continue;
        const double penetration = -kCameraZCm - double(d) * kFarCm;
        if (penetration > 0.0) {
            print.deepestCm = std::max(print.deepestCm, penetration);
            ++print.texels;
        }
    }
    return print;
}

TEST_F(TerrainCaptureFixture, ASledDraggedAlongA30DegreeSlopePrintsEvenlyOnlyAgainstTheTerrain) {
    // 16 m along the slope, up and back down, its bottom 10 cm into the snow throughout; the
    // capture follows the sled (a 20.48 m region of 128 texels, 16 cm each).
    const auto terrain = ramp(30.0);
    const glm::vec3 half{50.0f, 30.0f, 10.0f};
    const Mesh box = makeBox(half);
    const gpu::GpuMesh mesh(box, "sled");
    const double cos30 = std::cos(glm::radians(30.0));
    std::vector<double> terrainDepths, planeDepths;
    int planeNone = 0, planeRight = 0;
    for (int step = 0; step <= 16; ++step) {
        const double along = -800.0 + 100.0 * step; // cm along the slope, bottom's middle
        const double x = along * cos30;
        const glm::vec3 bottom(float(x), 0.0f, float(terrain->heightCm(x, 0.0) - 10.0));
        const glm::mat4 model = sledModel(bottom, half, 30.0);
        const DeformerInstance sled{&mesh, model, box.bounds().transformed(model)};
        const Region region{{x, 0.0}, 2048.0, 128};
        ContactCapture withTerrain(key(region, terrain));
        ContactCapture withPlane(key(region, nullptr));
        withTerrain.capture({&sled, 1}, *terrainProgram);
        withPlane.capture({&sled, 1}, *flatProgram);
        const Print t = printOf(withTerrain), p = printOf(withPlane);
        terrainDepths.push_back(t.deepestCm);
        planeDepths.push_back(p.deepestCm);
        planeNone += p.texels == 0;
        planeRight += std::abs(p.deepestCm - 10.0) <= 0.5;
        std::cout << "along " << along << " cm: terrain " << t.deepestCm << " cm (" << t.texels
                  << " texels), plane " << p.deepestCm << " cm (" << p.texels << " texels)\n";
    }
    const auto [low, high] = std::minmax_element(terrainDepths.begin(), terrainDepths.end());
    double mean = 0.0;
    for (double d : terrainDepths)
        mean += d / double(terrainDepths.size());
    std::cout << "terrain: print depth " << *low << " .. " << *high << " cm, mean " << mean
              << ", spread " << 100.0 * (*high - *low) / mean << " %\n";
    EXPECT_NEAR(mean, 10.0, 0.5);
    EXPECT_LT((*high - *low) / mean, 0.05);
    // Against the plane the same sled prints nothing uphill (above the plane) nor far downhill
    // (below its camera), and too deep in between: right (within 5 %) at one place at most.
    std::cout << "plane: no print at " << planeNone << " of 17 places, right at " << planeRight
              << "\n";
    EXPECT_GE(planeNone, 12);
    EXPECT_LE(planeRight, 1);
}

TEST_F(TerrainCaptureFixture, ABoxDrapedUpAndDownA30DegreeSlopePrintsEvenlyOnlyAgainstTheTerrain) {
    // placement = "draped": a box's path 16 m up the slope and back down at 1 m/s, its z 10 cm
    // below the snow top under it, the terrain's height found by the deformer at each moment;
    // a rigid deformer lies on the slope, so its whole bottom is 10 cm into the snow, wherever
    // it is, and the capture must hand the sims that print everywhere.
    const auto terrain = ramp(30.0);
    SnowSettings snow; // surface_z_cm 0, as kCameraZCm assumes
    const glm::vec3 size{100.0f, 60.0f, 20.0f};
    DeformerSettings settings;
    settings.name = "box";
    settings.shape = DeformerShape::Box;
    settings.sizeCm = size;
    settings.placement = DeformerSettings::Placement::Draped;
    settings.pathKind = DeformerSettings::PathKind::Polyline;
    settings.pathMode = DeformerSettings::PathMode::PingPong;
    const float reachX = float(800.0 * std::cos(glm::radians(30.0))); // 8 m along the slope
    settings.waypointsCm = {{-reachX, 0.0f, -10.0f}, {reachX, 0.0f, -10.0f}};
    settings.speedCmS = 100.0 * std::cos(glm::radians(30.0)); // 1 m/s along the slope
    const Deformer box = makeDeformer(settings, DeformerGround(snow, terrain));
    const gpu::GpuMesh mesh(box.mesh, "box");
    std::vector<double> terrainDepths;
    int planeNone = 0;
    double planeLow = 1e9, planeHigh = 0.0;
    const double lap = 2.0 * box.path.passDurationS(); // up and back: 32 s
    for (int step = 0; step <= 32; ++step) {
        const double t = lap * step / 32.0;
        const glm::mat4 model = box.modelAt(t);
        const double x = model[3].x;
        // The middle of the box's bottom is 10 cm below the top under it, wherever it is.
        ASSERT_NEAR(model[3].z, terrain->heightCm(x, 0.0) - 10.0, 1e-3) << t;
        const DeformerInstance instance{&mesh, model, box.mesh.bounds().transformed(model)};
        const Region region{{x, 0.0}, 2048.0, 128};
        ContactCapture withTerrain(key(region, terrain));
        ContactCapture withPlane(key(region, nullptr));
        withTerrain.capture({&instance, 1}, *terrainProgram);
        withPlane.capture({&instance, 1}, *flatProgram);
        const Print onTerrain = printOf(withTerrain), onPlane = printOf(withPlane);
        terrainDepths.push_back(onTerrain.deepestCm);
        planeNone += onPlane.texels == 0;
        if (onPlane.texels > 0) {
            planeLow = std::min(planeLow, onPlane.deepestCm);
            planeHigh = std::max(planeHigh, onPlane.deepestCm);
        }
        std::cout << "draped t " << t << " s, x " << x << " cm: terrain " << onTerrain.deepestCm
                  << " cm (" << onTerrain.texels << " texels), plane " << onPlane.deepestCm
                  << " cm (" << onPlane.texels << " texels)\n";
    }
    const auto [low, high] = std::minmax_element(terrainDepths.begin(), terrainDepths.end());
    double mean = 0.0;
    for (double d : terrainDepths)
        mean += d / double(terrainDepths.size());
    std::cout << "draped, terrain: print depth " << *low << " .. " << *high << " cm, mean " << mean
              << ", spread " << 100.0 * (*high - *low) / mean << " %\n"
              << "draped, plane: no print at " << planeNone << " of 33 places, elsewhere "
              << planeLow << " .. " << planeHigh << " cm\n";
    EXPECT_NEAR(mean, 10.0, 0.5);
    EXPECT_LT((*high - *low) / mean, 0.05);
    // Against the plane: nothing uphill, too deep where it prints at all.
    EXPECT_GE(planeNone, 20);
    EXPECT_GT(planeHigh, 2.0 * mean);
}

} // namespace
} // namespace snowcap
