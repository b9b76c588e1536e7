// capture.depth: what "auto" picks, and a D16 capture's contact mask against the D32F one of
// the same deformers, through the CPU reference's mask (within the D16 step, far / 65535).
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "snow/contact_capture.hpp"
#include "snow/cpu_reference.hpp"
#include "snow/snow_field.hpp"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(CaptureDepth, AutoTakesD16WhereItsStepIsAThirtySecondOfATexel) {
    CaptureSettings capture; // far 2000 cm: a step of 0.0305 cm
    EXPECT_NEAR(d16DepthStepCm(capture), 2000.0 / 65535.0, 1e-12);
    const Region oneCm{{0.0, 0.0}, 2048.0, 2048};  // texel 1 cm: 1/32 = 0.031 cm
    const Region halfCm{{0.0, 0.0}, 2048.0, 4096}; // texel 0.5 cm
    EXPECT_EQ(captureDepthFormat(capture, oneCm), gpu::TextureFormat::D16);
    EXPECT_EQ(captureDepthFormat(capture, halfCm), gpu::TextureFormat::D32F);
    capture.farCm = 4000.0; // 0.061 cm: too coarse for 1 cm texels
    EXPECT_EQ(captureDepthFormat(capture, oneCm), gpu::TextureFormat::D32F);
    capture.depth = CaptureDepth::D16; // what is asked for, whatever the step
    EXPECT_EQ(captureDepthFormat(capture, oneCm), gpu::TextureFormat::D16);
    capture.depth = CaptureDepth::D32F;
    capture.farCm = 100.0;
    EXPECT_EQ(captureDepthFormat(capture, halfCm), gpu::TextureFormat::D32F);
}

TEST(CaptureDepth, FieldCapturesFollowTheSetting) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    auto field = test::makeField(settings, shaders);
    ASSERT_TRUE(field);
    EXPECT_EQ(field->captureOf(0).depth().format(), gpu::TextureFormat::D16);
    settings.capture.depth = CaptureDepth::D32F;
    ASSERT_EQ(field->applySettings(settings), std::nullopt);
    EXPECT_EQ(field->captureOf(0).depth().format(), gpu::TextureFormat::D32F);
    EXPECT_EQ(field->captureCount(), 1);
}

TEST(CaptureDepth, D16MaskEqualsTheD32fMaskWithinItsStep) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto loaded = shaders.load(contactCaptureProgram());
    ASSERT_TRUE(std::holds_alternative<gpu::ShaderProgram*>(loaded))
        << std::get<std::string>(loaded);
    const gpu::ShaderProgram& program = *std::get<gpu::ShaderProgram*>(loaded);

    Settings settings;
    settings.snow.resolution = 128;
    settings.snow.orthoWidthCm = 256.0;
    const CaptureKey key = simCaptureKey(settings, 0);
    CaptureKey key16 = key, key32 = key;
    key16.depthFormat = gpu::TextureFormat::D16;
    key32.depthFormat = gpu::TextureFormat::D32F;
    ContactCapture d16(key16), d32(key32);
    ASSERT_EQ(d16.depth().format(), gpu::TextureFormat::D16);

    // Spheres pressing from 2 to 45 cm deep and a tilted box: curved and sloped depths over
    // much of the mask range.
    test::Sphere sphere;
    std::vector<DeformerInstance> deformers;
    const float depths[] = {2.0f, 10.0f, 20.0f, 30.0f, 45.0f};
    for (int i = 0; i < 5; ++i)
        deformers.push_back(sphere.at({-100.0f + 50.0f * i, -60.0f, 30.0f - depths[i]}));
    const Mesh box = makeBox({60.0f, 25.0f, 10.0f});
    const gpu::GpuMesh boxMesh(box, "tilted");
    const glm::mat4 tilted = glm::rotate(glm::translate(glm::mat4(1.0f), {0.0f, 60.0f, -5.0f}),
                                         0.3f, glm::vec3(0.0f, 1.0f, 0.0f));
    deformers.push_back({&boxMesh, tilted, box.bounds().transformed(tilted)});
    EXPECT_EQ(d16.capture(deformers, program), 6);
    EXPECT_EQ(d32.capture(deformers, program), 6);

    const std::vector<float> depth16 = d16.depth().readFloats();
    const std::vector<float> depth32 = d32.depth().readFloats();
    ASSERT_EQ(depth16.size(), depth32.size());
    const AccumulateLaw c = AccumulateLaw::of(settings.sims[0], settings.capture);
    const double stepCm = d16DepthStepCm(settings.capture);
    // The stated precision: one D16 step of depth (half a step of rounding, plus what the
    // rasteriser's own depth interpolation may add), so a mask within step / distance.
    const double maskTolerance = stepCm / settings.capture.distanceCm + 1e-6;
    double worstCm = 0.0, worstMask = 0.0;
    int touched = 0, pressed = 0, footprintDiffers = 0, maskFootprintDiffers = 0;
    for (std::size_t t = 0; t < depth16.size(); ++t) {
        const bool hit16 = depth16[t] < 1.0f, hit32 = depth32[t] < 1.0f;
        footprintDiffers += hit16 != hit32;
        if (!hit16 || !hit32)
            continue;
        ++touched;
        // Where one mask is 0 and the other not, the other is within the tolerance of 0.
        const float mask16 = contactMask(depth16[t], c), mask32 = contactMask(depth32[t], c);
        pressed += mask32 > 0.0f;
        maskFootprintDiffers +=
            (mask16 > 0.0f) != (mask32 > 0.0f) && std::max(mask16, mask32) > maskTolerance;
        worstCm = std::max(worstCm, std::abs(double(depth16[t]) - depth32[t]) * c.captureFarCm);
        worstMask = std::max(
            worstMask, std::abs(double(contactMask(depth16[t], c)) - contactMask(depth32[t], c)));
    }
    RecordProperty("d16_step_cm", std::to_string(stepCm));
    RecordProperty("worst_depth_difference_cm", std::to_string(worstCm));
    EXPECT_GT(touched, 500); // the deformers were captured
    EXPECT_GT(pressed, 300); // and press into the snow
    EXPECT_EQ(footprintDiffers, 0);
    EXPECT_EQ(maskFootprintDiffers, 0);
    EXPECT_LE(worstCm, stepCm);
    EXPECT_LE(worstMask, maskTolerance);
    EXPECT_GT(worstCm, 0.0); // it is a 16-bit store: something rounds
}

} // namespace
} // namespace snowcap
