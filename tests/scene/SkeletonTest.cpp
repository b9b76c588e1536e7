// Skeleton sampling and CPU skinning: the reference that GPU skinning is compared against, so
// interpolation, looping and the rest-pose identity are pinned here.

#include "scene/skeleton.hpp"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <numbers>

namespace snowcap {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

void expectNear(const glm::vec3& actual, const glm::vec3& expected, float tolerance = 1e-4f) {
    EXPECT_NEAR(actual.x, expected.x, tolerance);
    EXPECT_NEAR(actual.y, expected.y, tolerance);
    EXPECT_NEAR(actual.z, expected.z, tolerance);
}

void expectIdentity(const glm::mat4& m, float tolerance = 1e-4f) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            EXPECT_NEAR(m[c][r], c == r ? 1.0f : 0.0f, tolerance) << "column " << c << " row " << r;
}

glm::quat aboutZ(float degrees) {
    return glm::angleAxis(glm::radians(degrees), glm::vec3(0.0f, 0.0f, 1.0f));
}

// A three-joint chain along +Z (hip, knee, ankle) bound where it rests, under a root transform
// like the importer's (scale, turn, offset).
Skeleton chain() {
    Skeleton skeleton;
    skeleton.root = glm::translate(glm::mat4(1.0f), glm::vec3(5, -3, 2)) *
                    glm::rotate(glm::mat4(1.0f), 0.7f, glm::vec3(0, 0, 1)) *
                    glm::scale(glm::mat4(1.0f), glm::vec3(2.0f));
    const glm::vec3 offsets[3] = {{0, 0, 90}, {0, 0, -40}, {0, 0, -40}};
    for (int j = 0; j < 3; ++j) {
        Joint joint;
        joint.name = std::string("joint") + char('0' + j);
        joint.parent = j - 1;
        joint.restTranslation = offsets[j];
        joint.restRotation = aboutZ(10.0f * float(j));
        skeleton.joints.push_back(joint);
    }
    const std::vector<glm::mat4> rest = jointGlobals(skeleton, nullptr, 0.0, false);
    for (int j = 0; j < 3; ++j)
        skeleton.joints[j].inverseBind = glm::inverse(rest[j]);
    return skeleton;
}

TEST(Skeleton, InPlaceTakesTheClipsTravelOutButKeepsItsBob) {
    // A clip whose root walks 100 cm along its own X in a second and bobs 10 cm up; under the
    // chain's root transform (scale 2, turned 0.7 rad) that is 200 cm across the world.
    const Skeleton skeleton = chain();
    AnimationClip clip;
    clip.durationS = 1.0;
    JointChannel hips;
    hips.joint = 0;
    hips.translations = {{0.0, {0, 0, 90}}, {1.0, {100, 0, 100}}};
    clip.channels.push_back(hips);
    const double t = 0.5;
    const auto travelling = jointGlobals(skeleton, &clip, t, false);
    const auto start = jointGlobals(skeleton, &clip, 0.0, false);
    const auto inPlace = skinningMatrices(skeleton, &clip, t, false, true);
    const auto moving = skinningMatrices(skeleton, &clip, t, false, false);
    for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
        // skinning matrix * bind global = the joint's global.
        const glm::vec3 placed(inPlace[j] * glm::inverse(skeleton.joints[j].inverseBind)[3]);
        const glm::vec3 travelled(moving[j] * glm::inverse(skeleton.joints[j].inverseBind)[3]);
        expectNear(travelled, glm::vec3(travelling[j][3]), 1e-3f);
        const glm::vec3 shift = glm::vec3(travelling[0][3]) - glm::vec3(start[0][3]);
        EXPECT_GT(std::hypot(shift.x, shift.y), 90.0f); // the clip does travel
        // In place: the same pose, moved back across the ground by the root's travel...
        expectNear(placed, glm::vec3(travelling[j][3]) - glm::vec3(shift.x, shift.y, 0.0f), 1e-3f);
    }
    // ...so the root stands over its start, still bobbing (2 x 5 cm up at half time).
    const glm::vec3 root(inPlace[0] * glm::inverse(skeleton.joints[0].inverseBind)[3]);
    EXPECT_NEAR(root.x, start[0][3].x, 1e-3f);
    EXPECT_NEAR(root.y, start[0][3].y, 1e-3f);
    EXPECT_NEAR(root.z - start[0][3].z, 10.0f, 1e-3f);
}

TEST(Skeleton, LerpsVectorKeysAndHoldsTheEnds) {
    const std::vector<Keyframe<glm::vec3>> keys = {
        {0.0, {0, 0, 0}}, {1.0, {10, 0, 0}}, {3.0, {10, 20, 0}}};
    expectNear(sampleKeys(keys, 0.25, glm::vec3(-1.0f)), {2.5f, 0, 0});
    expectNear(sampleKeys(keys, 2.0, glm::vec3(-1.0f)), {10, 10, 0});
    expectNear(sampleKeys(keys, -5.0, glm::vec3(-1.0f)), {0, 0, 0});
    expectNear(sampleKeys(keys, 9.0, glm::vec3(-1.0f)), {10, 20, 0});
    expectNear(sampleKeys(std::span<const Keyframe<glm::vec3>>{}, 0.5, glm::vec3(7.0f)),
               glm::vec3(7.0f));
}

TEST(Skeleton, SlerpsRotationKeysTheShortWay) {
    const std::vector<Keyframe<glm::quat>> keys = {{0.0, aboutZ(0.0f)}, {1.0, aboutZ(90.0f)}};
    const glm::quat half = sampleKeys(keys, 0.5, glm::quat(1, 0, 0, 0));
    expectNear(glm::mat3_cast(half) * glm::vec3(1, 0, 0),
               {std::cos(kPi / 4.0f), std::sin(kPi / 4.0f), 0.0f});
    // The same end rotation stored as -q: still 45 degrees, not the long way round.
    const std::vector<Keyframe<glm::quat>> negated = {{0.0, aboutZ(0.0f)}, {1.0, -aboutZ(90.0f)}};
    const glm::quat shortWay = sampleKeys(negated, 0.5, glm::quat(1, 0, 0, 0));
    expectNear(glm::mat3_cast(shortWay) * glm::vec3(1, 0, 0),
               {std::cos(kPi / 4.0f), std::sin(kPi / 4.0f), 0.0f});
    EXPECT_NEAR(glm::length(shortWay), 1.0f, 1e-6f);
}

TEST(Skeleton, WrapsLoopingTimeAndClampsTheRest) {
    AnimationClip clip{"walk", 1.25, {}};
    EXPECT_NEAR(clipTime(clip, 0.5, true), 0.5, 1e-12);
    EXPECT_NEAR(clipTime(clip, 3.0, true), 0.5, 1e-12);
    EXPECT_NEAR(clipTime(clip, -0.25, true), 1.0, 1e-12);
    EXPECT_NEAR(clipTime(clip, 3.0, false), 1.25, 1e-12);
    EXPECT_NEAR(clipTime(clip, -1.0, false), 0.0, 1e-12);
    EXPECT_EQ(clipTime(AnimationClip{"empty", 0.0, {}}, 3.0, true), 0.0);
    EXPECT_EQ(clipTime(clip, NAN, true), 0.0);
}

TEST(Skeleton, RestPoseSkinsToIdentity) {
    const Skeleton skeleton = chain();
    for (const glm::mat4& matrix : skinningMatrices(skeleton, nullptr, 0.0, false))
        expectIdentity(matrix);
    // A clip that only names some joints leaves the others at rest.
    AnimationClip clip{"idle", 1.0, {{1, {}, {}, {}}}};
    for (const glm::mat4& matrix : skinningMatrices(skeleton, &clip, 0.3, true))
        expectIdentity(matrix);
}

TEST(Skeleton, ClipMovesChildrenWithTheirParent) {
    Skeleton skeleton;
    skeleton.joints = {Joint{"hip", -1, glm::mat4(1.0f), {0, 0, 0}},
                       Joint{"knee", 0, glm::translate(glm::mat4(1.0f), {-10, 0, 0}), {10, 0, 0}}};
    // The hip turns 90 degrees about Z over one second, looping.
    AnimationClip clip{"turn", 1.0, {{0, {}, {{0.0, aboutZ(0.0f)}, {1.0, aboutZ(90.0f)}}, {}}}};
    Mesh mesh;
    mesh.positions = {{20, 0, 0}};
    const std::vector<glm::u16vec4> joints = {{1, 0, 0, 0}};
    const std::vector<glm::vec4> weights = {{1, 0, 0, 0}};
    const Mesh atEnd =
        skinMesh(mesh, joints, weights, skinningMatrices(skeleton, &clip, 1.0, false));
    expectNear(atEnd.positions[0], {0, 20, 0});
    const Mesh halfway =
        skinMesh(mesh, joints, weights, skinningMatrices(skeleton, &clip, 1.5, true));
    expectNear(halfway.positions[0], {20 * std::cos(kPi / 4), 20 * std::sin(kPi / 4), 0});
}

TEST(Skeleton, SkinningBlendsNormalisedWeights) {
    const std::vector<glm::mat4> matrices = {glm::mat4(1.0f),
                                             glm::translate(glm::mat4(1.0f), {10, 0, 0}),
                                             glm::rotate(glm::mat4(1.0f), kPi / 2, {0, 0, 1})};
    Mesh mesh;
    mesh.positions = {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}};
    mesh.normals = {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}};
    const std::vector<glm::u16vec4> joints = {
        {0, 1, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {7, 1, 0, 0}, {0, 0, 0, 0}};
    const std::vector<glm::vec4> weights = {
        {0.5f, 0.5f, 0, 0}, // half way to the translated joint
        {2.0f, 2.0f, 0, 0}, // the same once normalised
        {1.0f, 0, 0, 0},    // rigidly turned, normal too
        {1.0f, 1.0f, 0, 0}, // joint 7 does not exist: all weight on joint 1
        {0, 0, 0, 0}};      // no weight: stays at its bind position
    const Mesh posed = skinMesh(mesh, joints, weights, matrices);
    expectNear(posed.positions[0], {6, 0, 0});
    expectNear(posed.positions[1], {6, 0, 0});
    expectNear(posed.positions[2], {0, 1, 0});
    expectNear(posed.normals[2], {0, 1, 0});
    expectNear(posed.positions[3], {11, 0, 0});
    expectNear(posed.positions[4], {1, 0, 0});
}

TEST(Skeleton, ParentAfterChildIsTreatedAsRoot) {
    Skeleton skeleton;
    skeleton.joints = {Joint{"a", 1, glm::mat4(1.0f), {1, 2, 3}}, Joint{"b", -1}};
    const std::vector<glm::mat4> globals = jointGlobals(skeleton, nullptr, 0.0, false);
    ASSERT_EQ(globals.size(), 2u);
    expectNear(glm::vec3(globals[0][3]), {1, 2, 3});
    EXPECT_EQ(skeleton.find("b"), 1);
    EXPECT_EQ(skeleton.find("nope"), -1);
}

} // namespace
} // namespace snowcap
