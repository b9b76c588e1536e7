// sim.X.contact_timing on the driver: a light contact (mask 0.02, far below saturation), held
// and moving, over the same world time at 30, 60, 144 and 240 fps. Sim A adds the mask once a
// step ("per_frame", the UE original), sim B adds mask x dt x 60 ("delta_time"); both see the
// same capture.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"

#include <iostream>
#include <numeric>

namespace snowcap {
namespace {

using test::makeField;
using test::redOf;

constexpr std::array<double, 4> kRates{30.0, 60.0, 144.0, 240.0};

Settings contactSettings() {
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0; // 4 cm a texel
    for (SimSettings& sim : settings.sims)
        sim.decay = 0.999; // delta_time decay: the same fade over world time at every rate
    settings.sims[0].contactTiming = ContactTiming::PerFrame;
    settings.sims[1].contactTiming = ContactTiming::DeltaTime;
    return settings;
}

// A 30 cm sphere centred 25 cm above the snow top dips 5 cm into it: mask 5 / 250 = 0.02 at
// its lowest point.
constexpr float kLightZ = 25.0f;

struct Measured {
    std::array<float, 2> centre{}; // the texel under the contact's lowest point
    std::array<double, 2> total{}; // every texel's value summed: what the contact left
    float centreMask = 0.0f;       // the capture's mask there, last step
};

// Runs `seconds` of world time at `fps`, the sphere at `positionAt(t)` (t: the time the step
// ends at), and reads both sims.
template <class PositionAt>
Measured run(double fps, double seconds, PositionAt positionAt, gpu::ShaderLibrary& shaders) {
    auto field = makeField(contactSettings(), shaders);
    Measured measured;
    if (!field)
        return measured;
    test::Sphere sphere;
    const double dt = 1.0 / fps;
    const int steps = static_cast<int>(std::lround(seconds * fps));
    for (int i = 0; i < steps; ++i) {
        const DeformerInstance d = sphere.at(positionAt((i + 1) * dt));
        field->step({&d, 1}, dt);
    }
    const glm::ivec2 centre = worldToTexel({0.0, 0.0}, field->sim(0).region());
    const int side = field->sim(0).region().resolution;
    for (int s = 0; s < 2; ++s) {
        const std::vector<float> red = redOf(field->sim(s).persistent());
        measured.centre[s] = red[std::size_t(centre.y) * side + centre.x];
        measured.total[s] = std::accumulate(red.begin(), red.end(), 0.0);
    }
    const std::vector<float> depth = field->captureOf(0).depth().readFloats();
    const SnowParamsBlock& p = field->sim(0).params();
    const float sceneDepthCm = depth[std::size_t(centre.y) * side + centre.x] * p.captureFarCm;
    measured.centreMask =
        1.0f - std::clamp((sceneDepthCm + p.captureOffsetCm) * p.invCaptureDistance, 0.0f, 1.0f);
    return measured;
}

void report(const char* what, const std::array<Measured, kRates.size()>& byRate, bool total) {
    for (int s = 0; s < 2; ++s) {
        std::cout << "  " << what << (s == 0 ? " per_frame: " : " delta_time: ");
        for (std::size_t r = 0; r < kRates.size(); ++r) {
            const double value = total ? byRate[r].total[s] : byRate[r].centre[s];
            std::cout << kRates[r] << " fps " << value << (r + 1 < kRates.size() ? ", " : "\n");
            testing::Test::RecordProperty(std::string(what) +
                                              (s == 0 ? "_per_frame_" : "_delta_time_") +
                                              std::to_string(int(kRates[r])) + "fps",
                                          std::to_string(value));
        }
    }
}

// Held for 1/6 s (5 steps at 30 fps, 40 at 240): per_frame adds the mask 8 times as often at
// 240 fps as at 30; delta_time adds a quarter of it per step at 240 and twice it at 30.
TEST(ContactTiming, AHeldLightContactLeavesTheSameValueAtAnyRateWithDeltaTime) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    std::array<Measured, kRates.size()> byRate;
    for (std::size_t r = 0; r < kRates.size(); ++r)
        byRate[r] = run(
            kRates[r], 1.0 / 6.0, [](double) { return glm::vec3(0, 0, kLightZ); }, shaders);
    report("held_centre", byRate, false);
    std::cout << "  mask under the lowest point: " << byRate[1].centreMask << "\n";
    RecordProperty("held_centre_mask", std::to_string(byRate[1].centreMask));
    const Measured& at30 = byRate[0];
    const Measured& at60 = byRate[1];
    const Measured& at240 = byRate[3];
    ASSERT_NEAR(at60.centreMask, 0.02f, 0.002f); // a light contact indeed
    // At 60 fps the two timings are the same pass (the scale is exactly 1).
    EXPECT_EQ(at60.centre[0], at60.centre[1]);
    EXPECT_LT(at240.centre[0], 0.9f); // below saturation even per frame at 240 fps
    for (const Measured& m : byRate)
        EXPECT_NEAR(m.centre[1] / at60.centre[1], 1.0, 0.02);
    EXPECT_NEAR(at240.centre[1] / at30.centre[1], 1.0, 0.02);
    // 8x the additions, less the little the decay takes back (the same at both rates);
    // measured 8.02 (0.0938 at 30 fps, 0.752 at 240), delta_time 1.002.
    EXPECT_NEAR(at240.centre[0] / at30.centre[0], 8.0, 0.25);
}

// Moving at 240 cm/s across the region for 2/3 s: every texel on its path is under the cap for
// about 0.14 s. The value left along the whole path (the buffer's sum) and at one texel on it.
TEST(ContactTiming, AMovingLightContactLeavesTheSameTrailAtAnyRateWithDeltaTime) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    std::array<Measured, kRates.size()> byRate;
    for (std::size_t r = 0; r < kRates.size(); ++r)
        byRate[r] = run(
            kRates[r], 2.0 / 3.0,
            [](double t) { return glm::vec3(float(-80.0 + 240.0 * t), 0.0f, kLightZ); }, shaders);
    report("moving_total", byRate, true);
    report("moving_centre", byRate, false);
    const Measured& at30 = byRate[0];
    const Measured& at60 = byRate[1];
    const Measured& at240 = byRate[3];
    EXPECT_EQ(at60.total[0], at60.total[1]);
    EXPECT_LT(at240.centre[0], 0.9f);
    for (const Measured& m : byRate) {
        EXPECT_NEAR(m.total[1] / at60.total[1], 1.0, 0.02);
        EXPECT_NEAR(m.centre[1] / at60.centre[1], 1.0, 0.02);
    }
    // Measured: delta_time 240 / 30 fps 0.990 (sum) and 0.992 (texel); per_frame 7.94 and 7.96.
    EXPECT_NEAR(at240.total[1] / at30.total[1], 1.0, 0.02);
    EXPECT_NEAR(at240.total[0] / at30.total[0], 8.0, 0.5);
    EXPECT_NEAR(at240.centre[0] / at30.centre[0], 8.0, 0.5);
}

} // namespace
} // namespace snowcap
