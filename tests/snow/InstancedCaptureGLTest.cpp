// Instanced deformers in the capture (snow/deformer_batch.hpp): deformers sharing a mesh are
// one draw, and the capture they leave is texel for texel the capture of the same deformers
// drawn one at a time (each alone in a capture of its own, the lowest surface kept), for rigid
// and skinned meshes with each instance in a pose of its own; culling drops the instances
// outside the capture's box and changes no texel.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "gpu/gpu_mesh.hpp"
#include "scene/deformer.hpp"
#include "snow/contact_capture.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr double kFarCm = 2000.0;

struct Captured {
    std::vector<float> depth, contact;
};

struct InstancedCapture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    const gpu::ShaderProgram* program = nullptr;
    // 2 cm texels over 256 cm: big enough for six bipeds, small enough for llvmpipe.
    const CaptureKey key{{{0.0, 0.0}, 256.0, 128}, -100.0, kFarCm};

    void SetUp() override {
        auto loaded = shaders.load(contactCaptureProgram());
        ASSERT_TRUE(std::holds_alternative<gpu::ShaderProgram*>(loaded))
            << std::get<std::string>(loaded);
        program = std::get<gpu::ShaderProgram*>(loaded);
    }

    Captured capture(std::span<const DeformerInstance> instances, ContactCapture& target) {
        target.capture(instances, *program);
        return {target.depth().readFloats(), target.contact().readFloats()};
    }

    // The reference: each instance alone in a capture, then per texel the lowest surface and
    // its contact code (what the depth test keeps when they are drawn together).
    Captured oneByOne(std::span<const DeformerInstance> instances) {
        const std::size_t texels = std::size_t(key.region.resolution) * key.region.resolution;
        Captured combined{std::vector<float>(texels, 1.0f), std::vector<float>(texels, 0.0f)};
        for (const DeformerInstance& instance : instances) {
            ContactCapture alone(key);
            const Captured one = capture({&instance, 1}, alone);
            EXPECT_LE(alone.lastDraw().draws, 1);
            for (std::size_t t = 0; t < texels; ++t)
                if (one.depth[t] < combined.depth[t]) {
                    combined.depth[t] = one.depth[t];
                    combined.contact[t] = one.contact[t];
                }
        }
        return combined;
    }

    static int touched(const Captured& c) {
        int n = 0;
        for (float d : c.depth)
            n += d < 1.0f;
        return n;
    }
};

glm::mat4 placed(glm::vec3 at, float yawDeg, float tiltDeg = 0.0f) {
    glm::mat4 model = glm::translate(glm::mat4(1.0f), at);
    model = glm::rotate(model, glm::radians(yawDeg), glm::vec3(0, 0, 1));
    return glm::rotate(model, glm::radians(tiltDeg), glm::vec3(1, 0, 0));
}

TEST_F(InstancedCapture, RigidInstancesAreOneDrawAndMatchTheDeformersDrawnOneByOne) {
    const Mesh box = makeBox({14.0f, 9.0f, 20.0f});
    const gpu::GpuMesh shared(box, "shared_box");
    // Turned, tilted and at different depths; some overlap, so the lowest surface must win.
    std::vector<DeformerInstance> instances;
    const ContactType contacts[] = {ContactType::Foot, ContactType::Vehicle, ContactType::Animal,
                                    ContactType::Other};
    for (int i = 0; i < 12; ++i) {
        const glm::vec3 at(-100.0f + 18.0f * i, 30.0f * std::sin(0.9f * i), -4.0f - 1.7f * i);
        const glm::mat4 model = placed(at, 23.0f * i, 9.0f * (i % 3));
        instances.push_back({&shared, model, box.bounds().transformed(model), {}, contacts[i % 4]});
    }
    ContactCapture together(key);
    const Captured instanced = capture(instances, together);
    EXPECT_EQ(together.lastDraw().draws, 1);
    EXPECT_EQ(together.lastDraw().instances, 12);
    EXPECT_GT(touched(instanced), 1000);

    const Captured reference = oneByOne(instances);
    EXPECT_EQ(instanced.depth, reference.depth);
    EXPECT_EQ(instanced.contact, reference.contact);
}

TEST_F(InstancedCapture, SkinnedInstancesInPosesOfTheirOwnMatchTheBipedsDrawnOneByOne) {
    DeformerSettings settings;
    settings.name = "walker";
    settings.mesh = "assets/meshes/biped.glb";
    settings.clip = "walk";
    settings.path = {{0.0, glm::vec3(0.0f)}};
    auto made = loadDeformer(settings, test::sourceDir(), 0.0);
    ASSERT_TRUE(std::holds_alternative<Deformer>(made)) << std::get<std::string>(made);
    const Deformer walker = std::move(std::get<Deformer>(made));
    ASSERT_TRUE(walker.skin);
    const gpu::GpuMesh biped(walker.mesh, walker.skin->joints, walker.skin->weights, "biped");
    const Mesh box = makeBox({10.0f, 10.0f, 10.0f});
    const gpu::GpuMesh crate(box, "crate");

    // Six bipeds, each at its own phase of the walk (a different pose per instance, so each
    // must read its own part of the palette), and a rigid mesh drawn between them.
    std::vector<std::vector<glm::mat4>> poses;
    for (int i = 0; i < 6; ++i)
        poses.push_back(walker.skinningAt(0.13 + 0.17 * i));
    std::vector<DeformerInstance> instances;
    const Aabb everywhere{glm::vec3(-1e4f), glm::vec3(1e4f)};
    for (int i = 0; i < 6; ++i) {
        const glm::vec3 at(-90.0f + 36.0f * i, i % 2 ? 40.0f : -40.0f, -8.0f);
        instances.push_back(
            {&biped, placed(at, 15.0f * i), everywhere, poses[std::size_t(i)], ContactType::Foot});
        if (i == 2)
            instances.push_back(
                {&crate, placed({0.0f, 0.0f, -5.0f}, 30.0f), everywhere, {}, ContactType::Vehicle});
    }
    ContactCapture together(key);
    const Captured instanced = capture(instances, together);
    EXPECT_EQ(together.lastDraw().draws, 2); // one per mesh
    EXPECT_EQ(together.lastDraw().instances, 7);

    const Captured reference = oneByOne(instances);
    EXPECT_GT(touched(reference), 300);
    EXPECT_EQ(instanced.depth, reference.depth);
    EXPECT_EQ(instanced.contact, reference.contact);

    // The poses differ where it shows: drawing every biped in the first one's pose changes
    // the capture (a shader reading one pose for all could not pass the comparison above).
    std::vector<DeformerInstance> samePose = instances;
    for (DeformerInstance& d : samePose)
        if (d.mesh == &biped)
            d.skinning = poses[0];
    ContactCapture unison(key);
    EXPECT_NE(capture(samePose, unison).depth, reference.depth);
}

TEST_F(InstancedCapture, CullingDropsTheInstancesOutsideTheBoxAndChangesNoTexel) {
    const Mesh sphere = makeSphere(20.0f);
    const gpu::GpuMesh mesh(sphere, "sphere");
    const auto at = [&](glm::vec3 p) {
        const glm::mat4 model = glm::translate(glm::mat4(1.0f), p);
        return DeformerInstance{&mesh, model, sphere.bounds().transformed(model)};
    };
    const std::vector<DeformerInstance> inside = {
        at({-60.0f, 10.0f, -5.0f}), at({40.0f, -50.0f, -12.0f}),
        at({140.0f, 0.0f, 0.0f}), // its bounds reach over the box's edge: kept
    };
    std::vector<DeformerInstance> all;
    for (int i = 0; i < 40; ++i) {
        // Beside the region, below the camera and beyond the far plane, between the kept ones.
        all.push_back(at({600.0f + 50.0f * i, 0.0f, 0.0f}));
        all.push_back(at({0.0f, 0.0f, -300.0f - i}));
        all.push_back(at({0.0f, 0.0f, 5000.0f + i}));
        if (i % 13 == 0 && i / 13 < 3) // at 0, 13 and 26
            all.push_back(inside[std::size_t(i / 13)]);
    }
    ContactCapture culled(key);
    const Captured withOutsiders = capture(all, culled);
    EXPECT_EQ(culled.lastDraw().instances, 3);
    EXPECT_EQ(culled.lastDraw().draws, 1);

    ContactCapture plain(key);
    const Captured insideOnly = capture(inside, plain);
    EXPECT_GT(touched(insideOnly), 200);
    EXPECT_EQ(withOutsiders.depth, insideOnly.depth);
    EXPECT_EQ(withOutsiders.contact, insideOnly.contact);

    // Nothing inside: no draw at all.
    const std::vector<DeformerInstance> outside(all.begin(), all.begin() + 3);
    ContactCapture empty(key);
    EXPECT_EQ(empty.capture(outside, *program), 0);
    EXPECT_EQ(empty.lastDraw().draws, 0);
}

} // namespace
} // namespace snowcap
