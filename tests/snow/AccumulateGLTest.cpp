// The accumulate pass on the driver against the CPU reference, texel for texel.
#include "GLTestSupport.hpp"
#include "gpu/half_store_probe.hpp"
#include "snow/cpu_reference.hpp"
#include "snow/snow_field.hpp"

#include <gtest/gtest.h>
#include <random>

namespace snowcap {
namespace {

constexpr int kSize = 64;

struct AccumulateCase {
    AccumulateMode mode;
    DecayTiming timing;
    bool halfSafe;
    double fps;
};

std::string caseName(const ::testing::TestParamInfo<AccumulateCase>& info) {
    const AccumulateCase& c = info.param;
    return std::string(c.mode == AccumulateMode::Add ? "Add" : "Max") +
           (c.timing == DecayTiming::DeltaTime ? "DeltaTime" : "PerFrame") +
           (c.halfSafe ? "HalfSafe" : "DriverRounding") + std::to_string(int(c.fps)) + "fps";
}

class AccumulateMatchesCpuReference : public ::testing::TestWithParam<AccumulateCase> {};

TEST_P(AccumulateMatchesCpuReference, TexelForTexelOverRandomInputs) {
    const AccumulateCase& c = GetParam();
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto detected = gpu::detectHalfStoreRounding(shaders);
    ASSERT_TRUE(std::holds_alternative<HalfRounding>(detected)) << std::get<std::string>(detected);
    const HalfRounding driverRounding = std::get<HalfRounding>(detected);
    RecordProperty("driver_half_rounding", toString(driverRounding));

    Settings settings;
    settings.snow.resolution = kSize;
    settings.snow.orthoWidthCm = 256.0;
    settings.capture.depth = CaptureDepth::D32F; // the uploaded depths exactly (d16: see
                                                 // CaptureDepthGLTest)
    for (SimSettings& sim : settings.sims) {
        sim.accumulate = c.mode;
        sim.decayTiming = c.timing;
        sim.halfSafe = c.halfSafe;
    }
    settings.sims[0].decay = 0.95; // a fast decay: every step applies a quantum
    settings.sims[1].decay = 0.999;
    auto created = SnowField::create(settings, shaders);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SnowField>>(created))
        << std::get<std::string>(created);
    SnowField& field = *std::get<0>(created);

    std::mt19937 random(1234);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const std::size_t texels = kSize * kSize;
    for (int round = 0; round < 3; ++round) {
        // Window depths over the whole mask range (SceneDepth 0..400 cm) plus "far".
        std::vector<float> depth(texels);
        for (float& d : depth)
            d = unit(random) < 0.2f ? 1.0f : unit(random) * 0.2f;
        glTextureSubImage2D(field.captureOf(0).depth().id(), 0, 0, 0, kSize, kSize,
                            GL_DEPTH_COMPONENT, GL_FLOAT, depth.data());
        for (int s = 0; s < field.simCount(); ++s) {
            // Previous values as a half buffer holds them: representable, 0 and 1 included.
            std::vector<float> previous(texels);
            for (float& p : previous) {
                const float u = unit(random);
                p = u < 0.1f    ? 0.0f
                    : u > 0.95f ? 1.0f
                                : roundToHalf(unit(random), HalfRounding::NearestEven);
            }
            const SnowSim& sim = field.sim(s);
            glTextureSubImage2D(sim.persistent().id(), 0, 0, 0, kSize, kSize, GL_RED, GL_FLOAT,
                                previous.data());
            std::vector<float> expected(texels);
            // The factor the pass will use is known after the step; compute the reference then.
            field.sim(s).step(field.captureOf(s), 1.0 / c.fps);
            AccumulateLaw law = sim.clock().law();
            law.storeRounding = driverRounding;
            accumulateBuffers(depth, previous, expected, law, sim.lastStep());
            const std::vector<float> actual = sim.persistent().readFloats();
            int mismatches = 0;
            for (std::size_t i = 0; i < texels; ++i)
                if (actual[i] != expected[i] && ++mismatches <= 5)
                    ADD_FAILURE() << "sim " << s << " texel " << i << ": depth " << depth[i]
                                  << " previous " << previous[i] << " k "
                                  << sim.lastStep().stepFactor << ": GL " << actual[i] << ", CPU "
                                  << expected[i];
            EXPECT_EQ(mismatches, 0) << "sim " << s << " round " << round;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Accumulate, AccumulateMatchesCpuReference,
    ::testing::Values(AccumulateCase{AccumulateMode::Add, DecayTiming::DeltaTime, true, 144},
                      AccumulateCase{AccumulateMode::Add, DecayTiming::PerFrame, true, 30},
                      AccumulateCase{AccumulateMode::Max, DecayTiming::DeltaTime, true, 60},
                      AccumulateCase{AccumulateMode::Max, DecayTiming::PerFrame, true, 240},
                      AccumulateCase{AccumulateMode::Add, DecayTiming::DeltaTime, false, 144},
                      AccumulateCase{AccumulateMode::Add, DecayTiming::PerFrame, false, 60},
                      AccumulateCase{AccumulateMode::Max, DecayTiming::DeltaTime, false, 30},
                      AccumulateCase{AccumulateMode::Max, DecayTiming::PerFrame, false, 60}),
    caseName);

} // namespace
} // namespace snowcap
