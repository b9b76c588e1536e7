// The fused accumulate (SnowSim::stepShared): sims sharing a capture step in one pass per buffer
// format with an output each, and each sim's buffer is texel for texel what its own pass gives,
// whatever the mix of decay, timing, refill, accumulate mode and half safety, in r16f and
// rgba16f; and against the CPU reference for eight outputs at once.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "gpu/half_store_probe.hpp"
#include "snow/cpu_reference.hpp"
#include "snow/snow_field.hpp"

#include <gtest/gtest.h>
#include <random>

namespace snowcap {
namespace {

using test::makeField;

constexpr int kSize = 64;

Settings baseSettings() {
    Settings settings;
    settings.snow.resolution = kSize;
    settings.snow.orthoWidthCm = 256.0;
    return settings;
}

// Six sims on one capture, each with other switches, so a mix-up between outputs shows.
Settings mixedSettings() {
    Settings settings = baseSettings();
    settings.sims.resize(6, settings.sims[0]);
    SimSettings* s = settings.sims.data();
    s[0].decay = 0.95; // add, multiply, delta time, half safe, r16f
    s[1].accumulate = AccumulateMode::Max;
    s[1].decay = 0.99;
    s[1].halfSafe = false;
    s[2].refill = RefillMode::Linear;
    s[2].refillRatePerS = 0.05; // slow enough that the print outlasts the lift
    s[2].format = BufferFormat::RGBA16F;
    s[3].decayTiming = DecayTiming::PerFrame;
    s[3].contactTiming = ContactTiming::PerFrame;
    s[3].decay = 0.97;
    s[3].halfSafe = false;
    s[3].format = BufferFormat::RGBA16F;
    s[4].accumulate = AccumulateMode::Max;
    s[4].refill = RefillMode::Linear;
    s[4].refillRatePerS = 0.1;
    s[4].decayTiming = DecayTiming::PerFrame;
    s[5].contactTiming = ContactTiming::PerFrame;
    s[5].decay = 0.999;
    s[5].format = BufferFormat::RGBA16F;
    s[5].halfSafe = false;
    return settings;
}

// 40 steps at uneven frame times (delta-time decay sees other factors each step): a sphere
// pressing while it moves, then lifted.
void runSteps(SnowField& field, const test::Sphere& sphere) {
    const double dts[] = {1.0 / 60.0, 1.0 / 30.0, 1.0 / 144.0, 1.0 / 45.0};
    for (int step = 0; step < 40; ++step) {
        const float x = -60.0f + 3.0f * static_cast<float>(step);
        const DeformerInstance pressed = sphere.at({x, 10.0f, step < 25 ? -20.0f : 200.0f});
        field.step({&pressed, 1}, dts[step % 4]);
    }
}

TEST(FusedAccumulate, SixMixedSimsInOnePassEqualTheirOwnPasses) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    const Settings settings = mixedSettings();
    test::Sphere sphere;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    ASSERT_EQ(field->captureCount(), 1);
    runSteps(*field, sphere);
    EXPECT_EQ(field->passesRun().accumulate, 2 * 40); // a step: one r16f pass, one rgba16f
    EXPECT_EQ(field->passesRun().accumulateOutputs, 6 * 40);

    for (int i = 0; i < field->simCount(); ++i) {
        Settings alone = settings;
        alone.sims = {settings.sims[i]};
        auto single = makeField(alone, shaders);
        ASSERT_TRUE(single);
        runSteps(*single, sphere);
        EXPECT_EQ(single->passesRun().accumulateOutputs, 40);
        const gpu::Texture2D& mine = field->sim(i).persistent();
        ASSERT_EQ(mine.format(), single->sim(0).persistent().format()) << "sim " << simName(i);
        if (settings.sims[i].format == BufferFormat::RGBA16F &&
            mine.format() != gpu::TextureFormat::RGBA16F)
            ADD_FAILURE() << "sim " << simName(i) << ": no rgba16f buffer";
        const std::vector<float> expected = single->sim(0).persistent().readFloats();
        const std::vector<float> actual = mine.readFloats();
        ASSERT_EQ(actual.size(), expected.size()) << "sim " << simName(i);
        EXPECT_GT(test::maxOf(test::redOf(mine)), 0.01f) << "sim " << simName(i) << ": no print";
        std::size_t differing = 0;
        for (std::size_t t = 0; t < actual.size(); ++t)
            differing += actual[t] != expected[t];
        EXPECT_EQ(differing, 0u) << "sim " << simName(i) << " (all channels): texels differ";
        EXPECT_EQ(field->healBound(i), single->healBound(0)) << "sim " << simName(i);
    }
}

TEST(FusedAccumulate, EightOutputsMatchTheCpuReference) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto detected = gpu::detectHalfStoreRounding(shaders);
    ASSERT_TRUE(std::holds_alternative<HalfRounding>(detected)) << std::get<std::string>(detected);
    const HalfRounding driverRounding = std::get<HalfRounding>(detected);

    Settings settings = baseSettings();
    settings.capture.depth = CaptureDepth::D32F; // the uploaded depths exactly
    settings.sims.resize(kMaxSims, settings.sims[0]);
    for (int i = 0; i < kMaxSims; ++i) {
        SimSettings& sim = settings.sims[i];
        sim.accumulate = i % 2 ? AccumulateMode::Max : AccumulateMode::Add;
        sim.halfSafe = (i / 2) % 2 == 0;
        sim.decayTiming = i % 3 ? DecayTiming::DeltaTime : DecayTiming::PerFrame;
        sim.contactTiming = i % 4 == 1 ? ContactTiming::PerFrame : ContactTiming::DeltaTime;
        sim.refill = i >= 6 ? RefillMode::Linear : RefillMode::Multiply;
        sim.refillRatePerS = 0.5;
        sim.decay = 0.9 + 0.01 * i;
    }
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    ASSERT_EQ(field->captureCount(), 1);

    std::mt19937 random(4321);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const std::size_t texels = kSize * kSize;
    const double dts[] = {1.0 / 144.0, 1.0 / 30.0};
    for (double dt : dts) {
        std::vector<float> depth(texels);
        for (float& d : depth)
            d = unit(random) < 0.2f ? 1.0f : unit(random) * 0.2f;
        glTextureSubImage2D(field->captureOf(0).depth().id(), 0, 0, 0, kSize, kSize,
                            GL_DEPTH_COMPONENT, GL_FLOAT, depth.data());
        std::vector<std::vector<float>> previous(kMaxSims, std::vector<float>(texels));
        std::vector<SnowSim*> sims;
        for (int s = 0; s < kMaxSims; ++s) {
            for (float& p : previous[s]) {
                const float u = unit(random);
                p = u < 0.1f    ? 0.0f
                    : u > 0.95f ? 1.0f
                                : roundToHalf(unit(random), HalfRounding::NearestEven);
            }
            glTextureSubImage2D(field->sim(s).persistent().id(), 0, 0, 0, kSize, kSize, GL_RED,
                                GL_FLOAT, previous[s].data());
            sims.push_back(&field->sim(s));
        }
        SnowSim::stepShared(sims, field->captureOf(0), dt);
        for (int s = 0; s < kMaxSims; ++s) {
            const SnowSim& sim = field->sim(s);
            std::vector<float> expected(texels);
            AccumulateLaw law = sim.clock().law();
            law.storeRounding = driverRounding;
            accumulateBuffers(depth, previous[s], expected, law, sim.lastStep());
            const std::vector<float> actual = sim.persistent().readFloats();
            int mismatches = 0;
            for (std::size_t i = 0; i < texels; ++i)
                if (actual[i] != expected[i] && ++mismatches <= 3)
                    ADD_FAILURE() << "sim " << simName(s) << " texel " << i << ": GL " << actual[i]
                                  << ", CPU " << expected[i];
            EXPECT_EQ(mismatches, 0) << "sim " << simName(s) << " dt " << dt;
        }
    }
}

} // namespace
} // namespace snowcap
