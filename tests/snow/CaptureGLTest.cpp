// ContactCapture on the driver: where a stamp lands, what depth it records, what it skips.
#include "GLTestSupport.hpp"
#include "gpu/gpu_mesh.hpp"
#include "snow/contact_capture.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

struct CaptureFixture : ::testing::Test {
    gpu::ShaderLibrary shaders{gpu::defaultShaderRoot()};
    const gpu::ShaderProgram* program = nullptr;

    void SetUp() override {
        auto loaded = shaders.load(contactCaptureProgram());
        ASSERT_TRUE(std::holds_alternative<gpu::ShaderProgram*>(loaded))
            << std::get<std::string>(loaded);
        program = std::get<gpu::ShaderProgram*>(loaded);
    }

    static DeformerInstance instance(const gpu::GpuMesh& mesh, const Mesh& cpuMesh,
                                     glm::vec3 position) {
        const glm::mat4 model = glm::translate(glm::mat4(1.0f), position);
        return {&mesh, model, cpuMesh.bounds().transformed(model)};
    }

    // Texels that saw something (depth below far).
    static std::vector<glm::ivec2> touchedTexels(const ContactCapture& capture) {
        const std::vector<float> depth = capture.depth().readFloats();
        const int n = capture.key().region.resolution;
        std::vector<glm::ivec2> texels;
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x)
                if (depth[y * n + x] < 1.0f)
                    texels.push_back({x, y});
        return texels;
    }
};

TEST_F(CaptureFixture, StampLandsOnTheExpectedTexelWithoutMirrorOrHalfTexelShift) {
    struct Case {
        glm::dvec2 centre;
        double width;
        glm::ivec2 texel;
    };
    const Case cases[] = {
        {{0.0, 0.0}, 256.0, {0, 0}},         {{0.0, 0.0}, 256.0, {63, 0}},
        {{0.0, 0.0}, 256.0, {5, 58}},        {{137.5, -42.0}, 1000.0, {40, 9}},
        {{-1000.0, 500.0}, 640.0, {31, 32}}, {{-1000.0, 500.0}, 640.0, {63, 63}},
    };
    for (const Case& c : cases) {
        const Region region{c.centre, c.width, 64};
        ContactCapture capture({region, -100.0, 2000.0});
        // A box a third of a texel wide, centred on the texel centre: only that texel's
        // sample point is covered.
        const float half = static_cast<float>(region.texelCm() / 3.0);
        const Mesh box = makeBox({half, half, 20.0f});
        const gpu::GpuMesh mesh(box, "stamp");
        const glm::dvec2 at = texelCentreToWorld(c.texel, region);
        const DeformerInstance stamp = instance(mesh, box, glm::vec3(at.x, at.y, -10.0f));
        EXPECT_EQ(capture.capture({&stamp, 1}, *program), 1);
        const auto touched = touchedTexels(capture);
        ASSERT_EQ(touched.size(), 1u) << "centre " << c.centre.x << "," << c.centre.y;
        EXPECT_EQ(touched[0], c.texel)
            << "centre " << c.centre.x << "," << c.centre.y << " width " << c.width;
    }
}

TEST_F(CaptureFixture, DepthIsLinearCentimetresAboveTheCamera) {
    const Region region{{0.0, 0.0}, 256.0, 64};
    const double far = 2000.0;
    ContactCapture capture({region, -100.0, far});
    // A box whose bottom is 50 cm below the snow top (z = -50): SceneDepth = 50 cm.
    const Mesh box = makeBox({40.0f, 40.0f, 10.0f});
    const gpu::GpuMesh mesh(box, "box");
    const DeformerInstance deformer = instance(mesh, box, {0.0f, 0.0f, -40.0f});
    capture.capture({&deformer, 1}, *program);
    const std::vector<float> depth = capture.depth().readFloats();
    const float centre = depth[32 * 64 + 32] * static_cast<float>(far);
    EXPECT_NEAR(centre, 50.0f, 1e-3f);
    EXPECT_EQ(depth[0], 1.0f); // nothing at the corner: far
}

TEST_F(CaptureFixture, TheLowestSurfaceWins) {
    const Region region{{0.0, 0.0}, 256.0, 64};
    ContactCapture capture({region, -100.0, 2000.0});
    const Mesh box = makeBox({40.0f, 40.0f, 10.0f});
    const gpu::GpuMesh mesh(box, "box");
    const DeformerInstance boxes[] = {instance(mesh, box, {0.0f, 0.0f, 0.0f}),
                                      instance(mesh, box, {0.0f, 0.0f, -30.0f})};
    capture.capture(boxes, *program);
    EXPECT_NEAR(capture.depth().readFloats()[32 * 64 + 32] * 2000.0f, 60.0f, 1e-3f);
}

TEST_F(CaptureFixture, OpenMeshFacingUpStillCountsFromBelow) {
    // A single upward-facing quad: seen from below it is a back face, and must still count.
    Mesh quad;
    quad.positions = {{-20, -20, 0}, {20, -20, 0}, {20, 20, 0}, {-20, 20, 0}};
    quad.normals.assign(4, glm::vec3(0, 0, 1));
    quad.indices = {0, 1, 2, 0, 2, 3};
    const gpu::GpuMesh mesh(quad, "quad");
    ContactCapture capture({{{0.0, 0.0}, 256.0, 64}, -100.0, 2000.0});
    const DeformerInstance deformer = instance(mesh, quad, {0.0f, 0.0f, -25.0f});
    capture.capture({&deformer, 1}, *program);
    EXPECT_NEAR(capture.depth().readFloats()[32 * 64 + 32] * 2000.0f, 75.0f, 1e-3f);
}

TEST_F(CaptureFixture, DeformersOutsideTheCaptureBoxAreCulled) {
    ContactCapture capture({{{0.0, 0.0}, 256.0, 64}, -100.0, 2000.0});
    const Mesh sphere = makeSphere(20.0f);
    const gpu::GpuMesh mesh(sphere, "sphere");
    const DeformerInstance outside[] = {
        instance(mesh, sphere, {500.0f, 0.0f, 0.0f}),  // beside the region
        instance(mesh, sphere, {0.0f, 0.0f, -300.0f}), // below the camera
        instance(mesh, sphere, {0.0f, 0.0f, 5000.0f}), // beyond the far plane
    };
    EXPECT_EQ(capture.capture(outside, *program), 0);
    EXPECT_TRUE(touchedTexels(capture).empty());
    const DeformerInstance inside = instance(mesh, sphere, {140.0f, 0.0f, 0.0f}); // overlaps edge
    EXPECT_EQ(capture.capture({&inside, 1}, *program), 1);
}

} // namespace
} // namespace snowcap
