// A field of N sims on the driver: four sims in one field equal four one-sim fields texel for
// texel (sharing a capture changes nothing a sim computes), the capture runs once per distinct
// capture, and a live change of the count keeps the sims that stay.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "snow/snow_field.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

using test::makeField;

Settings ladderSettings() {
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    settings.sims.resize(4, settings.sims[1]);
    const double decays[] = {0.95, 0.99, 0.995, 0.999};
    for (int i = 0; i < 4; ++i)
        settings.sims[i].decay = decays[i];
    // Switches that change what a sim computes, so a mix-up between sims shows.
    settings.sims[1].accumulate = AccumulateMode::Max;
    settings.sims[2].format = BufferFormat::RGBA16F;
    settings.sims[3].resolution = 128; // its own capture
    return settings;
}

// The same 40 steps for every field: a sphere pressing while it moves, then lifted.
void runSteps(SnowField& field, const test::Sphere& sphere) {
    for (int step = 0; step < 40; ++step) {
        const float x = -60.0f + 3.0f * static_cast<float>(step);
        const DeformerInstance pressed = sphere.at({x, 10.0f, step < 25 ? -20.0f : 200.0f});
        field.step({&pressed, 1}, 1.0 / 60.0);
    }
}

TEST(SimCount, FourSimsInOneFieldEqualFourOneSimFields) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    const Settings settings = ladderSettings();
    test::Sphere sphere;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    ASSERT_EQ(field->simCount(), 4);
    EXPECT_EQ(field->captureCount(), 2); // a, b, c share one; d (128²) has its own
    runSteps(*field, sphere);
    EXPECT_EQ(field->passesRun().capture, 2 * 40);
    // One pass per capture and format: a + b (r16f), c (rgba16f), d (its own capture).
    EXPECT_EQ(field->passesRun().accumulate, 3 * 40);
    EXPECT_EQ(field->passesRun().accumulateOutputs, 4 * 40);

    for (int i = 0; i < 4; ++i) {
        Settings alone = settings;
        alone.sims = {settings.sims[i]};
        auto single = makeField(alone, shaders);
        ASSERT_TRUE(single);
        ASSERT_EQ(single->simCount(), 1);
        runSteps(*single, sphere);
        const std::vector<float> expected = single->sim(0).persistent().readFloats();
        const std::vector<float> actual = field->sim(i).persistent().readFloats();
        ASSERT_EQ(actual.size(), expected.size()) << "sim " << simName(i);
        EXPECT_GT(test::maxOf(actual), 0.01f) << "sim " << simName(i) << " holds no print";
        std::size_t differing = 0;
        for (std::size_t t = 0; t < actual.size(); ++t)
            differing += actual[t] != expected[t];
        EXPECT_EQ(differing, 0u) << "sim " << simName(i) << ": texels differ";
        EXPECT_EQ(field->healBound(i), single->healBound(0)) << "sim " << simName(i);
    }
}

TEST(SimCount, ALiveChangeOfTheCountKeepsTheSimsThatStay) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    test::Sphere sphere;
    const DeformerInstance pressed = sphere.at({0, 0, -20});
    field->step({&pressed, 1}, 1.0 / 60.0);
    const std::vector<float> a = field->sim(0).persistent().readFloats();
    const std::vector<float> b = field->sim(1).persistent().readFloats();
    ASSERT_GT(test::maxOf(b), 0.1f);
    const SnowSim* simA = &field->sim(0);

    Settings four = settings;
    four.sims.push_back(defaultSim(2));
    four.sims.push_back(defaultSim(3));
    ASSERT_EQ(field->applySettings(four), std::nullopt);
    ASSERT_EQ(field->simCount(), 4);
    EXPECT_EQ(&field->sim(0), simA); // the sims that stay are the same objects
    EXPECT_EQ(field->captureCount(), 1);
    EXPECT_EQ(field->sim(0).persistent().readFloats(), a);
    EXPECT_EQ(field->sim(1).persistent().readFloats(), b);
    EXPECT_EQ(field->sim(3).name(), "d");
    EXPECT_EQ(test::maxOf(field->sim(3).persistent().readFloats()), 0.0f); // a new sim is clear
    field->step({&pressed, 1}, 1.0 / 60.0);
    EXPECT_GT(test::maxOf(field->sim(3).persistent().readFloats()), 0.1f);

    ASSERT_EQ(field->applySettings(settings), std::nullopt);
    EXPECT_EQ(field->simCount(), 2);
}

TEST(SimCount, MoreThanEightSimsAreRefusedAndNothingChanges) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = 64;
    auto field = makeField(settings, shaders);
    ASSERT_TRUE(field);
    Settings nine = settings;
    nine.sims.resize(9, settings.sims[1]);
    EXPECT_EQ(field->applySettings(nine), "sim: 9 sims; a field runs 1 to 8 (sim.a .. sim.h)");
    EXPECT_EQ(field->simCount(), 2);
}

} // namespace
} // namespace snowcap
