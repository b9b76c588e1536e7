// snow.idle_skip on the driver: no pass while nothing touches a still, healed region; passes
// resume on contact; a moving region always runs; skipping never hides a non-zero texel.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"

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

    // Contact: both sims run.
    DeformerInstance pressed = sphere.at({0, 0, -20});
    field->step({&pressed, 1}, dt);
    EXPECT_EQ(field->passesRun().capture, 1);
    EXPECT_EQ(field->passesRun().accumulate, 2);
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

    field->step({&pressed, 1}, dt);
    EXPECT_EQ(field->passesRun().capture, idle.capture + 1);
    EXPECT_EQ(field->passesRun().accumulate, idle.accumulate + 2);
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

TEST(IdleSkip, OffRunsEveryStep) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings = idleSettings();
    settings.snow.idleSkip = false;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    for (int i = 0; i < 10; ++i)
        field->step({}, 1.0 / 60.0);
    EXPECT_EQ(field->passesRun().capture, 10);
    EXPECT_EQ(field->passesRun().accumulate, 20);
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
    EXPECT_EQ(field->passesRun().accumulate, 20);
    EXPECT_EQ(field->passesRun().capture, 20);
}

} // namespace
} // namespace snowcap
