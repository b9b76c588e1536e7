// The viewer's lab on the driver: edits that fail change nothing, scrubbing reproduces fixed
// stepping exactly, the probe pick hits the surface where the camera looks, and the
// "one difference" presets change exactly one thing.
#include "GLTestSupport.hpp"
#include "lab/lab.hpp"
#include "viewer/viewer_panels.hpp"
#include "viewer/viewer_views.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

std::unique_ptr<Lab> makeLab() {
    // press_release: one ball pressing the centre, at 64 x 64 texels (llvmpipe is slow).
    auto created = Lab::create("press_release", {"snow.resolution=64"}, test::glInfo().renderer);
    if (auto* error = std::get_if<std::string>(&created)) {
        ADD_FAILURE() << *error;
        return nullptr;
    }
    return std::move(std::get<0>(created));
}

TEST(Lab, FailedEditsChangeNothingAndGiveOneLine) {
    auto lab = makeLab();
    ASSERT_TRUE(lab);
    const std::size_t deformers = lab->deformers().size();
    auto error = lab->addDeformer("assets/meshes/none.glb");
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("none.glb"), std::string::npos) << *error;
    EXPECT_EQ(error->find('\n'), std::string::npos) << *error;
    EXPECT_EQ(lab->deformers().size(), deformers);
    EXPECT_EQ(lab->settings().deformers.size(), deformers);

    error = lab->loadScenario("/nonexistent/scenario.toml");
    ASSERT_TRUE(error);
    EXPECT_EQ(lab->scenario(), "press_release");
    EXPECT_EQ(lab->deformers().size(), deformers);
}

TEST(Lab, AddAndRemoveDeformers) {
    auto lab = makeLab();
    ASSERT_TRUE(lab);
    const std::size_t deformers = lab->deformers().size();
    ASSERT_FALSE(lab->addDeformer("sphere"));
    ASSERT_FALSE(lab->addDeformer("sphere"));
    ASSERT_EQ(lab->deformers().size(), deformers + 2);
    EXPECT_NE(lab->deformers()[deformers].name, lab->deformers()[deformers + 1].name);
    lab->setVisible(static_cast<int>(deformers), false);
    // Hidden: no mesh (neither drawn nor pressing), its slot kept for the follow index.
    ASSERT_EQ(lab->instances().size(), deformers + 2);
    EXPECT_EQ(lab->instances()[deformers].mesh, nullptr);
    EXPECT_NE(lab->instances()[deformers + 1].mesh, nullptr);
    lab->removeDeformer(static_cast<int>(deformers));
    EXPECT_EQ(lab->deformers().size(), deformers + 1);
}

TEST(Lab, WasdDrivesThePlayerAndRestartBringsItBack) {
    auto lab = makeLab();
    ASSERT_TRUE(lab);
    ASSERT_FALSE(lab->hasPlayer());
    ASSERT_FALSE(lab->addDeformer("sphere"));
    Settings edited = lab->settings();
    edited.deformers.back().player = true;
    edited.deformers.back().speedCmS = 100.0;
    ASSERT_FALSE(lab->apply(edited, true));
    ASSERT_TRUE(lab->hasPlayer());
    const glm::vec3 start = *lab->followedPositionCm();
    lab->drivePlayer({1.0f, 0.0f}, 0.5); // half a second of D at 100 cm/s
    lab->step(lab->fixedDtS(), false);
    const glm::vec3 moved = *lab->followedPositionCm();
    EXPECT_NEAR(moved.x - start.x, 50.0, 1.0);
    EXPECT_NEAR(moved.y - start.y, 0.0, 1e-3);
    lab->restart();
    EXPECT_NEAR(lab->followedPositionCm()->x, start.x, 1e-3);
}

TEST(Lab, ScrubReproducesFixedSteps) {
    auto lab = makeLab();
    ASSERT_TRUE(lab);
    for (int i = 0; i < 20; ++i)
        lab->step(lab->fixedDtS(), false);
    const std::vector<float> stepped = lab->field().sim(1).persistent().readFloats();
    float peak = 0.0f;
    for (float v : stepped)
        peak = std::max(peak, v);
    ASSERT_GT(peak, 0.5f) << "the ball should have pressed in 20 steps";
    lab->simulateTo(20 * lab->fixedDtS());
    EXPECT_EQ(lab->steps(), 20);
    EXPECT_EQ(lab->field().sim(1).persistent().readFloats(), stepped);
    lab->restart();
    EXPECT_EQ(lab->timeS(), 0.0);
    for (float v : lab->field().sim(1).persistent().readFloats())
        ASSERT_EQ(v, 0.0f);
}

TEST(Lab, ReadingTheDeformersAtATimeLeavesTheClock) {
    auto lab = makeLab();
    ASSERT_TRUE(lab);
    for (int i = 0; i < 3; ++i)
        lab->step(lab->fixedDtS(), false);
    const double now = lab->timeS();
    const glm::mat4 here = lab->instances().at(0).model;
    const glm::mat4 later = lab->instancesAt(now + 1.0).at(0).model;
    EXPECT_EQ(lab->timeS(), now);
    EXPECT_EQ(lab->steps(), 3);
    EXPECT_NE(later, here) << "the press_release ball moves in its first second";
    EXPECT_EQ(lab->instances().at(0).model, here);
}

TEST(Lab, EveryWayOfSteppingIsTheSameStep) {
    // step() (the viewer's playback), stepTo() (render's fixed steps) and simulateTo() (the
    // scrub bar) are one primitive: the same steps leave the same buffers.
    auto a = makeLab(), b = makeLab(), c = makeLab();
    ASSERT_TRUE(a && b && c);
    const double dt = a->fixedDtS();
    for (int i = 0; i < 12; ++i) {
        a->step(dt, false);
        b->stepTo((i + 1) * dt, dt);
    }
    c->simulateTo(12 * dt);
    const std::vector<float> stepped = a->field().sim(0).persistent().readFloats();
    EXPECT_EQ(b->field().sim(0).persistent().readFloats(), stepped);
    EXPECT_EQ(c->field().sim(0).persistent().readFloats(), stepped);
    EXPECT_EQ(a->steps(), 12);
    EXPECT_EQ(c->steps(), 12);
    EXPECT_DOUBLE_EQ(a->timeS(), c->timeS());
}

TEST(Lab, ProbePickHitsTheSurfaceUnderTheCamera) {
    auto lab = makeLab();
    ASSERT_TRUE(lab);
    ViewerState state;
    state.layout = CompareLayout::AOnly;
    state.cameras[0].pitchDeg = 60.0;
    state.cameras[0].yawDeg = 30.0;
    state.cameras[0].distanceCm = 500.0;
    state.cameras[0].targetCm[0] = 40.0;
    state.cameras[0].targetCm[1] = -25.0;
    state.cameras[0].targetCm[2] = lab->settings().snow.surfaceZCm;
    // The centre of the pane (right of the side bar) is the orbit target, on the surface.
    const glm::ivec4 pane = layoutPanes(state, 200, 100).front().rect;
    const double centreX = pane.x + 0.5 * pane.z;
    auto hit = pickSurface(state, *lab, 200, 100, {centreX, pane.y + 0.5 * pane.w});
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->x, 40.0, 0.5);
    EXPECT_NEAR(hit->y, -25.0, 0.5);
    // Above the horizon there is nothing to hit, and under the side bar no pane.
    EXPECT_FALSE(pickSurface(state, *lab, 200, 100, {pane.x - 1.0, 50.0}));
    state.cameras[0].pitchDeg = 5.0;
    EXPECT_FALSE(pickSurface(state, *lab, 200, 100, {centreX, 99.0}));
}

TEST(Lab, OneDifferencePresetsDifferInTheirSwitchOnly) {
    for (const OnePreset& preset : oneDifferencePresets()) {
        SimSettings a, b;
        b = a;
        preset.apply(a, b);
        int count = (a.decay != b.decay) + (a.format != b.format) + (a.region != b.region) +
                    (a.decayTiming != b.decayTiming) + (a.accumulate != b.accumulate) +
                    (a.displacement != b.displacement) + (a.normals != b.normals) +
                    (a.rims != b.rims) + (a.refill != b.refill) + (a.blur != b.blur) +
                    (a.halfSafe != b.halfSafe) + (a.resolution != b.resolution) +
                    (a.contactTiming != b.contactTiming);
        EXPECT_EQ(count, 1) << preset.name;
    }
}

} // namespace
} // namespace snowcap
