// Capture subsets (scene/capture_subset.hpp) on the CPU: the band keeps what can come down to
// the snow and drops the rest; each vertex's lowest z is a true lower bound over the whole
// clip, also where the lowest moment falls between samples (the dipping hand), and not so loose
// that it keeps everything; the settings give the band and the ceiling.
#include "DippingArm.hpp"
#include "TestSupport.hpp"
#include "scene/capture_subset.hpp"
#include "scene/deformer.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

// Indices into the arm's part of the figure's index list.
int armTriangles(const CaptureSubset& subset, const test::DippingArm& figure) {
    const std::uint32_t firstArmVertex = figure.armFirstVertex;
    int n = 0;
    for (std::size_t t = 0; t < subset.indices.size(); t += 3)
        n += subset.indices[t] >= firstArmVertex;
    return n;
}

// The true lowest z of every vertex over `samples` evenly spread times of the clip (GPU-style
// blend of the skinning matrices; the figure's weights are all 1).
std::vector<float> sampledLowest(const Mesh& mesh, std::span<const glm::u16vec4> joints,
                                 std::span<const glm::vec4> weights, const Skeleton& skeleton,
                                 const AnimationClip& clip, int samples) {
    std::vector<float> lowest(mesh.positions.size(), INFINITY);
    for (int s = 0; s <= samples; ++s) {
        const double t = clip.durationS * s / samples;
        const Mesh posed =
            skinMesh(mesh, joints, weights, skinningMatrices(skeleton, &clip, t, false));
        for (std::size_t v = 0; v < lowest.size(); ++v)
            lowest[v] = std::min(lowest[v], posed.positions[v].z);
    }
    return lowest;
}

TEST(CaptureSubset, StillMeshKeepsTheTrianglesThatReachTheBand) {
    // Two boxes one above the other: the band of 40 cm over the lower one's bottom keeps the
    // lower box (its top at 30 cm is within the band) and drops the upper one (60..100 cm).
    Mesh mesh = makeBox({10, 10, 15});
    for (glm::vec3& p : mesh.positions)
        p.z += 15.0f;
    const Mesh upper = makeBox({10, 10, 20});
    const auto base = std::uint32_t(mesh.positions.size());
    for (glm::vec3 p : upper.positions)
        mesh.positions.push_back(p + glm::vec3(0, 0, 80));
    for (std::uint32_t i : upper.indices)
        mesh.indices.push_back(base + i);
    mesh.normals.resize(mesh.positions.size(), glm::vec3(0, 0, 1));

    const VertexReach lowest = lowestVertexZ(mesh);
    const CaptureSubset subset = buildCaptureSubset(mesh.indices, lowest, 40.0);
    ASSERT_TRUE(subset.valid);
    EXPECT_EQ(subset.sourceTriangles, 24u);
    EXPECT_EQ(subset.triangles(), 12u);
    EXPECT_NEAR(subset.lowestCm, 0.0f, 0.02f);
    EXPECT_NEAR(subset.bandTopCm, 40.0f, 0.02f);
    for (std::uint32_t i : subset.indices)
        EXPECT_LT(i, base);
    // No band, no subset.
    EXPECT_FALSE(buildCaptureSubset(mesh.indices, lowest, 0.0).valid);
}

TEST(CaptureSubset, TheHandThatDipsBetweenSamplesIsKept) {
    const test::DippingArm figure;
    const AnimationClip* clips[] = {&figure.clip};
    const SkinnedMotion motion{figure.joints, figure.weights, &figure.skeleton, clips};
    // 7 uniform intervals and the keys: no sample falls at t = 0.5 s, when the hand is lowest.
    VertexReachOptions samplesOnly{7, false};
    const CaptureSubset blind = buildCaptureSubset(
        figure.mesh.indices, lowestVertexZ(figure.mesh, &motion, samplesOnly), 40.0);
    EXPECT_EQ(armTriangles(blind, figure), 0) << "the samples alone never see the hand low";

    VertexReachOptions bounded{7, true};
    const VertexReach reach = lowestVertexZ(figure.mesh, &motion, bounded);
    const std::vector<float>& lowest = reach.lowestZ;
    const CaptureSubset subset = buildCaptureSubset(figure.mesh.indices, reach, 40.0);
    // The band stands on the lowest point sampled (the feet), not on the hand's loose bound.
    EXPECT_FLOAT_EQ(subset.baseCm, 0.0f);
    const int armTotal = int(figure.mesh.indices.size() - figure.armFirstIndex) / 3;
    EXPECT_EQ(armTriangles(subset, figure), armTotal - 2) << "all but the shoulder's cap";
    // The legs block (12 triangles) and the hips' but their top (10) reach the band, the torso
    // and the chest do not.
    EXPECT_EQ(int(subset.triangles()) - armTriangles(subset, figure), 22);

    // A lower bound, everywhere: against 20,000 samples of the clip.
    const std::vector<float> truth = sampledLowest(figure.mesh, figure.joints, figure.weights,
                                                   figure.skeleton, figure.clip, 20000);
    float handTruth = INFINITY;
    for (std::size_t v = 0; v < truth.size(); ++v) {
        EXPECT_LE(lowest[v], truth[v] + 1e-3f) << "vertex " << v;
        handTruth = std::min(handTruth, truth[v]);
    }
    EXPECT_NEAR(handTruth, 0.0f, 0.05f); // the legs' bottom; the hand comes to 5 cm
    float handBound = INFINITY, handLowest = INFINITY;
    for (std::size_t v = figure.armFirstVertex; v < truth.size(); ++v) {
        handBound = std::min(handBound, lowest[v]);
        handLowest = std::min(handLowest, truth[v]);
    }
    // The arm's box (8 cm across) turning about the shoulder: its corner comes lowest.
    EXPECT_NEAR(handLowest, 140.0f - std::hypot(135.0f, 4.0f), 0.01f);
    std::printf("dipping hand: lowest %.2f cm, its bound %.2f cm\n", handLowest, handBound);
    EXPECT_FLOAT_EQ(subset.lowestCm, *std::min_element(lowest.begin(), lowest.end()) - 0.01f);
}

TEST(CaptureSubset, TheBipedsWalkIsBoundedBelowAndTightly) {
    DeformerSettings settings;
    settings.name = "walker";
    settings.mesh = "assets/meshes/biped.glb";
    settings.clip = "walk";
    auto made = loadDeformer(settings, test::sourceDir(), 0.0);
    ASSERT_TRUE(std::holds_alternative<Deformer>(made)) << std::get<std::string>(made);
    const Deformer walker = std::move(std::get<Deformer>(made));
    ASSERT_TRUE(walker.skin);
    const AnimationClip* clips[] = {&walker.skin->clip};
    const SkinnedMotion motion{walker.skin->joints, walker.skin->weights, &walker.skin->skeleton,
                               clips};
    const VertexReach reach = lowestVertexZ(walker.mesh, &motion);
    const std::vector<float>& lowest = reach.lowestZ;
    const std::vector<float> truth =
        sampledLowest(walker.mesh, walker.skin->joints, walker.skin->weights, walker.skin->skeleton,
                      walker.skin->clip, 20000);
    float loosest = 0.0f;
    for (std::size_t v = 0; v < truth.size(); ++v) {
        EXPECT_LE(lowest[v], truth[v] + 1e-3f) << "vertex " << v;
        loosest = std::max(loosest, truth[v] - lowest[v]);
    }
    // The bound's slack over one interval (speed x interval / 2): under 2 cm on this walk.
    EXPECT_LT(loosest, 2.0f);
    std::printf("biped walk: lower bound within %.3f cm of 20,000 samples\n", loosest);

    const CaptureSubset subset = buildCaptureSubset(walker.mesh.indices, reach, 40.0);
    ASSERT_TRUE(subset.valid);
    std::printf("biped walk: subset %zu of %zu triangles at a 40 cm band\n", subset.triangles(),
                subset.sourceTriangles);
    EXPECT_GT(subset.triangles(), 0u);
    EXPECT_LT(subset.triangles(), subset.sourceTriangles / 2);
}

TEST(CaptureSubset, SettingsGiveTheBandAndTheCeiling) {
    Settings settings;
    // Defaults: 30 cm of snow + 10 cm margin; the mask responds up to camera (-100) + distance
    // (250) - offset (150) = the snow top, plus the slack.
    EXPECT_DOUBLE_EQ(captureSubsetBandCm(settings), 40.0);
    EXPECT_NEAR(captureSubsetCeilingCm(settings), 1.0 + 2.0 * 2000.0 / 65535.0, 1e-9);
    settings.capture.offsetCm = 100.0;
    EXPECT_NEAR(captureSubsetCeilingCm(settings), 50.0 + 1.0 + 2.0 * 2000.0 / 65535.0, 1e-9);
    settings.capture.subset = CaptureSubsetMode::Off;
    EXPECT_EQ(captureSubsetBandCm(settings), 0.0);
    EXPECT_TRUE(std::isinf(captureSubsetCeilingCm(settings)));
}

} // namespace
} // namespace snowcap
