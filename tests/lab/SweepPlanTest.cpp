// The sweep's plan (CPU only): --vary parsing, every combination loaded through the config
// path (a bad value is the config's own message), packing into fields, and the fade times
// measured from a probe's steps (never extrapolated).
#include "lab/print_metrics.hpp"
#include "lab/sweep_plan.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

SweepRequest decayLadder(std::vector<std::string> values) {
    SweepRequest request;
    request.scenario = "press_release";
    request.axes = {{"sim.b.decay", std::move(values)}};
    request.atS = {0.5, 1.0};
    return request;
}

TEST(SweepPlan, ParsesValuesWithCommasInsideArraysAndQuotes) {
    auto axis = parseSweepAxis("sim.b.decay_keys=[[0, 0.9], [1, 0.99]],[[0, 0.95]], \"a,b\"");
    ASSERT_TRUE(std::holds_alternative<SweepAxis>(axis));
    const SweepAxis& a = std::get<SweepAxis>(axis);
    EXPECT_EQ(a.key, "sim.b.decay_keys");
    ASSERT_EQ(a.values.size(), 3u);
    EXPECT_EQ(a.values[0], "[[0, 0.9], [1, 0.99]]");
    EXPECT_EQ(a.values[1], "[[0, 0.95]]");
    EXPECT_EQ(a.values[2], "\"a,b\"");
    EXPECT_TRUE(std::holds_alternative<std::string>(parseSweepAxis("sim.b.decay")));
    EXPECT_TRUE(std::holds_alternative<std::string>(parseSweepAxis("sim.b.decay=0.9,,0.99")));
    EXPECT_TRUE(std::holds_alternative<std::string>(parseSweepAxis("k=[1,2")));
}

TEST(SweepPlan, PacksOneSimsKeysIntoFieldsOfItsCapacity) {
    auto planned = planSweep(decayLadder({"0.9", "0.95", "0.99"}));
    ASSERT_TRUE(std::holds_alternative<SweepPlan>(planned)) << std::get<std::string>(planned);
    const SweepPlan& plan = std::get<SweepPlan>(planned);
    EXPECT_TRUE(plan.packed);
    EXPECT_EQ(plan.measuredSim, 1);
    ASSERT_EQ(plan.combinations.size(), 3u);
    const int capacity = sweepFieldCapacity();
    EXPECT_EQ(plan.batches.size(), (3u + capacity - 1) / capacity);
    // Each combination's sim b is in its slot of its field, exactly as loaded.
    for (const SweepBatch& batch : plan.batches)
        for (std::size_t i = 0; i < batch.combinations.size(); ++i) {
            const SweepCombination& c = plan.combinations[batch.combinations[i]];
            EXPECT_EQ(batch.settings.sims[batch.slots[i]].decay, c.settings.sims[1].decay);
        }
    EXPECT_DOUBLE_EQ(plan.combinations[2].settings.sims[1].decay, 0.99);
    // The run ends at the last --at time.
    EXPECT_EQ(plan.combinations[0].settings.run.frames,
              static_cast<int>(std::ceil(1.0 * plan.combinations[0].settings.run.fps)));
    EXPECT_EQ(plan.label(1), "decay 0.95");
}

TEST(SweepPlan, SceneKeysRunAFieldPerCombination) {
    SweepRequest request = decayLadder({"0.9", "0.99"});
    request.axes.push_back({"snow.resolution", {"64", "128"}});
    auto planned = planSweep(request);
    ASSERT_TRUE(std::holds_alternative<SweepPlan>(planned)) << std::get<std::string>(planned);
    const SweepPlan& plan = std::get<SweepPlan>(planned);
    EXPECT_FALSE(plan.packed);
    ASSERT_EQ(plan.batches.size(), 4u);
    // The first axis varies slowest.
    EXPECT_EQ(plan.combinations[1].values, (std::vector<std::string>{"0.9", "128"}));
    EXPECT_EQ(plan.batches[1].settings.snow.resolution, 128);
    EXPECT_EQ(plan.batches[1].slots, std::vector<int>{1});
}

TEST(SweepPlan, BadValuesGetTheConfigsOwnMessage) {
    for (const auto& [key, value, expected] :
         std::vector<std::tuple<std::string, std::string, std::string>>{
             {"sim.b.decay", "1.5", "sim.b.decay"},
             {"sim.b.decay", "fast", "sim.b.decay"},
             {"sim.b.no_such_key", "1", "no_such_key"},
             {"sim.b.format", "r8", "sim.b.format"}}) {
        SweepRequest request = decayLadder({"0.9", value});
        request.axes[0].key = key;
        if (key != "sim.b.decay")
            request.axes[0].values = {value};
        auto planned = planSweep(request);
        ASSERT_TRUE(std::holds_alternative<std::string>(planned)) << key << "=" << value;
        const std::string& message = std::get<std::string>(planned);
        EXPECT_NE(message.find(expected), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message; // one line
    }
    SweepRequest late = decayLadder({"0.9"});
    late.frames = 10;
    EXPECT_TRUE(std::holds_alternative<std::string>(planSweep(late))); // --at 1 s past 10 steps
    SweepRequest twoSims = decayLadder({"0.9"});
    twoSims.axes.push_back({"sim.a.decay", {"0.9"}});
    EXPECT_TRUE(std::holds_alternative<std::string>(planSweep(twoSims))); // which sim?
}

TEST(MeasuredFade, FromTheLastStepAtThePeakAndNeverExtrapolated) {
    const double dt = 0.5;
    // Rises, holds the peak (a contact), then fades: 1, 0.6, 0.4, 0.08, 0.
    const std::vector<float> values = {0.5f, 1.0f, 1.0f, 0.6f, 0.4f, 0.08f, 0.0f};
    const MeasuredFade fade = measureFade(values, dt);
    ASSERT_TRUE(fade.peak && fade.startS && fade.to50S && fade.to10S && fade.toZeroS);
    EXPECT_DOUBLE_EQ(*fade.startS, 1.5); // after step 3
    EXPECT_DOUBLE_EQ(*fade.to50S, 1.0);  // 0.4 two steps later
    EXPECT_DOUBLE_EQ(*fade.to10S, 1.5);
    EXPECT_DOUBLE_EQ(*fade.toZeroS, 2.0);
    // The run ends before 10 % and 0: not reached.
    const MeasuredFade cut = measureFade({1.0f, 0.7f, 0.45f}, dt);
    EXPECT_TRUE(cut.to50S);
    EXPECT_FALSE(cut.to10S);
    EXPECT_FALSE(cut.toZeroS);
    // A probe that never saw a print: nothing at all.
    const MeasuredFade none = measureFade({0.0f, NAN, 0.0f}, dt);
    EXPECT_FALSE(none.peak || none.startS || none.to50S);
}

TEST(PredictedFade, MatchesTheAnalyticHalfLife) {
    SimSettings sim;
    sim.decay = 0.999; // delta_time: 0.999^(60 t) = 0.5 at t = 11.55 s
    const PredictedFade fade = predictFade(sim, 60.0);
    ASSERT_TRUE(fade.to50S && fade.to10S && fade.toZeroS);
    EXPECT_NEAR(*fade.to50S, std::log(0.5) / (60.0 * std::log(0.999)), 0.15);
    EXPECT_NEAR(*fade.to10S, std::log(0.1) / (60.0 * std::log(0.999)), 0.5);
    EXPECT_GT(*fade.toZeroS, *fade.to10S);
    EXPECT_FALSE(predictFade(sim, 60.0, 5.0).to50S); // past the horizon: not reached
}

} // namespace
} // namespace snowcap
