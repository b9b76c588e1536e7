// Deformer paths: keyframes, polylines at a speed and circles, played once, looped or
// ping-ponged; where the deformer is and which way it faces at given times.
#include "scene/deformer_path.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

namespace snowcap {
namespace {

using Mode = DeformerSettings::PathMode;
constexpr double kPi = std::numbers::pi;

void expectAt(const DeformerPath& path, double t, glm::vec3 position, double heading) {
    const PathPose pose = path.at(t);
    EXPECT_NEAR(pose.positionCm.x, position.x, 1e-3) << "t = " << t;
    EXPECT_NEAR(pose.positionCm.y, position.y, 1e-3) << "t = " << t;
    EXPECT_NEAR(pose.positionCm.z, position.z, 1e-3) << "t = " << t;
    // Headings compare as directions: pi and -pi are the same way.
    EXPECT_NEAR(std::remainder(pose.headingRad - heading, 2.0 * kPi), 0.0, 1e-4) << "t = " << t;
}

// An L: 100 cm along +X, then 100 cm along +Y, at 50 cm/s: 4 s a pass.
DeformerPath ell(Mode mode, double startS = 0.0) {
    return DeformerPath::polyline({{0, 0, 0}, {100, 0, 0}, {100, 100, 0}}, 50.0, startS, mode);
}

TEST(DeformerPath, PolylineOnceMovesAtItsSpeedAndHoldsTheEnd) {
    const DeformerPath path = ell(Mode::Once);
    EXPECT_DOUBLE_EQ(path.passDurationS(), 4.0);
    expectAt(path, 0.0, {0, 0, 0}, 0.0);
    expectAt(path, 1.0, {50, 0, 0}, 0.0);
    expectAt(path, 3.0, {100, 50, 0}, kPi / 2);
    expectAt(path, 4.0, {100, 100, 0}, kPi / 2);
    expectAt(path, 60.0, {100, 100, 0}, kPi / 2); // held, still facing its last motion
    EXPECT_EQ(ell(Mode::Auto).mode(), Mode::Once);
}

TEST(DeformerPath, PolylineWaitsForItsStart) {
    const DeformerPath path = ell(Mode::Once, 2.0);
    expectAt(path, 0.0, {0, 0, 0}, 0.0);
    expectAt(path, 2.0, {0, 0, 0}, 0.0);
    expectAt(path, 3.0, {50, 0, 0}, 0.0);
}

TEST(DeformerPath, LoopWrapsToTheStart) {
    const DeformerPath path = ell(Mode::Loop);
    expectAt(path, 5.0, {50, 0, 0}, 0.0);
    expectAt(path, 3.5, {100, 75, 0}, kPi / 2);
    expectAt(path, 4.0 * 7 + 3.0, {100, 50, 0}, kPi / 2);
    // Just before and after the wrap: the end, then the start again.
    expectAt(path, 3.999, {100, 99.95f, 0}, kPi / 2);
    expectAt(path, 4.001, {0.05f, 0, 0}, 0.0);
}

TEST(DeformerPath, PingPongComesBackFacingTheOtherWay) {
    const DeformerPath path = ell(Mode::PingPong);
    expectAt(path, 3.0, {100, 50, 0}, kPi / 2);
    expectAt(path, 5.0, {100, 50, 0}, -kPi / 2); // on its way back down the second leg
    expectAt(path, 7.0, {50, 0, 0}, kPi);        // and back along -X
    expectAt(path, 7.9, {5, 0, 0}, kPi);         // nearly home
    expectAt(path, 9.0, {50, 0, 0}, 0.0);        // and out again
}

TEST(DeformerPath, CircleLoopsCounterClockwiseFacingItsTangent) {
    // r = 100 cm at 100 cm/s: a lap takes 2 pi s; a quarter lap pi / 2 s.
    const glm::vec3 centre(10, 20, 5);
    const DeformerPath path =
        DeformerPath::circle(centre, 100.0, 0.0, false, 100.0, 0.0, Mode::Auto);
    EXPECT_EQ(path.mode(), Mode::Loop);
    EXPECT_NEAR(path.passDurationS(), 2.0 * kPi, 1e-9);
    expectAt(path, 0.0, centre + glm::vec3(100, 0, 0), kPi / 2);
    expectAt(path, kPi / 2, centre + glm::vec3(0, 100, 0), kPi);
    expectAt(path, kPi, centre + glm::vec3(-100, 0, 0), -kPi / 2);
    expectAt(path, 2.0 * kPi + kPi / 2, centre + glm::vec3(0, 100, 0), kPi); // second lap
}

TEST(DeformerPath, CircleClockwiseFromAStartAngle) {
    const glm::vec3 centre(0, 0, 0);
    // Starts at 90° (on +Y) and goes clockwise: towards +X first.
    const DeformerPath path = DeformerPath::circle(centre, 50.0, 90.0, true, 50.0, 1.0, Mode::Once);
    expectAt(path, 0.0, {0, 50, 0}, 0.0); // waiting at its start, facing its first motion
    expectAt(path, 1.0 + kPi / 2, {50, 0, 0}, -kPi / 2);
    expectAt(path, 100.0, {0, 50, 0}, 0.0); // once: one lap, then it stays
}

TEST(DeformerPath, CirclePingPongReverses) {
    const DeformerPath path =
        DeformerPath::circle({0, 0, 0}, 100.0, 0.0, false, 100.0, 0.0, Mode::PingPong);
    // A lap out counter-clockwise, then a lap back clockwise.
    expectAt(path, 2.0 * kPi - kPi / 2, {0, -100, 0}, 0.0); // out: +X at the bottom
    expectAt(path, 2.0 * kPi + kPi / 2, {0, -100, 0}, kPi); // back: -X at the bottom
}

TEST(DeformerPath, KeysKeepTheirHeadingThroughVerticalMovesAndHolds) {
    // Along -X, pause, lift straight up: it keeps facing -X throughout.
    const DeformerPath path = DeformerPath::keys(
        {{1.0, {100, 0, 0}}, {3.0, {0, 0, 0}}, {4.0, {0, 0, 0}}, {5.0, {0, 0, 100}}}, Mode::Auto);
    EXPECT_EQ(path.mode(), Mode::Once);
    expectAt(path, 0.0, {100, 0, 0}, kPi); // before the first key: held, facing its motion
    expectAt(path, 2.0, {50, 0, 0}, kPi);
    expectAt(path, 3.5, {0, 0, 0}, kPi);
    expectAt(path, 4.5, {0, 0, 50}, kPi);
    expectAt(path, 9.0, {0, 0, 100}, kPi);
}

TEST(DeformerPath, KeysWithEqualTimesJump) {
    // press_release's shape: above, down at t = 0, held, up at t = 1.
    const DeformerPath path = DeformerPath::keys(
        {{0, {0, 0, 100}}, {0, {0, 0, -20}}, {1, {0, 0, -20}}, {1, {0, 0, 500}}}, Mode::Once);
    expectAt(path, 0.0, {0, 0, 100}, 0.0);
    expectAt(path, 0.5, {0, 0, -20}, 0.0);
    expectAt(path, 1.5, {0, 0, 500}, 0.0);
}

TEST(DeformerPath, KeysLoopOverTheirOwnSpan) {
    const DeformerPath path =
        DeformerPath::keys({{2.0, {0, 0, 0}}, {4.0, {200, 0, 0}}}, Mode::Loop);
    expectAt(path, 1.0, {0, 0, 0}, 0.0); // before the first key
    expectAt(path, 3.0, {100, 0, 0}, 0.0);
    expectAt(path, 5.0, {100, 0, 0}, 0.0); // 2 s a pass from t = 2
    const DeformerPath back =
        DeformerPath::keys({{2.0, {0, 0, 0}}, {4.0, {200, 0, 0}}}, Mode::PingPong);
    expectAt(back, 5.0, {100, 0, 0}, kPi);
}

TEST(DeformerPath, FromSettingsLiftsEveryKind) {
    DeformerSettings settings;
    settings.pathKind = DeformerSettings::PathKind::Polyline;
    settings.waypointsCm = {{0, 0, 0}, {0, 100, 10}};
    settings.speedCmS = 10.0;
    expectAt(DeformerPath::fromSettings(settings, -30.0), 0.0, {0, 0, -30}, kPi / 2);
    settings.pathKind = DeformerSettings::PathKind::Circle;
    settings.circleCentreCm = {5, 5, 2};
    settings.circleRadiusCm = 20.0;
    settings.circleDirection = DeformerSettings::CircleDirection::Cw;
    expectAt(DeformerPath::fromSettings(settings, -30.0), 0.0, {25, 5, -28}, -kPi / 2);
    settings.pathKind = DeformerSettings::PathKind::Keys;
    settings.path = {{0.0, {1, 2, 3}}};
    expectAt(DeformerPath::fromSettings(settings, -8.0), 7.0, {1, 2, -5}, 0.0);
}

} // namespace
} // namespace snowcap
