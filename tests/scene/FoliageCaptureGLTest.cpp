// Foliage in the capture: a swaying grass tuft drawn as an instance with sway (the wind bent in
// the one deformer vertex function) leaves the same depth as the tuft bent on the CPU
// (scene/foliage_wind.cpp) and drawn as a rigid mesh; and the deformers of a frame become the
// wind's pushers.
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "render/foliage_set.hpp"
#include "snow/contact_capture.hpp"

#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr float kFarCm = 2000.0f;

struct FoliageCapture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    const gpu::ShaderProgram* program = nullptr;
    Foliage tuft;

    void SetUp() override {
        auto loaded = shaders.load(contactCaptureProgram());
        ASSERT_TRUE(std::holds_alternative<gpu::ShaderProgram*>(loaded))
            << std::get<std::string>(loaded);
        program = std::get<gpu::ShaderProgram*>(loaded);
        FoliageSettings settings;
        settings.name = "tuft";
        settings.count = 1;
        settings.centreCm = {5.0, -3.0};
        settings.sizeCm = {10.0, 10.0};
        settings.scaleRange = {1.2, 1.2};
        auto made = loadFoliage(settings, "foliage[0]", test::sourceDir(), -30.0);
        ASSERT_TRUE(std::holds_alternative<Foliage>(made)) << std::get<FoliageError>(made).line();
        tuft = std::move(std::get<Foliage>(made));
    }

    // Depth (cm above the camera) under the plant, 1 cm a texel over 128 x 128 cm.
    static std::vector<float> captureOf(std::span<const DeformerInstance> instances,
                                        const gpu::ShaderProgram& program) {
        ContactCapture capture({{{0.0, 0.0}, 128.0, 128}, -100.0, kFarCm});
        capture.capture(instances, program);
        std::vector<float> depth = capture.depth().readFloats();
        for (float& d : depth)
            d *= kFarCm;
        return depth;
    }

    // The tuft bent by `wind` on the CPU, in world cm (drawn with an identity model).
    Mesh bentOnCpu(const WindState& wind) const {
        Mesh bent = tuft.mesh;
        const FoliagePlant& plant = tuft.plants[0];
        const glm::mat4 model = tuft.modelOf(plant);
        for (glm::vec3& p : bent.positions)
            p = glm::vec3(model * glm::vec4(p, 1.0f)) +
                windOffset(wind, p, tuft.swayOf(plant), model);
        return bent;
    }
};

TEST_F(FoliageCapture, SwayingInstanceMatchesTheCpuBentMesh) {
    WindSettings weather;
    weather.directionDeg = 20.0;
    weather.strength = 0.5;
    FoliageSet set({tuft}, weather);
    int differentFromStill = 0;
    const gpu::GpuMesh still(tuft.mesh, "still");
    for (double t : {0.3, 1.1, 2.6}) {
        std::vector<DeformerInstance> instances;
        set.appendInstances(t, {}, instances);
        ASSERT_EQ(instances.size(), 1u);
        EXPECT_NE(instances[0].sway, glm::vec4(0.0f));
        const std::vector<float> gpu = captureOf(instances, *program);

        const gpu::GpuMesh cpuMesh(bentOnCpu(windAt(weather, t, {})), "cpu_bent");
        const DeformerInstance rigid{
            &cpuMesh, glm::mat4(1.0f), {glm::vec3(-1e4f), glm::vec3(1e4f)}};
        const std::vector<float> cpu = captureOf({&rigid, 1}, *program);
        DeformerInstance unbent = instances[0];
        unbent.mesh = &still;
        unbent.sway = glm::vec4(0.0f);
        const std::vector<float> calm = captureOf({&unbent, 1}, *program);

        int touched = 0, differing = 0;
        for (std::size_t i = 0; i < gpu.size(); ++i) {
            const bool here = gpu[i] < kFarCm - 1.0f, there = cpu[i] < kFarCm - 1.0f;
            touched += here;
            // Float order differs (sin and sqrt of a driver and of libm): a millimetre, and a
            // few texels on the thin blades' edges that flip coverage.
            differing += here != there || (here && std::abs(gpu[i] - cpu[i]) > 0.1f);
            differentFromStill += here != (calm[i] < kFarCm - 1.0f);
        }
        EXPECT_GT(touched, 150) << "t = " << t;
        EXPECT_LE(differing, touched / 50 + 4) << "t = " << t;
    }
    EXPECT_GT(differentFromStill, 100) << "the wind must move the tuft for the test to hold";
}

TEST_F(FoliageCapture, TheFramesDeformersAreThePushers) {
    const gpu::GpuMesh box(makeBox(glm::vec3(10.0f, 20.0f, 50.0f)), "box");
    const DeformerInstance walker{
        &box, glm::mat4(1.0f), {glm::vec3(30.0f, -20.0f, -30.0f), glm::vec3(50.0f, 20.0f, 70.0f)}};
    DeformerInstance hidden = walker;
    hidden.mesh = nullptr;
    DeformerInstance plant = walker;
    plant.sway = glm::vec4(1.0f);
    const DeformerInstance frame[] = {walker, hidden, plant};
    const std::vector<WindPusher> pushers = FoliageSet::pushersOf(frame);
    ASSERT_EQ(pushers.size(), 1u); // not the hidden one, not a plant
    EXPECT_EQ(pushers[0].centreCm, glm::vec2(40.0f, 0.0f));
    EXPECT_EQ(pushers[0].lowestZCm, -30.0f);
    EXPECT_EQ(pushers[0].radiusCm, 15.0f); // the mean of its half extents, 10 and 20
}

} // namespace
} // namespace snowcap
