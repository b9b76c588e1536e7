// The snowpack over terrain on the CPU reference: the snow holding depth (SnowSlide), the
// initial cover that follows the slopes, snow sliding off a face steeper than its angle of
// repose, snow staying on a gentle slope, and the slide at any frame rate.
#include "SlopeTestSupport.hpp"
#include "core/snowpack_laws.hpp"
#include "snow/snowpack_reference.hpp"
#include "snow/snowpack_terrain.hpp"
#include "terrain/height_field.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace snowcap {
namespace {

constexpr double kTexelCm = test::kSlopeTexelCm;
constexpr double kCaptureZ = test::kSlopeCaptureZ;
constexpr double kFar = test::kSlopeFar;
constexpr int kSize = 64;
constexpr double kPi = 3.14159265358979;

// A ground rising along +x: flat up to column `footColumns`, then at `slopeDeg` to the east
// border, as texel heights (cm, row 0 first) on a kSize² grid of kTexelCm texels.
std::vector<float> face(double slopeDeg, int footColumns) {
    std::vector<float> ground(static_cast<std::size_t>(kSize) * kSize);
    const double rise = std::tan(slopeDeg * kPi / 180.0) * kTexelCm;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x)
            ground[static_cast<std::size_t>(y) * kSize + x] =
                static_cast<float>(rise * std::max(0, x - footColumns));
    return ground;
}

double totalMass(const SnowpackGrid& grid) {
    double mass = 0.0;
    for (const SnowColumn& c : grid.columns)
        mass += double(c.massKgM2) + double(c.waterKgM2);
    return mass;
}

// Runs `seconds` with nothing pressing at `fps`.
void run(SnowpackReference& ref, double seconds, double fps) {
    const std::vector<float> none(static_cast<std::size_t>(kSize) * kSize, 1.0f);
    const int steps = static_cast<int>(std::lround(seconds * fps));
    for (int i = 0; i < steps; ++i)
        ref.step(none, 1.0 / fps);
}

SnowpackSettings uniformCover() {
    SnowpackSettings settings;
    settings.coverFollowsSlope = false; // 30 cm everywhere, steep or not
    return settings;
}

// ---- the law -----------------------------------------------------------------------------

// SnowSlide's holding depth against the figures quoted with it (the Canadian Hydrological
// Model's snow_slide documentation): 3.08, 1.11, 0.45 and 0.15 m normal to slopes of 30, 45,
// 60 and 75 degrees, which is the vertical holding depth times cos S.
TEST(SnowpackSlopeLaws, HoldingDepthIsSnowSlides) {
    const std::pair<float, float> normalCm[] = {
        {30.f, 308.f}, {45.f, 111.f}, {60.f, 45.f}, {75.f, 15.f}};
    for (const auto& [slope, expected] : normalCm) {
        const float normal = snowHoldingDepthCm(slope) * std::cos(slope * float(kPi) / 180.f);
        EXPECT_NEAR(normal, expected, expected * 0.02f) << slope << " deg";
    }
    EXPECT_TRUE(std::isinf(snowHoldingDepthCm(0.0f))); // the flat holds any depth
    // The cover: the depth on the flat, at most the holding depth, none above the repose.
    const float repose = std::tan(50.0f * float(kPi) / 180.0f);
    EXPECT_EQ(coverDepthCm(30.0f, 0.0f, repose), 30.0f);
    EXPECT_EQ(coverDepthCm(30.0f, std::tan(40.0f * float(kPi) / 180.0f), repose), 30.0f);
    EXPECT_NEAR(coverDepthCm(300.0f, std::tan(40.0f * float(kPi) / 180.0f), repose),
                snowHoldingDepthCm(40.0f), 1e-3f);
    EXPECT_LT(snowHoldingDepthCm(40.0f), 300.0f);
    EXPECT_EQ(coverDepthCm(30.0f, std::tan(55.0f * float(kPi) / 180.0f), repose), 0.0f);
}

// ---- the initial cover -------------------------------------------------------------------

// Over a flat foot and a 60 degree face the cover is 30 cm on the foot and none on the face
// (steeper than fresh snow's 50 degrees), ramping down to the bare face at the angle of repose;
// on a 20 degree slope it is 30 cm; off, it is 30 cm everywhere. A scene that starts from it is
// at rest: a second of slump moves nothing.
TEST(SnowpackCover, FollowsTheSlope) {
    SnowpackSettings settings;
    SnowpackReference steep(kSize, settings, kCaptureZ, kFar, kTexelCm);
    steep.setGround(face(60.0, 24));
    for (int x : {0, 5})
        EXPECT_EQ(steep.grid().at(x, 30).depthCm, 30.0f) << x;
    for (int x : {25, 40, 63})
        EXPECT_EQ(steep.grid().at(x, 30).depthCm, 0.0f) << x;
    // Column 24 is the foot of the face: its step up to 25 is the face's.
    EXPECT_EQ(steep.grid().at(24, 30).depthCm, 0.0f);
    // From the bare foot the snow rises at the repose of its density, a step a texel.
    const float step = reposeTan(120.0f, steep.constants()) * float(kTexelCm);
    for (int k = 1; k <= 4; ++k)
        EXPECT_NEAR(steep.grid().at(24 - k, 30).depthCm, std::min(k * step, 30.0f), 0.02f * k) << k;

    SnowpackReference gentle(kSize, settings, kCaptureZ, kFar, kTexelCm);
    gentle.setGround(face(20.0, 0));
    for (const SnowColumn& c : gentle.grid().columns)
        EXPECT_EQ(c.depthCm, 30.0f);

    settings.coverFollowsSlope = false;
    SnowpackReference off(kSize, settings, kCaptureZ, kFar, kTexelCm);
    off.setGround(face(60.0, 24));
    for (const SnowColumn& c : off.grid().columns)
        EXPECT_EQ(c.depthCm, 30.0f);

    // At rest: a second of slump iterations (960) changes no texel.
    SnowpackSettings still;
    still.settleTimeScale = 0.0; // settling alone would change every depth
    SnowpackReference resting(kSize, still, kCaptureZ, kFar, kTexelCm);
    resting.setGround(face(60.0, 24));
    const std::vector<SnowColumn> before = resting.grid().columns;
    run(resting, 1.0, 60.0);
    for (std::size_t t = 0; t < before.size(); ++t)
        ASSERT_EQ(resting.grid().columns[t].depthCm, before[t].depthCm) << t;
}

// Deep snow over a 40 degree slope starts at the slope's holding depth (about 2 m), not 3 m.
TEST(SnowpackCover, DeepSnowThinsToTheHoldingDepth) {
    SnowpackSettings settings;
    settings.depthCm = 300.0;
    SnowpackReference ref(kSize, settings, kCaptureZ, kFar, kTexelCm);
    ref.setGround(face(40.0, 0));
    const float depth = ref.grid().at(30, 30).depthCm;
    EXPECT_NEAR(depth, snowHoldingDepthCm(40.0f), 0.5f);
    EXPECT_NEAR(depth, 200.1f, 0.5f); // 3178.4 x 40^-1.998 m
}

// ---- the slide ---------------------------------------------------------------------------

// 30 cm of fresh snow laid on a 60 degree face (6.9 m high over 4 m) above a flat foot of 2.4 m
// (the cover switched off): after 10 s (9600 slump iterations) the upper half of the face is
// bare, the foot holds more than it started with, and the mass is what it was within 1e-4.
TEST(SnowpackSlope, SnowSlidesOffASixtyDegreeFace) {
    SnowpackReference ref(kSize, uniformCover(), kCaptureZ, kFar, kTexelCm);
    ref.setGround(face(60.0, 24));
    const double start = totalMass(ref.grid());
    run(ref, 10.0, 60.0);
    float upper = 0.0f;
    for (int y = 0; y < kSize; ++y)
        for (int x = 44; x < kSize; ++x)
            upper = std::max(upper, ref.grid().at(x, y).depthCm);
    EXPECT_LT(upper, kBareDepthCm) << "the upper face keeps snow";
    double foot = 0.0;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < 24; ++x)
            foot += ref.grid().at(x, y).depthCm;
    foot /= 24.0 * kSize;
    EXPECT_GT(foot, 35.0) << "the foot did not gather what slid";
    EXPECT_NEAR(totalMass(ref.grid()), start, start * 1e-4);
    ::testing::Test::RecordProperty("upper_face_max_depth_cm", std::to_string(upper));
    ::testing::Test::RecordProperty("foot_mean_depth_cm", std::to_string(foot));
    ::testing::Test::RecordProperty("mass_error",
                                    std::to_string(totalMass(ref.grid()) / start - 1.0));
}

// The same 30 cm on a 20 degree slope stays where it lies: after 5 s every texel holds what
// the same snow holds on flat ground (settling is the only change).
TEST(SnowpackSlope, SnowStaysOnATwentyDegreeSlope) {
    SnowpackReference slope(kSize, uniformCover(), kCaptureZ, kFar, kTexelCm);
    slope.setGround(face(20.0, 0));
    SnowpackReference flat(kSize, uniformCover(), kCaptureZ, kFar, kTexelCm);
    run(slope, 5.0, 60.0);
    run(flat, 5.0, 60.0);
    for (std::size_t t = 0; t < flat.grid().columns.size(); ++t) {
        ASSERT_EQ(slope.grid().columns[t].depthCm, flat.grid().columns[t].depthCm) << t;
        ASSERT_EQ(slope.grid().columns[t].massKgM2, flat.grid().columns[t].massKgM2) << t;
    }
}

// The slide at 30, 60, 144 and 240 fps. Slump iterations and settling ticks fall on the same
// instants of simulated time at any rate; without settling every rate ends with the same snow
// bit for bit. With it, a step runs its settling tick before its slump iterations, so the
// iterations of the frame that holds a tick fall on either side of it by the frame rate: the
// depths then agree within a hundredth of a millimetre and the mass within 1e-4.
TEST(SnowpackSlope, TheSlideIsFrameRateIndependent) {
    for (const double settleScale : {0.0, 1.0}) {
        SCOPED_TRACE(settleScale > 0.0 ? "settling" : "no settling");
        SnowpackSettings settings = uniformCover();
        settings.settleTimeScale = settleScale;
        std::vector<std::vector<SnowColumn>> finals;
        for (double fps : {30.0, 60.0, 144.0, 240.0}) {
            SnowpackReference ref(kSize, settings, kCaptureZ, kFar, kTexelCm);
            ref.setGround(face(60.0, 24));
            run(ref, 3.0, fps);
            finals.push_back(ref.grid().columns);
        }
        float worst = 0.0f;
        for (std::size_t k = 1; k < finals.size(); ++k) {
            double massK = 0.0, mass0 = 0.0;
            for (std::size_t t = 0; t < finals[0].size(); ++t) {
                worst = std::max(worst, std::abs(finals[k][t].depthCm - finals[0][t].depthCm));
                massK += finals[k][t].massKgM2;
                mass0 += finals[0][t].massKgM2;
                if (settleScale == 0.0) {
                    ASSERT_EQ(finals[k][t].depthCm, finals[0][t].depthCm) << k << " at " << t;
                    ASSERT_EQ(finals[k][t].massKgM2, finals[0][t].massKgM2) << k << " at " << t;
                }
            }
            EXPECT_NEAR(massK, mass0, mass0 * 1e-4) << k;
        }
        EXPECT_LE(worst, 1e-3f);
        ::testing::Test::RecordProperty(settleScale > 0.0 ? "worst_depth_settling_cm"
                                                          : "worst_depth_cm",
                                        std::to_string(worst));
    }
}

// The ground under a region samples the terrain at the texel centres, as the capture does.
TEST(SnowpackGround, SampledAtTheTexelCentres) {
    // A 4 x 4 field of 2 cm cells whose height (m) is its column index: the texel centres of a
    // 4 x 4 region of 2 cm texels over it sit on the samples.
    std::vector<float> heightsM;
    for (int row = 0; row < 4; ++row)
        for (int column = 0; column < 4; ++column)
            heightsM.push_back(static_cast<float>(column));
    const HeightField terrain(4, 4, heightsM, {0.0, 0.0}, {8.0, 8.0});
    Region region;
    region.resolution = 4;
    region.widthCm = 8.0;
    const std::vector<float> ground = snowpackGroundCm(terrain, region);
    ASSERT_EQ(ground.size(), 16u);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x)
            EXPECT_FLOAT_EQ(ground[static_cast<std::size_t>(y) * 4 + x], 100.0f * x);
}

} // namespace
} // namespace snowcap
