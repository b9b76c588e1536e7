// The buffers as OpenEXR (lab/exr_outputs.hpp): a sim's persistent buffer read as GL_HALF_FLOAT,
// written and read back with OpenEXR, equals the texture's half bits, for r16f and rgba16f.
#include "../snow/FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "TestSupport.hpp"
#include "core/snowpack_laws.hpp"
#include "lab/exr_outputs.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

TEST(ExrOutputs, PersistentBuffersRoundTripBitForBit) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    settings.sims[0].format = BufferFormat::R16F;
    settings.sims[1].format = BufferFormat::RGBA16F;
    auto field = test::makeField(settings, shaders);
    ASSERT_TRUE(field);
    // Prints of three contact types, then a fade: intensities, ages and types all vary.
    test::Sphere sphere;
    const std::array<DeformerInstance, 3> deformers{sphere.at({-70, 40, -20}, ContactType::Vehicle),
                                                    sphere.at({70, 40, -10}, ContactType::Animal),
                                                    sphere.at({0, -70, -25}, ContactType::Foot)};
    for (int step = 0; step < 10; ++step)
        field->step(deformers, 1.0 / 60.0);
    for (int step = 0; step < 30; ++step)
        field->step({}, 1.0 / 60.0);
    const auto dir = test::scratchDir();
    for (int s = 0; s < 2; ++s) {
        const gpu::Texture2D& texture = field->sim(s).persistent();
        const std::vector<std::uint16_t> gpuBits = readHalfBits(texture);
        const auto path = dir / (s == 0 ? "sim_a.exr" : "sim_b.exr");
        ASSERT_EQ(writePersistentExr(path, field->sim(s), s == 0 ? "a" : "b"), std::nullopt);
        auto read = readExr(path);
        ASSERT_TRUE(std::holds_alternative<ExrImage>(read)) << std::get<std::string>(read);
        const ExrImage& image = std::get<ExrImage>(read);
        EXPECT_EQ(image.width, 64);
        EXPECT_EQ(image.height, 64);
        EXPECT_EQ(image.pixel, ExrPixel::Half);
        const std::vector<std::string> channels =
            s == 0 ? std::vector<std::string>{"R"} : std::vector<std::string>{"R", "G", "B", "A"};
        EXPECT_EQ(image.channels, channels);
        ASSERT_EQ(image.halves.size(), gpuBits.size());
        std::size_t nonzero = 0, differ = 0;
        for (std::size_t i = 0; i < gpuBits.size(); ++i) {
            nonzero += gpuBits[i] != 0;
            differ += image.halves[i] != gpuBits[i];
        }
        EXPECT_EQ(differ, 0u) << "sim " << s;
        // Not a round trip of zeros: the prints are in there (R and, for rgba16f, G/B/A).
        EXPECT_GT(nonzero, s == 0 ? 50u : 200u) << "sim " << s;
    }
}

TEST(ExrOutputs, CaptureDepthIsSceneDepthInCentimetres) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    auto field = test::makeField(settings, shaders);
    ASSERT_TRUE(field);
    test::Sphere sphere;
    const std::array<DeformerInstance, 1> deformers{sphere.at({0, 0, -20})};
    field->step(deformers, 1.0 / 60.0);
    const ContactCapture& capture = field->captureOf(0);
    const auto path = test::scratchDir() / "capture_depth.exr";
    ASSERT_EQ(writeCaptureDepthExr(path, capture), std::nullopt);
    auto read = readExr(path);
    ASSERT_TRUE(std::holds_alternative<ExrImage>(read)) << std::get<std::string>(read);
    const ExrImage& image = std::get<ExrImage>(read);
    EXPECT_EQ(image.pixel, ExrPixel::Float);
    const std::vector<float> depth = capture.depth().readFloats();
    ASSERT_EQ(image.floats.size(), depth.size());
    const float far = static_cast<float>(capture.key().farCm);
    float nearest = far;
    for (std::size_t i = 0; i < depth.size(); ++i) {
        ASSERT_EQ(image.floats[i], depth[i] * far) << i;
        nearest = std::min(nearest, image.floats[i]);
    }
    // The sphere's bottom is 50 cm below the surface, the camera 100 cm below it: 50 cm.
    EXPECT_NEAR(nearest, 50.0f, 1.0f);
}

// A snowpack sim's EXR holds its state as 32-bit floats under the documented names: depth_cm,
// density (mass / depth: the state stores the mass), water, free, each texel exactly the
// state's (the density as densityOf computes it), after a press that compacted and ploughed.
TEST(ExrOutputs, SnowpackStateAsNamedFloats) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    settings.sims[1].model = SimModel::Snowpack;
    auto field = test::makeField(settings, shaders);
    ASSERT_TRUE(field);
    test::Sphere sphere;
    const std::array<DeformerInstance, 1> deformers{sphere.at({0, 0, -20})};
    for (int step = 0; step < 5; ++step)
        field->step(deformers, 1.0 / 60.0);
    const std::vector<float> state = field->sim(1).persistent().readFloats();
    const auto path = test::scratchDir() / "sim_b_snowpack.exr";
    ASSERT_EQ(writePersistentExr(path, field->sim(1), "b"), std::nullopt);
    auto read = readExr(path);
    ASSERT_TRUE(std::holds_alternative<ExrImage>(read)) << std::get<std::string>(read);
    const ExrImage& image = std::get<ExrImage>(read);
    EXPECT_EQ(image.pixel, ExrPixel::Float);
    // OpenEXR keeps channels sorted by name; find each by its name.
    std::vector<std::string> sorted = image.channels;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted,
              (std::vector<std::string>{"density", "depth_cm", "ground_print_cm", "water"}));
    const auto channel = [&](const std::string& name) {
        return std::size_t(std::find(image.channels.begin(), image.channels.end(), name) -
                           image.channels.begin());
    };
    const std::size_t n = image.channels.size();
    ASSERT_EQ(image.floats.size(), state.size());
    std::size_t compacted = 0;
    for (std::size_t t = 0; t < state.size() / 4; ++t) {
        const SnowColumn column{state[t * 4], state[t * 4 + 1], state[t * 4 + 2], state[t * 4 + 3]};
        ASSERT_EQ(image.floats[t * n + channel("depth_cm")], column.depthCm) << t;
        ASSERT_EQ(image.floats[t * n + channel("density")], densityOf(column)) << t;
        ASSERT_EQ(image.floats[t * n + channel("water")], column.waterKgM2) << t;
        ASSERT_EQ(image.floats[t * n + channel("ground_print_cm")], column.groundPrintCm) << t;
        compacted += densityOf(column) > 121.0f;
    }
    EXPECT_GT(compacted, 8u); // the press is in there (16 texels of 4 cm under the sphere)
}

} // namespace
} // namespace snowcap
