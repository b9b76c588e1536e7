// The snowpack's list dispatches folded into rows (shaders/snowpack/snowpack_tiles.glsl): a
// 4096^2 state lists up to 65,536 tiles, past the 65,535 groups along one axis that every driver
// must take, so a list's dispatch is rows of at most GL_MAX_COMPUTE_WORK_GROUP_COUNT groups.
// Here a small state runs with a forced small row width against the same state unfolded.
#include "GLTestSupport.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>

namespace snowcap {
namespace {

constexpr int kSize = 64; // 16 tiles of 16^2
constexpr double kCaptureZ = -100.0;
constexpr double kFar = 2000.0;

// The capture at time t: a box 2 cm above the ground (it ploughs) dragged across the tiles
// until 1 s, a foot 12 cm above (it compacts) from 0.5 s to 1.2 s, then nothing (the rims slump).
std::vector<float> captureAt(double t, const SnowpackConstants& c) {
    std::vector<float> depth(static_cast<std::size_t>(kSize) * kSize, 1.0f);
    const auto stamp = [&](int x0, int y0, int x1, int y1, float bottomCm) {
        const float window = (bottomCm - c.cameraAboveGroundCm) / c.captureFarCm;
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x)
                depth[static_cast<std::size_t>(y) * kSize + x] = window;
    };
    if (t < 1.0) {
        const int x = 2 + static_cast<int>(t * 40.0);
        stamp(x, 40, x + 10, 52, 2.0f);
    }
    if (t >= 0.5 && t < 1.2)
        stamp(44, 10, 54, 30, 12.0f);
    return depth;
}

TEST(SnowpackDispatchGL, FoldedIntoRowsIsTheUnfoldedStep) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    settings.settleTimeScale = 3600.0;
    settings.settleIntervalS = 0.25; // settling ticks list every tile
    Region region;
    region.resolution = kSize;
    region.widthCm = kSize;
    // One group a row, rows of 3 (the last holds one) and of 5 (the last holds one).
    for (const unsigned width : {1u, 3u, 5u}) {
        SCOPED_TRACE(testing::Message() << width << " groups a row");
        SnowpackSim folded, unfolded;
        for (SnowpackSim* sim : {&folded, &unfolded}) {
            auto error = sim->configure(settings, region, kCaptureZ, kFar, shaders);
            ASSERT_FALSE(error) << *error;
        }
        folded.limitDispatchWidth(width);
        gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
        int busiest = 0, widest = 0, rows = 0;
        const double fps = 30.0; // 32 slump iterations a step
        for (int step = 0; step < 45; ++step) {
            capture.upload(captureAt(step / fps, folded.constants()));
            folded.step(capture, 1.0 / fps);
            unfolded.step(capture, 1.0 / fps);
            const SnowpackSim::TileCounts counts = folded.lastTileCounts();
            EXPECT_EQ(counts.compact, unfolded.lastTileCounts().compact) << "step " << step;
            busiest = std::max(busiest, counts.compact);
            widest = std::max(widest, counts.widestRow);
            rows = std::max(rows, counts.mostRows);
            const std::vector<SnowColumn> a = folded.readBack(), b = unfolded.readBack();
            ASSERT_EQ(a.size(), b.size());
            ASSERT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(SnowColumn)))
                << "step " << step;
        }
        // The lists were longer than a row, and no dispatch was wider than one: 16 tiles in
        // rows of `width`.
        EXPECT_EQ(busiest, 16);
        EXPECT_EQ(widest, static_cast<int>(width));
        EXPECT_EQ(rows, (16 + static_cast<int>(width) - 1) / static_cast<int>(width));
    }
}

// Unfolded, a list's dispatch is one row as wide as the list (what the driver's limit leaves
// for every state up to 2048^2, 16,384 tiles).
TEST(SnowpackDispatchGL, UnfoldedTheListIsOneRow) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    SnowpackSettings settings;
    Region region;
    region.resolution = kSize;
    region.widthCm = kSize;
    SnowpackSim sim;
    ASSERT_FALSE(sim.configure(settings, region, kCaptureZ, kFar, shaders));
    sim.setActiveTiles(false); // every tile on every list
    gpu::Texture2D capture(kSize, kSize, gpu::TextureFormat::R32F, "test.capture");
    capture.upload(captureAt(0.0, sim.constants()));
    sim.step(capture, 1.0 / 30.0);
    const SnowpackSim::TileCounts counts = sim.lastTileCounts();
    EXPECT_EQ(counts.compact, 16);
    EXPECT_EQ(counts.widestRow, 16);
    EXPECT_EQ(counts.mostRows, 1);
    EXPECT_GE(gpu::maxComputeGroups()[0], 65535u);
}

} // namespace
} // namespace snowcap
