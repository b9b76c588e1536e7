// The physics' read of a snowpack state (SnowpackReadback, src/snow/snowpack_readback.cpp) over
// a ground that takes prints: the window's depth and mass as before, and the print (the state's
// fourth channel) beside them, texel for texel what the state holds; over snow no print is read.
#include "GLTestSupport.hpp"
#include "snow/SnowpackCaptureSupport.hpp"
#include "snow/snowpack_readback.hpp"
#include "snow/snowpack_sim.hpp"

#include <cstdio>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSize = 64;
constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;
constexpr double kTexelCm = 2.0;

TEST(MudPrintReadbackGL, TheReadCarriesThePrintBesideTheDepthAndMass) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    settings.depthCm = 4.0;
    Region region;
    region.resolution = kSize;
    region.widthCm = kTexelCm * kSize;
    for (const float printMax : {5.0f, 0.0f}) {
        SnowpackSim sim;
        auto error = sim.configure(settings, region, kCaptureZ, kFar, shaders, printMax);
        ASSERT_FALSE(error) << *error;
        const SnowpackConstants& c = sim.constants();
        gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
        std::vector<float> depth = test::emptyCapture(kSize);
        test::stampBox(depth, kSize, 10, 12, 20, 30, -3.0f, c); // 3 cm into the mud
        test::stampBox(depth, kSize, 30, 12, 40, 30, 2.0f, c);  // compacts the snow only
        capture.upload(depth);
        for (int step = 0; step < 5; ++step)
            sim.step(capture, 1.0 / 60.0);
        const std::vector<SnowColumn> state = sim.readBack();
        SnowpackReadback readback;
        const glm::ivec2 origin(6, 8), size(40, 30);
        readback.request(sim, origin, size);
        const std::optional<std::vector<float>> values = readback.take();
        ASSERT_TRUE(values);
        ASSERT_EQ(values->size(), std::size_t(2 * size.x * size.y));
        int wrong = 0, printed = 0;
        for (int y = 0; y < size.y; ++y)
            for (int x = 0; x < size.x; ++x) {
                const std::size_t k = std::size_t(y) * size.x + x;
                const SnowColumn& s =
                    state[std::size_t(origin.y + y) * kSize + std::size_t(origin.x + x)];
                wrong += (*values)[2 * k] != s.depthCm || (*values)[2 * k + 1] != s.massKgM2;
                if (printMax > 0.0f) {
                    wrong += readback.printCm()[k] != s.groundPrintCm;
                    printed += readback.printCm()[k] > 0.0f;
                }
            }
        std::printf("readback over %s: %d texels of the window differ from the state, %d "
                    "printed, %zu prints read, %lld bytes\n",
                    printMax > 0.0f ? "mud" : "snow", wrong, printed, readback.printCm().size(),
                    readback.bytesRead());
        EXPECT_EQ(wrong, 0);
        if (printMax > 0.0f) {
            EXPECT_EQ(readback.printCm().size(), std::size_t(size.x * size.y));
            EXPECT_EQ(printed, 10 * 18); // the foot's texels, all inside the window
            EXPECT_EQ(readback.bytesRead(), 16LL * size.x * size.y);
        } else {
            EXPECT_TRUE(readback.printCm().empty());
            EXPECT_EQ(readback.bytesRead(), 8LL * size.x * size.y); // as before prints
        }
    }
}

} // namespace
} // namespace snowcap
