// Capture subsets in the capture (scene/capture_subset.hpp, ContactCapture::detailFor): with
// capture.subset = "auto" the capture draws, for each upright instance standing low enough,
// only its mesh's triangles that can come down to the snow, and skips those that cannot reach
// the mask; the prints are texel for texel those of "off", for every bundled mesh over a whole
// walk cycle. The hand that dips to the snow at one instant is in the capture at that instant.
// A subset is built once per mesh key.
#include "../scene/DippingArm.hpp"
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "lab/session.hpp"
#include "scene/capture_proxy.hpp"
#include "scene/capture_subset.hpp"

#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr double kDt = 1.0 / 60.0;

DeformerSettings meshDeformer(const std::string& name, const std::string& file, glm::vec3 from,
                              glm::vec3 to, ContactType contact) {
    DeformerSettings d;
    d.name = name;
    d.mesh = "assets/meshes/" + file;
    d.contact = contact;
    d.path = {{0.0, from}, {1.5, to}};
    return d;
}

// Every bundled mesh (the plants too) pressing into the snow, moving, beside a crowd of walking
// bipeds; one biped sunk below the ground (its band does not reach the snow top: drawn whole)
// and one walking above the snow (culled), all in a 384 cm field at 3 cm a texel.
Settings scene(CaptureSubsetMode mode) {
    Settings settings;
    settings.snow.resolution = 128;
    settings.snow.orthoWidthCm = 384.0;
    settings.capture.subset = mode;
    settings.sims[1].format = BufferFormat::RGBA16F; // the contact codes count too
    settings.deformers = {
        meshDeformer("boot", "boot.glb", {-150, -150, 5}, {-110, -150, 5}, ContactType::Foot),
        meshDeformer("paw", "paw.glb", {-60, -150, 8}, {-20, -140, 8}, ContactType::Animal),
        meshDeformer("sled", "sled.glb", {60, -140, 10}, {110, -140, 10}, ContactType::Vehicle),
        meshDeformer("sphere", "sphere.glb", {-150, -40, 10}, {-110, -30, 10}, ContactType::Other),
        meshDeformer("wheels", "wheels.glb", {-150, 80, 12}, {-100, 80, 12}, ContactType::Vehicle),
        meshDeformer("grass", "grass_tuft.glb", {-40, 150, 5}, {0, 150, 5}, ContactType::Other),
        meshDeformer("bush", "bush.glb", {60, 150, 15}, {100, 140, 15}, ContactType::Other),
    };
    DeformerSettings biped;
    biped.mesh = "assets/meshes/biped.glb";
    biped.clip = "walk";
    biped.contact = ContactType::Foot;
    DeformerSettings sunk = biped;
    sunk.name = "sunk";
    sunk.path = {{0.0, glm::vec3(140.0f, 140.0f, -25.0f)}};
    DeformerSettings high = biped;
    high.name = "high";
    high.path = {{0.0, glm::vec3(140.0f, 40.0f, 45.0f)}};
    settings.deformers.push_back(sunk);
    settings.deformers.push_back(high);
    CrowdSettings crowd;
    crowd.member = biped;
    crowd.member.name = "walkers";
    crowd.member.path = {{0.0, glm::vec3(20.0f, 20.0f, 20.0f)}};
    crowd.count = 9;
    crowd.formation = CrowdSettings::Formation::Grid;
    crowd.spacingCm = 60.0;
    settings.crowds.push_back(crowd);
    return settings;
}

std::vector<Deformer> loaded(const Settings& settings) {
    auto made = loadScenarioDeformers(settings);
    if (auto* error = std::get_if<std::string>(&made)) {
        ADD_FAILURE() << *error;
        return {};
    }
    return std::move(std::get<std::vector<Deformer>>(made));
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(CaptureSubsetGL, PrintsEqualTheFullCaptureForEveryBundledMeshOverAWalkCycle) {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    const Settings autoSettings = scene(CaptureSubsetMode::Auto);
    const Settings offSettings = scene(CaptureSubsetMode::Off);
    std::vector<Deformer> deformers = loaded(autoSettings);
    ASSERT_EQ(deformers.size(), 18u);
    double cycleS = 0.0;
    for (const Deformer& d : deformers)
        if (d.skin)
            cycleS = std::max(cycleS, d.skin->clip.durationS / d.skin->speed);
    ASSERT_GT(cycleS, 0.0);
    DeformerSet withSubsets(deformers, captureProxyErrorCm(autoSettings),
                            captureSubsetBandCm(autoSettings));
    DeformerSet without(loaded(offSettings), captureProxyErrorCm(offSettings),
                        captureSubsetBandCm(offSettings));
    EXPECT_EQ(without.captureSubsetsBuilt(), 0);
    EXPECT_EQ(withSubsets.captureSubsetsBuilt(), withSubsets.meshCount());
    auto fieldAuto = test::makeField(autoSettings, shaders);
    auto fieldOff = test::makeField(offSettings, shaders);
    ASSERT_TRUE(fieldAuto && fieldOff);

    const int steps = int(std::ceil(cycleS / kDt)) + 1;
    long long trianglesAuto = 0, trianglesOff = 0;
    int instancesAuto = 0, instancesOff = 0, differing = 0;
    float deepest = 0.0f;
    for (int step = 0; step < steps; ++step) {
        const double t = step * kDt;
        fieldAuto->step(withSubsets.instancesAt(t), kDt);
        fieldOff->step(without.instancesAt(t), kDt);
        trianglesAuto += fieldAuto->capture(0).lastDraw().triangles;
        trianglesOff += fieldOff->capture(0).lastDraw().triangles;
        instancesAuto += fieldAuto->capture(0).lastDraw().instances;
        instancesOff += fieldOff->capture(0).lastDraw().instances;
        for (int s = 0; s < 2; ++s) {
            const std::vector<float> a = fieldAuto->sim(s).persistent().readFloats();
            const std::vector<float> b = fieldOff->sim(s).persistent().readFloats();
            differing += !sameBits(a, b);
            deepest = std::max(deepest, test::maxOf(test::redOf(fieldOff->sim(s).persistent())));
        }
    }
    EXPECT_EQ(differing, 0) << "steps x sims whose buffers differ, of " << 2 * steps;
    EXPECT_GT(deepest, 0.1f) << "they pressed";
    // And the subsets did the work: fewer triangles; the high biped was never drawn.
    EXPECT_EQ(instancesOff, 18 * steps);
    EXPECT_EQ(instancesAuto, 17 * steps);
    EXPECT_LT(trianglesAuto, trianglesOff * 6 / 10);
    std::printf("triangles captured over %d steps: %lld with subsets, %lld without\n", steps,
                trianglesAuto, trianglesOff);
}

struct DippingHand : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    const gpu::ShaderProgram* program = nullptr;
    test::DippingArm figure;
    const Settings settings; // surface 0, camera -100, ceiling just above the snow top

    void SetUp() override {
        auto loaded = shaders.load(contactCaptureProgram());
        ASSERT_TRUE(std::holds_alternative<gpu::ShaderProgram*>(loaded));
        program = std::get<gpu::ShaderProgram*>(loaded);
    }

    gpu::GpuMesh upload(bool boundMotion, CaptureSubset& subset) const {
        const AnimationClip* clips[] = {&figure.clip};
        const SkinnedMotion motion{figure.joints, figure.weights, &figure.skeleton, clips};
        subset = buildCaptureSubset(figure.mesh.indices,
                                    lowestVertexZ(figure.mesh, &motion, {7, boundMotion}), 40.0);
        return gpu::GpuMesh(figure.mesh, figure.joints, figure.weights, "dipping", {},
                            {subset.indices, subset.lowestCm, subset.bandTopCm});
    }

    // Depth in cm above the camera, 2 cm a texel over 256 cm, the figure at t with its feet
    // 10 cm into the snow.
    std::vector<float> depthAt(const gpu::GpuMesh& mesh, double t, double ceilingCm) {
        CaptureKey key{{{0.0, 0.0}, 256.0, 128}, -100.0, 2000.0};
        key.subsetCeilingCm = ceilingCm;
        ContactCapture capture(key);
        const std::vector<glm::mat4> pose =
            skinningMatrices(figure.skeleton, &figure.clip, t, true);
        const glm::mat4 model = glm::translate(glm::mat4(1.0f), {0.0f, 0.0f, -10.0f});
        const DeformerInstance instance{&mesh, model, {glm::vec3(-1e4f), glm::vec3(1e4f)}, pose};
        capture.capture({&instance, 1}, *program);
        EXPECT_EQ(capture.lastDraw().instances, 1);
        std::vector<float> depth = capture.depth().readFloats();
        for (float& d : depth)
            d *= 2000.0f;
        return depth;
    }
};

int belowSnowTop(const std::vector<float>& depth) {
    int n = 0;
    for (float d : depth)
        n += d < 100.0f;
    return n;
}

TEST_F(DippingHand, TheHandThatDipsAtOneInstantIsCaptured) {
    CaptureSubset bounded, blind;
    const gpu::GpuMesh withBound = upload(true, bounded);
    const gpu::GpuMesh samplesOnly = upload(false, blind);
    ASSERT_TRUE(withBound.hasCaptureSubset() && samplesOnly.hasCaptureSubset());
    EXPECT_GT(bounded.triangles(), blind.triangles());
    const double ceiling = captureSubsetCeilingCm(settings);
    for (double t : {0.3, 0.5, 0.505}) {
        const std::vector<float> full =
            depthAt(withBound, t, std::numeric_limits<double>::infinity());
        const std::vector<float> subset = depthAt(withBound, t, ceiling);
        const std::vector<float> missed = depthAt(samplesOnly, t, ceiling);
        // Where the full capture is below the ceiling (all the mask reads), the subset's is the
        // same float; elsewhere it is at least as high (what it left out was higher).
        int compared = 0, differing = 0;
        for (std::size_t i = 0; i < full.size(); ++i) {
            if (full[i] <= ceiling + 100.0) {
                ++compared;
                differing += full[i] != subset[i];
            } else {
                EXPECT_GT(subset[i], ceiling + 100.0);
            }
        }
        EXPECT_EQ(differing, 0) << "t " << t;
        // The feet (20 x 30 cm: 150 texels) always; at the dip the hand too, which the
        // subset built from the samples alone leaves out.
        const int touched = belowSnowTop(full);
        EXPECT_GT(touched, 140);
        if (t == 0.3) {
            EXPECT_EQ(belowSnowTop(missed), touched);
        } else {
            EXPECT_GT(touched, belowSnowTop(missed) + 4) << "t " << t << ": the hand";
        }
        std::printf(
            "t %.2f: %d texels below the snow top, %d with the samples-only subset (%d compared)\n",
            t, touched, belowSnowTop(missed), compared);
    }
}

TEST_F(DippingHand, OnlyUprightInstancesLowEnoughTakeTheSubset) {
    CaptureSubset subset;
    const gpu::GpuMesh mesh = upload(true, subset);
    CaptureKey key{{{0.0, 0.0}, 256.0, 128}, -100.0, 2000.0};
    key.subsetCeilingCm = captureSubsetCeilingCm(settings);
    const auto instanceAt = [&](glm::mat4 model, glm::vec4 sway = glm::vec4(0.0f)) {
        DeformerInstance d{&mesh, model, {glm::vec3(-1e4f), glm::vec3(1e4f)}, {}};
        d.sway = sway;
        return d;
    };
    const auto at = [](float x, float z, float yawDeg = 0.0f) {
        return glm::rotate(glm::translate(glm::mat4(1.0f), {x, 0.0f, z}), glm::radians(yawDeg),
                           glm::vec3(0, 0, 1));
    };
    using Detail = gpu::GpuMesh::Detail;
    // Feet 10 cm in, turned: the subset (its band reaches 30 cm above the snow top).
    EXPECT_EQ(ContactCapture::detailFor(key, instanceAt(at(0, -10, 37))), Detail::CaptureSubset);
    // Sunk 35 cm below the ground... its band ends below the snow top: the whole list.
    EXPECT_EQ(ContactCapture::detailFor(key, instanceAt(at(0, -65))), Detail::Capture);
    // Tilted (a body falling over), or swaying: the whole list.
    const glm::mat4 tilted = glm::rotate(at(0, -10), glm::radians(5.0f), glm::vec3(1, 0, 0));
    EXPECT_EQ(ContactCapture::detailFor(key, instanceAt(tilted)), Detail::Capture);
    EXPECT_EQ(ContactCapture::detailFor(key, instanceAt(at(0, -10), glm::vec4(1.0f))),
              Detail::Capture);
    // Its lowest point (the hand's bound: the swing is fast, so the bound is loose) above the
    // mask's reach: not drawn; a centimetre lower: drawn.
    const float clear = float(key.subsetCeilingCm) - subset.lowestCm;
    EXPECT_LT(subset.lowestCm, 0.0f);
    EXPECT_FALSE(ContactCapture::canReachMask(key, instanceAt(at(0, clear + 1.0f))));
    EXPECT_TRUE(ContactCapture::canReachMask(key, instanceAt(at(0, clear - 1.0f))));
    EXPECT_TRUE(ContactCapture::canReachMask(key, instanceAt(tilted * at(0, 50))));
    // With capture.subset = "off" (no ceiling) everything is drawn whole.
    key.subsetCeilingCm = std::numeric_limits<double>::infinity();
    EXPECT_EQ(ContactCapture::detailFor(key, instanceAt(at(0, -10))), Detail::Capture);
    EXPECT_TRUE(ContactCapture::canReachMask(key, instanceAt(at(0, 500))));
}

// A biped turned to every heading over its walk cycle (decay_compare's walker faces its circle):
// wherever the full capture list leaves a depth the mask reads, the subset leaves the same
// float, unless that depth lies below the lowest point any vertex can reach. Such a depth is
// no surface of the mesh (every point of a triangle is at least as high as its lowest vertex):
// it is a fragment of an edge-on triangle (a leg's or the torso's side, seen from below) whose
// depth the rasteriser extrapolated past the triangle's edge and clamped at the camera. The
// subset does not draw those high triangles, so its capture lacks the spurious contact; any
// other difference would be a dropped triangle that reaches the snow, and fails.
TEST_F(DippingHand, TurnedWalkerDiffersFromTheFullListOnlyWhereTheFullListLeavesNoSurface) {
    Settings walkerSettings;
    DeformerSettings biped;
    biped.name = "walker";
    biped.mesh = "assets/meshes/biped.glb";
    biped.clip = "walk";
    biped.contact = ContactType::Foot;
    walkerSettings.deformers = {biped};
    DeformerSet set(loaded(walkerSettings), captureProxyErrorCm(walkerSettings),
                    captureSubsetBandCm(walkerSettings));
    ASSERT_EQ(set.captureSubsetsBuilt(), 1);
    const Deformer& walker = set.deformers().front();
    ASSERT_TRUE(walker.skin);
    const double cycleS = walker.skin->clip.durationS / walker.skin->speed;

    // 2 cm a texel, as decay_compare; the feet 10 cm into the snow.
    CaptureKey subsetKey{{{0.0, 0.0}, 256.0, 128}, -100.0, 2000.0};
    subsetKey.subsetCeilingCm = captureSubsetCeilingCm(walkerSettings);
    CaptureKey fullKey = subsetKey;
    fullKey.subsetCeilingCm = std::numeric_limits<double>::infinity();
    ContactCapture withSubset(subsetKey), whole(fullKey);
    const float sinkCm = -10.0f;
    const double maskReachCm = subsetKey.subsetCeilingCm - subsetKey.cameraZCm;
    int compared = 0, spurious = 0, differing = 0, samples = 0;
    for (int i = 0; i < 48; ++i) {
        const double t = cycleS * i / 48.0;
        DeformerInstance instance = set.instancesAt(t).front();
        // Nothing of the mesh can be nearer the camera than this (cm above it).
        const float lowestReachable =
            sinkCm + instance.mesh->captureLowestCm() - float(subsetKey.cameraZCm);
        for (int yaw = 0; yaw < 360; yaw += 15, ++samples) {
            instance.model =
                glm::rotate(glm::translate(glm::mat4(1.0f), {0.0f, 0.0f, sinkCm}),
                            glm::radians(float(yaw) + 0.37f * float(i)), glm::vec3(0, 0, 1));
            instance.worldBounds = {glm::vec3(-1e4f), glm::vec3(1e4f)};
            ASSERT_EQ(ContactCapture::detailFor(subsetKey, instance),
                      gpu::GpuMesh::Detail::CaptureSubset);
            withSubset.capture({&instance, 1}, *program);
            whole.capture({&instance, 1}, *program);
            const std::vector<float> a = withSubset.depth().readFloats();
            const std::vector<float> b = whole.depth().readFloats();
            for (std::size_t k = 0; k < b.size(); ++k) {
                const float full = b[k] * 2000.0f, subset = a[k] * 2000.0f;
                if (full > maskReachCm)
                    continue; // the mask reads 0 here either way
                ++compared;
                if (full == subset)
                    continue;
                if (full < lowestReachable - 0.5f)
                    ++spurious;
                else
                    ++differing;
            }
        }
    }
    EXPECT_EQ(differing, 0) << "texels a reachable surface left and the subset did not, of "
                            << compared;
    EXPECT_GT(compared, samples * 100) << "the feet were in the snow";
    std::printf("%d poses: %d texels compared, %d where only the full list left a fragment below "
                "anything the mesh can reach\n",
                samples, compared, spurious);
}

TEST(CaptureSubsetGL, ASubsetIsMadeOncePerMeshKeyHoweverManyMembers) {
    Settings settings = scene(CaptureSubsetMode::Auto);
    settings.crowds[0].count = 120;
    DeformerSet set(loaded(settings), captureProxyErrorCm(settings), captureSubsetBandCm(settings));
    EXPECT_EQ(set.deformers().size(), 9u + 120u);
    EXPECT_EQ(set.meshCount(), 8); // seven meshes and the biped
    EXPECT_EQ(set.captureSubsetsBuilt(), 8);
    const std::vector<DeformerInstance>& instances = set.instancesAt(0.2);
    const gpu::GpuMesh* biped = instances.back().mesh;
    ASSERT_TRUE(biped->hasCaptureSubset());
    EXPECT_LT(biped->subsetTriangleCount(), biped->captureTriangleCount() / 2);
}

} // namespace
} // namespace snowcap
