// The soak's buffer check finds what it must: NaN, infinity and values outside [0, 1], at the
// right texel; a clean buffer passes. (The soak run itself is ctest's cli.soak_5000.)
#include "GLTestSupport.hpp"
#include "gpu/objects.hpp"
#include "lab/soak.hpp"

#include <gtest/gtest.h>
#include <limits>

namespace snowcap {
namespace {

std::optional<std::string> checkWith(float bad, int at) {
    gpu::Texture2D texture(4, 2, gpu::TextureFormat::R32F, "check");
    std::vector<float> texels(8, 0.5f);
    texels[0] = 0.0f;
    texels[7] = 1.0f;
    if (at >= 0)
        texels[at] = bad;
    texture.upload(texels);
    return checkSoakTexture(texture, "sim a persistent");
}

TEST(SoakCheck, CleanBufferPasses) {
    EXPECT_EQ(checkWith(0.0f, -1), std::nullopt);
}

TEST(SoakCheck, FindsNanInfinityAndOutOfRangeAtTheirTexel) {
    EXPECT_EQ(checkWith(std::numeric_limits<float>::quiet_NaN(), 5),
              "sim a persistent (4x2): texel (1, 1) channel 0 = nan");
    EXPECT_EQ(checkWith(std::numeric_limits<float>::infinity(), 2),
              "sim a persistent (4x2): texel (2, 0) channel 0 = inf");
    EXPECT_EQ(checkWith(1.5f, 3), "sim a persistent (4x2): texel (3, 0) channel 0 = 1.5");
    EXPECT_EQ(checkWith(-0.25f, 4), "sim a persistent (4x2): texel (0, 1) channel 0 = -0.25");
}

// A snowpack state holds centimetres and kilograms, not fractions: 30 cm passes; a negative
// depth, mass or water and anything not finite do not (the free channel only must be finite).
TEST(SoakCheck, SnowpackStateIsFiniteAndNeverNegative) {
    gpu::Texture2D state(2, 2, gpu::TextureFormat::RGBA32F, "check.snowpack");
    const auto check = [&](int at, float value) {
        std::vector<float> texels = {30.0f, 36.0f, 0.0f, 0.0f, 12.0f, 36.0f, 0.5f, -2.0f,
                                     0.0f,  0.0f,  0.0f, 0.0f, 41.0f, 36.0f, 0.0f, 0.0f};
        if (at >= 0)
            texels[at] = value;
        state.upload(texels);
        return checkSoakSnowpack(state, "sim b snowpack");
    };
    EXPECT_EQ(check(-1, 0.0f), std::nullopt);
    EXPECT_EQ(check(4, -0.5f), "sim b snowpack (2x2): texel (1, 0) channel 0 = -0.5");
    EXPECT_EQ(check(13, -1e-3f), "sim b snowpack (2x2): texel (1, 1) channel 1 = -0.001");
    EXPECT_EQ(check(10, std::numeric_limits<float>::quiet_NaN()),
              "sim b snowpack (2x2): texel (0, 1) channel 2 = nan");
    EXPECT_EQ(check(3, std::numeric_limits<float>::infinity()),
              "sim b snowpack (2x2): texel (0, 0) channel 3 = inf");
}

TEST(SoakCheck, ResidentBytesIsKnownOnLinux) {
    EXPECT_GT(residentBytes(), 1u << 20);
}

} // namespace
} // namespace snowcap
