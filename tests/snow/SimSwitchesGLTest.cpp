// The sim's test-bed switches on the driver: decay keys on the timeline, add vs max
// under a light long contact, linear refill against the CPU reference, the rgba16f format's age
// and contact type, and NaN/Inf containment.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "snow/cpu_reference.hpp"
#include "snow/snow_field.hpp"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <limits>

namespace snowcap {
namespace {

constexpr int kSize = 64;

Settings smallSettings() {
    Settings settings;
    settings.snow.resolution = kSize;
    settings.snow.orthoWidthCm = 256.0; // 4 cm a texel
    return settings;
}

using test::makeField;
// A sphere of radius 30 cm; its centre height sets how deep it presses (centre -20: the
// bottom 50 cm below the surface, mask 0.2 at its centre; centre +20: mask 0.04).
using test::Sphere;

glm::vec4 texelOf(const gpu::Texture2D& texture, glm::ivec2 texel) {
    glm::vec4 value(0.0f);
    glGetTextureSubImage(texture.id(), 0, texel.x, texel.y, 0, 1, 1, 1, GL_RGBA, GL_FLOAT,
                         sizeof(value), &value);
    return value;
}

glm::ivec2 texelAt(const SnowField& field, glm::dvec2 worldCm) {
    return worldToTexel(worldCm, field.sim(0).region());
}

// sim.X.decay_keys: a jump from 0.999 to 0.95 at t = 1.5 s changes the per-step factor from
// the step that ends at the key on, and only for the sim that has the keys.
TEST(SimSwitches, DecayKeysChangeTheSlopeFromTheirFrameOn) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = smallSettings();
    const double keyS = 1.5;
    settings.sims[0].decayKeys = {{0.0, 0.999}, {keyS, 0.999}, {keyS, 0.95}};
    settings.sims[1].decay = 0.999;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    Sphere sphere;
    const DeformerInstance pressed = sphere.at({0, 0, -20});
    const glm::ivec2 centre = texelAt(*field, {0.0, 0.0});
    const double fps = 60.0, dt = 1.0 / fps;
    std::array<float, 2> previous{0.0f, 0.0f};
    double slowest = 0.0, fastestBefore = 1.0;
    for (int step = 0; step < static_cast<int>(2.5 * fps); ++step) {
        const double endS = (step + 1) * dt;
        if (endS <= 0.5)
            field->step({&pressed, 1}, dt); // saturates to 1 within the press
        else
            field->step({}, dt);
        std::array<float, 2> value{texelOf(field->sim(0).persistent(), centre).x,
                                   texelOf(field->sim(1).persistent(), centre).x};
        if (endS > 0.5 + dt) {
            const double ratioA = value[0] / previous[0], ratioB = value[1] / previous[1];
            EXPECT_GT(ratioB, 0.99) << "sim B has no keys, t = " << endS;
            if (endS < keyS - 1e-6)
                fastestBefore = std::min(fastestBefore, ratioA);
            else if (endS > keyS + 1e-6)
                slowest = std::max(slowest, ratioA);
        }
        previous = value;
    }
    // 0.999 per 1/60 s is 0.9990 a step (released in 2^-7 neper quanta: >= 0.992); 0.95 is
    // 0.95 a step (6 or 7 quanta: 0.947..0.954).
    RecordProperty("smallest_step_ratio_before_key", std::to_string(fastestBefore));
    RecordProperty("largest_step_ratio_after_key", std::to_string(slowest));
    EXPECT_GT(fastestBefore, 0.99);
    EXPECT_LT(slowest, 0.955);
    EXPECT_GT(slowest, 0.94);
}

// accumulate add vs max: a light (mask 0.04), long (3 s) contact. Add sums it every step and
// saturates to a full print; max keeps the mask value itself.
TEST(SimSwitches, LightLongContactSaturatesWithAddAndHoldsItsMaskWithMax) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = smallSettings();
    settings.sims[0].accumulate = AccumulateMode::Add;
    settings.sims[1].accumulate = AccumulateMode::Max;
    for (SimSettings& sim : settings.sims)
        sim.decay = 0.999;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    Sphere sphere;
    const DeformerInstance light = sphere.at({0, 0, 20});
    const glm::ivec2 centre = texelAt(*field, {0.0, 0.0});
    for (int step = 0; step < 180; ++step)
        field->step({&light, 1}, 1.0 / 60.0);
    float windowDepth = 1.0f;
    glGetTextureSubImage(field->captureOf(0).depth().id(), 0, centre.x, centre.y, 0, 1, 1, 1,
                         GL_DEPTH_COMPONENT, GL_FLOAT, sizeof(float), &windowDepth);
    const float mask = contactMask(windowDepth, field->sim(1).clock().law());
    ASSERT_GT(mask, 0.02f);
    ASSERT_LT(mask, 0.06f); // a light touch indeed
    EXPECT_EQ(texelOf(field->sim(0).persistent(), centre).x, 1.0f);
    EXPECT_EQ(texelOf(field->sim(1).persistent(), centre).x,
              roundToHalf(mask, HalfRounding::NearestEven));
}

// refill = "linear": the driver matches the CPU reference step for step, and a print of value
// v is exactly 0 at v / rate seconds after the release, within one step.
TEST(SimSwitches, LinearRefillIsFlatAtValueOverRate) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = smallSettings();
    const double rate = 0.5, fps = 60.0, dt = 1.0 / fps;
    for (SimSettings& sim : settings.sims) {
        sim.refill = RefillMode::Linear;
        sim.refillRatePerS = rate;
    }
    settings.sims[1].accumulate = AccumulateMode::Max;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    Sphere sphere;
    const DeformerInstance pressed = sphere.at({0, 0, -20});
    const glm::ivec2 centre = texelAt(*field, {0.0, 0.0});
    const int pressSteps = 30, steps = pressSteps + static_cast<int>(3.0 * fps);

    std::array<std::vector<float>, 2> gpuValues;
    for (int step = 0; step < steps; ++step) {
        if (step < pressSteps)
            field->step({&pressed, 1}, dt);
        else
            field->step({}, dt);
        for (int s = 0; s < 2; ++s)
            gpuValues[s].push_back(texelOf(field->sim(s).persistent(), centre).x);
    }
    float windowDepth = 1.0f;
    field->step({&pressed, 1}, dt); // once more, to read the mask the press gave
    glGetTextureSubImage(field->captureOf(0).depth().id(), 0, centre.x, centre.y, 0, 1, 1, 1,
                         GL_DEPTH_COMPONENT, GL_FLOAT, sizeof(float), &windowDepth);
    for (int s = 0; s < 2; ++s) {
        SCOPED_TRACE(s == 0 ? "add" : "max");
        // The same steps on the CPU: the pass's float operations on the same window depth.
        const AccumulateLaw law = AccumulateLaw::of(settings.sims[s], settings.capture);
        SimStep amounts = field->sim(s).lastStep(); // factor 1 and contact scale 1 throughout
        LinearRefill refill;
        std::vector<float> cpuValues;
        float value = 0.0f;
        for (int step = 0; step < steps; ++step) {
            amounts.refillStep = refill.next(rate * dt);
            value = accumulateTexel(step < pressSteps ? windowDepth : 1.0f, value, law, amounts);
            cpuValues.push_back(value);
        }
        EXPECT_EQ(gpuValues[s], cpuValues);
        const float released = gpuValues[s][pressSteps - 1];
        int zeroStep = -1;
        for (int step = pressSteps; step < steps && zeroStep < 0; ++step)
            if (gpuValues[s][step] == 0.0f)
                zeroStep = step;
        ASSERT_GE(zeroStep, 0) << "never flat";
        const double flatAfterS = (zeroStep - pressSteps + 1) * dt;
        RecordProperty(s == 0 ? "add_flat_after_s" : "max_flat_after_s",
                       std::to_string(flatAfterS));
        EXPECT_NEAR(flatAfterS, released / rate, dt) << "released at " << released;
        EXPECT_GT(gpuValues[s][zeroStep - 1], 0.0f);
    }
}

// format = "rgba16f": B holds the contact type code of the deformer that made the print, G the
// seconds since the last contact, growing 1 s per s once it ends; 4x the memory of r16f.
TEST(SimSwitches, RgbaFormatRecordsContactTypeAndAge) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = smallSettings();
    settings.sims[1].format = BufferFormat::RGBA16F;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    EXPECT_EQ(field->sim(1).persistent().format(), gpu::TextureFormat::RGBA16F);
    EXPECT_EQ(field->sim(1).bytes(), 4 * field->sim(0).bytes());
    RecordProperty("r16f_bytes", std::to_string(field->sim(0).bytes()));
    RecordProperty("rgba16f_bytes", std::to_string(field->sim(1).bytes()));

    Sphere sphere;
    const std::array<DeformerInstance, 3> deformers{sphere.at({-70, 40, -20}, ContactType::Vehicle),
                                                    sphere.at({70, 40, -20}, ContactType::Animal),
                                                    sphere.at({0, -70, -20}, ContactType::Foot)};
    const std::array<glm::dvec2, 3> centres{{{-70, 40}, {70, 40}, {0, -70}}};
    const double fps = 30.0, dt = 1.0 / fps;
    for (int step = 0; step < 10; ++step)
        field->step(deformers, dt);
    for (std::size_t i = 0; i < deformers.size(); ++i) {
        const glm::vec4 texel = texelOf(field->sim(1).persistent(), texelAt(*field, centres[i]));
        EXPECT_EQ(texel.z, contactTypeCode(deformers[i].contact)) << i;
        EXPECT_EQ(texel.y, 0.0f) << "under contact the age is 0";
        EXPECT_GT(texel.x, 0.5f);
    }
    // Age after the contact ends, sampled every half second for 4 s.
    double worst = 0.0;
    for (int step = 1; step <= static_cast<int>(4.0 * fps); ++step) {
        field->step({}, dt);
        if (step % 15 != 0)
            continue;
        for (std::size_t i = 0; i < deformers.size(); ++i) {
            const glm::vec4 texel =
                texelOf(field->sim(1).persistent(), texelAt(*field, centres[i]));
            worst = std::max(worst, std::abs(texel.y - step * dt));
            EXPECT_EQ(texel.z, contactTypeCode(deformers[i].contact)) << "the type stays";
        }
    }
    RecordProperty("worst_age_error_s", std::to_string(worst));
    EXPECT_LT(worst, AgeClock::kQuantum + 1e-6);
}

// NaN containment: NaN, +-Inf and out-of-range values injected into the previous
// buffer and the capture depth never reach a persistent buffer: every channel stays finite, the
// intensity in [0, 1], for add, max, linear refill and rgba16f.
TEST(SimSwitches, NonFiniteInputsNeverReachAPersistentBuffer) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::array<float, 6> poison{nan, inf, -inf, 2.0f, -1.0f, 0.5f};
    for (int variant = 0; variant < 2; ++variant) {
        Settings settings = smallSettings();
        settings.capture.depth = CaptureDepth::D32F; // a float depth can carry the poison
        settings.sims[0].format = BufferFormat::RGBA16F;
        settings.sims[0].accumulate = variant ? AccumulateMode::Max : AccumulateMode::Add;
        settings.sims[1].refill = RefillMode::Linear;
        settings.sims[1].accumulate = variant ? AccumulateMode::Add : AccumulateMode::Max;
        settings.sims[1].halfSafe = variant == 1;
        auto field = makeField(settings, shaders);
        ASSERT_TRUE(field);
        const std::size_t texels = kSize * kSize;
        std::vector<float> depth(texels);
        for (std::size_t i = 0; i < texels; ++i)
            depth[i] = poison[(i / 3) % poison.size()];
        for (int s = 0; s < 2; ++s) {
            const int channels = s == 0 ? 4 : 1;
            std::vector<float> previous(texels * channels);
            for (std::size_t i = 0; i < previous.size(); ++i)
                previous[i] = poison[(i / 5) % poison.size()];
            glTextureSubImage2D(field->sim(s).persistent().id(), 0, 0, 0, kSize, kSize,
                                channels == 4 ? GL_RGBA : GL_RED, GL_FLOAT, previous.data());
        }
        for (int step = 0; step < 3; ++step) {
            // The capture's depth (a D32F store may clamp what it is given; what it keeps is
            // still read through the guard) and its contact type code.
            glTextureSubImage2D(field->captureOf(0).depth().id(), 0, 0, 0, kSize, kSize,
                                GL_DEPTH_COMPONENT, GL_FLOAT, depth.data());
            glTextureSubImage2D(field->captureOf(0).contact().id(), 0, 0, 0, kSize, kSize, GL_RED,
                                GL_FLOAT, depth.data());
            for (int s = 0; s < 2; ++s)
                field->sim(s).step(field->captureOf(s), 1.0 / 60.0);
        }
        for (int s = 0; s < 2; ++s) {
            const std::vector<float> values = field->sim(s).persistent().readFloats();
            const int channels = s == 0 ? 4 : 1;
            int bad = 0;
            for (std::size_t i = 0; i < values.size(); ++i) {
                const float v = values[i];
                const int channel = static_cast<int>(i % channels);
                // R intensity, G age, B type code, A distance to the print in texels.
                const std::array<float, 4> highs{1.0f, AgeClock::kMaxAgeS, 4.0f, float(kSize)};
                const float high = highs[channel];
                if (!std::isfinite(v) || v < 0.0f || v > high)
                    if (++bad <= 5)
                        ADD_FAILURE() << "sim " << s << " variant " << variant << " value " << i
                                      << " channel " << channel << " = " << v;
            }
            EXPECT_EQ(bad, 0);
        }
    }
}

} // namespace
} // namespace snowcap
