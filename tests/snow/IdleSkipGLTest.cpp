// snow.idle_skip on the driver: no pass while nothing touches a still, healed region; passes
// resume on contact; a moving region always runs; skipping never hides a non-zero texel.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"

#include <bit>
#include <cstdint>

namespace snowcap {
namespace {

using test::makeField;
using test::maxOf;
using test::redOf;

Settings idleSettings() {
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    settings.snow.idleSkip = true;
    settings.sims[0].decay = 0.8; // heals in about a second at 60 fps
    settings.sims[1].decay = 0.9;
    return settings;
}

// Two fields from the same settings, one with the skip and one without, to step side by side.
struct SkipAndRun {
    std::unique_ptr<SnowField> skipping, running;
};

SkipAndRun skipAndRun(Settings settings, gpu::ShaderLibrary& shaders) {
    settings.snow.idleSkip = true;
    SkipAndRun pair;
    pair.skipping = makeField(settings, shaders);
    settings.snow.idleSkip = false;
    pair.running = makeField(settings, shaders);
    return pair;
}

TEST(IdleSkip, PassesStayFlatWhileIdleAndResumeOnContact) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto field = makeField(idleSettings(), shaders);
    ASSERT_TRUE(field);
    test::Sphere sphere;
    const double dt = 1.0 / 60.0;

    // A fresh field is healed and nothing is near: 30 idle steps run nothing.
    for (int i = 0; i < 30; ++i)
        field->step({}, dt);
    EXPECT_EQ(field->passesRun().capture, 0);
    EXPECT_EQ(field->passesRun().accumulate, 0);

    // Contact: both sims run, in one pass (they share the capture).
    DeformerInstance pressed = sphere.at({0, 0, -20});
    field->step({&pressed, 1}, dt);
    EXPECT_EQ(field->passesRun().capture, 1);
    EXPECT_EQ(field->passesRun().accumulate, 1);
    EXPECT_EQ(field->passesRun().accumulateOutputs, 2);
    ASSERT_GT(maxOf(redOf(field->sim(0).persistent())), 0.1f);

    // The sphere leaves the region: the sims keep running while they heal, and each stops only
    // when its buffer is exactly zero everywhere (checked at the first skipped step).
    DeformerInstance gone = sphere.at({5000, 0, -20});
    std::array<bool, 2> checked{false, false};
    const std::array<long long, 2> idleBefore{field->idleSteps(0), field->idleSteps(1)};
    for (int i = 0; i < 600 && !(checked[0] && checked[1]); ++i) {
        field->step({&gone, 1}, dt);
        for (int s = 0; s < 2; ++s)
            if (!checked[s] && field->idleSteps(s) > idleBefore[s]) {
                EXPECT_EQ(maxOf(redOf(field->sim(s).persistent())), 0.0f) << "sim " << s;
                EXPECT_EQ(field->healBound(s), 0.0);
                checked[s] = true;
            }
    }
    ASSERT_TRUE(checked[0] && checked[1]) << "never healed within 10 s";
    // The faster decay heals first.
    EXPECT_GT(field->idleSteps(0) - idleBefore[0], field->idleSteps(1) - idleBefore[1]);

    const PassCounts idle = field->passesRun();
    for (int i = 0; i < 60; ++i)
        field->step({&gone, 1}, dt);
    EXPECT_EQ(field->passesRun().capture, idle.capture);
    EXPECT_EQ(field->passesRun().accumulate, idle.accumulate);
    EXPECT_EQ(field->passesRun().accumulateOutputs, idle.accumulateOutputs);

    field->step({&pressed, 1}, dt);
    EXPECT_EQ(field->passesRun().capture, idle.capture + 1);
    EXPECT_EQ(field->passesRun().accumulate, idle.accumulate + 1);
    EXPECT_EQ(field->passesRun().accumulateOutputs, idle.accumulateOutputs + 2);
}

TEST(IdleSkip, SkippingChangesNoTexel) {
    // The same press / leave / idle / press-again sequence with and without the skip: the
    // buffers are bit-identical at the end (the decay clock runs through skipped steps).
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto [skipping, running] = skipAndRun(idleSettings(), shaders);
    ASSERT_TRUE(skipping && running);
    test::Sphere sphere;
    const DeformerInstance pressed = sphere.at({0, 0, -20});
    const DeformerInstance gone = sphere.at({5000, 0, -20});
    const DeformerInstance again = sphere.at({40, 30, -15});
    for (int i = 0; i < 200; ++i) {
        const DeformerInstance& d = i < 3 ? pressed : (i < 180 ? gone : again);
        const double dt = (i % 3 == 0) ? 1.0 / 30.0 : 1.0 / 60.0; // uneven steps
        skipping->step({&d, 1}, dt);
        running->step({&d, 1}, dt);
    }
    EXPECT_GT(skipping->idleSteps(0), 0);
    EXPECT_LT(skipping->passesRun().accumulate, running->passesRun().accumulate);
    for (int s = 0; s < 2; ++s)
        EXPECT_EQ(redOf(skipping->sim(s).persistent()), redOf(running->sim(s).persistent()))
            << "sim " << s;
}

TEST(IdleSkip, SkippingChangesNoTexelOfAnRgbaBuffer) {
    // rgba16f: after a print heals, the contact-type tags around it (G age, B type, A distance)
    // still change for a few steps until they lapse; the skip must wait for that, then every
    // channel is bit-identical to a run without it.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = idleSettings();
    for (SimSettings& sim : settings.sims)
        sim.format = BufferFormat::RGBA16F;
    auto [skipping, running] = skipAndRun(settings, shaders);
    ASSERT_TRUE(skipping && running);
    test::Sphere sphere;
    const DeformerInstance pressed = sphere.at({0, 0, -20});
    const DeformerInstance gone = sphere.at({5000, 0, -20});
    const double dt = 1.0 / 60.0;
    for (int i = 0; i < 400; ++i) {
        const DeformerInstance& d = i < 3 ? pressed : gone;
        skipping->step({&d, 1}, dt);
        running->step({&d, 1}, dt);
    }
    EXPECT_GT(skipping->idleSteps(0), 0);
    EXPECT_LT(skipping->passesRun().accumulate, running->passesRun().accumulate);
    for (int s = 0; s < 2; ++s)
        EXPECT_EQ(skipping->sim(s).persistent().readFloats(),
                  running->sim(s).persistent().readFloats())
            << "sim " << s;
}

// ---- a skipped step advances the same clock as a run step ----------------------------------

// Each sim's probe texel (every channel) after every step: the probe curve of a run.
using ProbeCurve = std::vector<std::vector<float>>;
using ProbeCurves = std::array<ProbeCurve, 2>;

void recordProbe(const SnowField& field, glm::ivec2 texel, ProbeCurves& curves) {
    for (int s = 0; s < 2; ++s) {
        const gpu::Texture2D& buffer = field.sim(s).persistent();
        const std::vector<float> all = buffer.readFloats();
        const std::size_t channels = all.size() / (std::size_t(buffer.width()) * buffer.height());
        const auto at = all.begin() + (std::size_t(texel.y) * buffer.width() + texel.x) * channels;
        curves[s].emplace_back(at, at + channels);
    }
}

// Where two runs part (the first differing step, its time and both values, and both values at
// the end), or "" if nowhere.
std::string firstDifference(const ProbeCurve& skipped, const ProbeCurve& ran,
                            const std::vector<double>& timesS) {
    for (std::size_t i = 0; i < std::min(skipped.size(), ran.size()); ++i)
        if (skipped[i] != ran[i])
            return testing::PrintToString(skipped[i]) + " with the skip, " +
                   testing::PrintToString(ran[i]) + " without, from step " + std::to_string(i) +
                   " (t = " + std::to_string(timesS[i]) + " s) on; at the end " +
                   testing::PrintToString(skipped.back()) + " vs " +
                   testing::PrintToString(ran.back());
    return skipped.size() == ran.size() ? "" : "curves of different lengths";
}

std::size_t differingFloats(const std::vector<float>& a, const std::vector<float>& b) {
    std::size_t count = a.size() == b.size() ? 0 : std::max(a.size(), b.size());
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        count += std::bit_cast<std::uint32_t>(a[i]) != std::bit_cast<std::uint32_t>(b[i]);
    return count;
}

// Steps both fields through `steps` steps of `dtAt(i)` with `deformerAt(i)`, recording both
// probe curves; then expects both sims to have skipped steps and the curves and every channel
// of every buffer to be bit-identical. Returns the running field's curves.
template <class DeformerAt, class DtAt>
ProbeCurves expectSkipChangesNothing(SkipAndRun& pair, int steps, DeformerAt deformerAt, DtAt dtAt,
                                     glm::ivec2 probe) {
    ProbeCurves skipped, ran;
    std::vector<double> timesS;
    for (int i = 0; i < steps; ++i) {
        timesS.push_back((timesS.empty() ? 0.0 : timesS.back()) + dtAt(i));
        const DeformerInstance& d = deformerAt(i);
        pair.skipping->step({&d, 1}, dtAt(i));
        pair.running->step({&d, 1}, dtAt(i));
        recordProbe(*pair.skipping, probe, skipped);
        recordProbe(*pair.running, probe, ran);
    }
    for (int s = 0; s < 2; ++s) {
        EXPECT_GT(pair.skipping->idleSteps(s), 0) << "sim " << s << " never went idle";
        EXPECT_EQ(firstDifference(skipped[s], ran[s], timesS), "") << "probe of sim " << s;
        EXPECT_EQ(differingFloats(pair.skipping->sim(s).persistent().readFloats(),
                                  pair.running->sim(s).persistent().readFloats()),
                  0u)
            << "floats of sim " << s << "'s buffer";
    }
    return ran;
}

TEST(IdleSkip, SkippedStepsReadTheDecayKeys) {
    // A presses at t = 0 and leaves; the field heals and goes idle; A's decay jumps from 0.95
    // to 0.999 at t = 10 s, inside the skipped steps (B ramps from 0.9 to 0.99 over the same
    // time); a second press at t = 20-21 s. At t = 25 s the second print of A must still hold
    // what a run without the skip holds (0.999 for 4 s: about 0.78), not 0.95's zero.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = idleSettings();
    settings.sims[0].decayKeys = {{0.0, 0.95}, {10.0, 0.95}, {10.0, 0.999}};
    settings.sims[1].decayKeys = {{0.0, 0.9}, {15.0, 0.99}};
    auto pair = skipAndRun(settings, shaders);
    ASSERT_TRUE(pair.skipping && pair.running);
    test::Sphere sphere;
    const DeformerInstance pressed = sphere.at({0, 0, -20});
    const DeformerInstance gone = sphere.at({5000, 0, -20});
    const double dt = 1.0 / 60.0;
    const ProbeCurves ran = expectSkipChangesNothing(
        pair, 25 * 60,
        [&](int i) -> const DeformerInstance& {
            return i < 3 || (i >= 20 * 60 && i < 21 * 60) ? pressed : gone;
        },
        [&](int) { return dt; }, {32, 32});
    // The figure: what 4 s of 0.999 (in half-safe quanta) leave of a full print.
    EXPECT_NEAR(ran[0].back()[0], 0.784f, 0.002f);
}

TEST(IdleSkip, SkippedStepsRunTheLinearRefill) {
    // refill = "linear" releases its amount in quanta that carry a remainder from step to step:
    // skipped steps must carry it too, at uneven steps.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = idleSettings();
    for (SimSettings& sim : settings.sims)
        sim.refill = RefillMode::Linear;
    settings.sims[0].refillRatePerS = 1.3;
    settings.sims[1].refillRatePerS = 0.7;
    auto pair = skipAndRun(settings, shaders);
    ASSERT_TRUE(pair.skipping && pair.running);
    test::Sphere sphere;
    const DeformerInstance pressed = sphere.at({0, 0, -20});
    const DeformerInstance gone = sphere.at({5000, 0, -20});
    const DeformerInstance again = sphere.at({10, 5, -12});
    expectSkipChangesNothing(
        pair, 600,
        [&](int i) -> const DeformerInstance& {
            return i < 3 ? pressed : (i >= 400 && i < 420 ? again : gone);
        },
        [](int i) { return i % 3 == 0 ? 1.0 / 30.0 : 1.0 / 60.0; }, {32, 32});
}

TEST(IdleSkip, SkippedStepsRunTheAgeClock) {
    // rgba16f: a print's age (G) grows in whole quanta with a remainder carried between steps;
    // a print made after an idle stretch must age exactly as without the skip.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = idleSettings();
    for (SimSettings& sim : settings.sims)
        sim.format = BufferFormat::RGBA16F;
    auto pair = skipAndRun(settings, shaders);
    ASSERT_TRUE(pair.skipping && pair.running);
    test::Sphere sphere;
    const DeformerInstance pressed = sphere.at({0, 0, -20});
    const DeformerInstance gone = sphere.at({5000, 0, -20});
    const DeformerInstance again = sphere.at({10, 5, -12});
    expectSkipChangesNothing(
        pair, 700,
        [&](int i) -> const DeformerInstance& {
            return i < 3 ? pressed : (i >= 500 && i < 503 ? again : gone);
        },
        [](int i) { return i % 3 == 0 ? 1.0 / 30.0 : 1.0 / 60.0; }, {33, 32});
}

TEST(IdleSkip, OffRunsEveryStep) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = idleSettings();
    settings.snow.idleSkip = false;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    for (int i = 0; i < 10; ++i)
        field->step({}, 1.0 / 60.0);
    EXPECT_EQ(field->passesRun().capture, 10);
    EXPECT_EQ(field->passesRun().accumulate, 10); // a and b in one pass
    EXPECT_EQ(field->passesRun().accumulateOutputs, 20);
}

TEST(IdleSkip, AMovingRegionAlwaysRuns) {
    // B follows a sphere flying high above the snow (outside the capture's depth range, so it
    // never touches): B's region moves every step and runs every step; A's stays idle.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = idleSettings();
    settings.sims[1].region = RegionMode::FollowSnapped;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    test::Sphere sphere;
    for (int i = 0; i < 20; ++i) {
        DeformerInstance flying = sphere.at({1000.0f + 10.0f * i, 0.0f, 5000.0f});
        field->step({&flying, 1}, 1.0 / 60.0);
    }
    EXPECT_EQ(field->idleSteps(0), 20);
    EXPECT_EQ(field->idleSteps(1), 0);
    EXPECT_EQ(field->passesRun().accumulate, 20); // B alone: its capture moved away from A's
    EXPECT_EQ(field->passesRun().accumulateOutputs, 20);
    EXPECT_EQ(field->passesRun().capture, 20);
}

TEST(IdleSkip, AnR16fSimIdlesAfterALiveSwitchFromRgba16f) {
    // An rgba16f sim runs until its tags have lapsed (SimWindow::tagStepsLeft); switched live to
    // r16f, whose buffer has no tags, it must not keep waiting for them.
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = idleSettings();
    settings.sims[0].format = BufferFormat::RGBA16F;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    field->step({}, 1.0 / 60.0); // the cleared texels' first step must run
    EXPECT_EQ(field->idleSteps(0), 0);
    EXPECT_EQ(field->simWindow(0, 0).tagStepsLeft, 0) << "untouched: no tag left to wait for";
    test::Sphere sphere;
    DeformerInstance pressed = sphere.at({0, 0, -20});
    field->step({&pressed, 1}, 1.0 / 60.0);
    ASSERT_GT(field->simWindow(0, 0).tagStepsLeft, 0);
    settings.sims[0].format = BufferFormat::R16F;
    ASSERT_FALSE(field->applySettings(settings));
    EXPECT_EQ(field->simWindow(0, 0).tagStepsLeft, 0);
    // Once the heal bound (kept across the switch, to be safe) reaches 0, the sim idles.
    for (int i = 0; i < 600 && field->healBound(0) > 0.0; ++i)
        field->step({}, 1.0 / 60.0);
    ASSERT_EQ(field->healBound(0), 0.0);
    const long long before = field->idleSteps(0);
    for (int i = 0; i < 5; ++i)
        field->step({}, 1.0 / 60.0);
    EXPECT_EQ(field->idleSteps(0) - before, 5);
}

} // namespace
} // namespace snowcap
