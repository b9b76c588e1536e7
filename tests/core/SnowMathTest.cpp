#include "core/snow_math.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <glm/gtx/io.hpp> // operator<< for readable failure messages
#include <glm/vec4.hpp>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <vector>

namespace snowcap {
namespace {

// Regions the mapping must handle alike: the default, an off-origin one with non-integer
// centre and width, and a small one far from the origin.
std::vector<Region> sampleRegions() {
    return {
        Region{},
        Region{{-300.5, 1250.25}, 500.0, 256},
        Region{{100000.0, -7.75}, 333.3, 64},
        Region{{0.125, -2048.5}, 8192.0, 8192},
    };
}

// ---- the capture region ---------------------------------------------------------------------

TEST(SnowMathRegion, WorldUvRoundTrip) {
    for (const Region& region : sampleRegions()) {
        for (glm::dvec2 world : {glm::dvec2{0.0, 0.0}, glm::dvec2{-123.4, 56.7},
                                 region.centreCm + glm::dvec2{17.3, -88.9}}) {
            const glm::dvec2 back = uvToWorld(worldToUv(world, region), region);
            EXPECT_NEAR(back.x, world.x, 1e-9 * (1.0 + std::abs(world.x)));
            EXPECT_NEAR(back.y, world.y, 1e-9 * (1.0 + std::abs(world.y)));
        }
        for (glm::dvec2 uv : {glm::dvec2{0.0, 0.0}, glm::dvec2{0.25, 0.75}, glm::dvec2{1.0, 0.5}}) {
            const glm::dvec2 back = worldToUv(uvToWorld(uv, region), region);
            EXPECT_NEAR(back.x, uv.x, 1e-12);
            EXPECT_NEAR(back.y, uv.y, 1e-12);
        }
    }
}

TEST(SnowMathRegion, KnownValues) {
    const Region defaults;
    EXPECT_EQ(worldToUv({0.0, 0.0}, defaults), glm::dvec2(0.5, 0.5));
    EXPECT_EQ(worldToUv({-1024.0, 1024.0}, defaults), glm::dvec2(0.0, 1.0));
    EXPECT_EQ(worldToTexel({0.0, 0.0}, defaults), glm::ivec2(1024, 1024));
    EXPECT_EQ(worldToTexel({1023.5, -1024.0}, defaults), glm::ivec2(2047, 0));
    EXPECT_EQ(worldToTexel({1024.0, 0.0}, defaults), glm::ivec2(2048, 1024)); // outside: max edge
    EXPECT_EQ(worldToTexel({-1024.5, 0.0}, defaults), glm::ivec2(-1, 1024));

    // Centre (-300.5, 1250.25), width 500, 256 texels: 1.953125 cm a texel (exact in binary),
    // min corner (-550.5, 1000.25).
    const Region offset{{-300.5, 1250.25}, 500.0, 256};
    EXPECT_DOUBLE_EQ(offset.texelCm(), 1.953125);
    EXPECT_EQ(worldToUv({-300.5 + 125.0, 1250.25 - 250.0}, offset), glm::dvec2(0.75, 0.0));
    EXPECT_EQ(worldToTexel({-550.5 + 1.953125 * 10.5, 1000.25 + 1.953125 * 200.25}, offset),
              glm::ivec2(10, 200));
    EXPECT_EQ(texelCentreToWorld({0, 0}, offset),
              glm::dvec2(-550.5 + 0.9765625, 1000.25 + 0.9765625));
    EXPECT_EQ(texelCentreToWorld({255, 128}, offset),
              glm::dvec2(-550.5 + 1.953125 * 255.5, 1000.25 + 1.953125 * 128.5));

    const Region small{{100000.0, -7.75}, 333.3, 64};
    EXPECT_EQ(worldToTexel({100000.0, -7.75}, small), glm::ivec2(32, 32));
    const glm::dvec2 uv = worldToUv({100000.0 + 33.33, -7.75 - 66.66}, small);
    EXPECT_NEAR(uv.x, 0.6, 1e-12);
    EXPECT_NEAR(uv.y, 0.3, 1e-12);
}

TEST(SnowMathRegion, NoMirrorOnEitherAxis) {
    for (const Region& region : sampleRegions()) {
        const glm::dvec2 centre = region.centreCm;
        const double step = 3.0 * region.texelCm();
        const glm::ivec2 atCentre = worldToTexel(centre, region);
        EXPECT_GT(worldToTexel(centre + glm::dvec2{step, 0.0}, region).x, atCentre.x);
        EXPECT_EQ(worldToTexel(centre + glm::dvec2{step, 0.0}, region).y, atCentre.y);
        EXPECT_GT(worldToTexel(centre + glm::dvec2{0.0, step}, region).y, atCentre.y);
        EXPECT_EQ(worldToTexel(centre + glm::dvec2{0.0, step}, region).x, atCentre.x);
        EXPECT_GT(worldToUv(centre + glm::dvec2{step, step}, region).x, 0.5);
        EXPECT_GT(worldToUv(centre + glm::dvec2{step, step}, region).y, 0.5);
    }
}

TEST(SnowMathRegion, MinCornerIsTexelZero) {
    for (const Region& region : sampleRegions()) {
        const glm::dvec2 minCorner = region.centreCm - 0.5 * region.widthCm;
        EXPECT_EQ(worldToTexel(minCorner, region), glm::ivec2(0, 0));
        // Exactly 0 when centre and width are binary fractions; else within rounding.
        EXPECT_NEAR(worldToUv(minCorner, region).x, 0.0, 1e-12);
        EXPECT_NEAR(worldToUv(minCorner, region).y, 0.0, 1e-12);
    }
}

TEST(SnowMathRegion, TexelCentreMapsBackIntoItsTexel) {
    for (const Region& region : sampleRegions()) {
        const int last = region.resolution - 1;
        const int stride = std::max(1, region.resolution / 64);
        for (int j = 0; j <= last; j += stride) {
            for (int i : {0, 1, j, last - 1, last}) {
                const glm::dvec2 centre = texelCentreToWorld({i, j}, region);
                ASSERT_EQ(worldToTexel(centre, region), glm::ivec2(i, j))
                    << "region width " << region.widthCm << " res " << region.resolution;
                // No half-texel shift: the centre sits half a texel inside the texel's corner.
                const glm::dvec2 corner = region.centreCm - 0.5 * region.widthCm;
                EXPECT_NEAR(centre.x - corner.x, (i + 0.5) * region.texelCm(), 1e-6);
                EXPECT_NEAR(centre.y - corner.y, (j + 0.5) * region.texelCm(), 1e-6);
            }
        }
    }
}

// ---- the capture camera ---------------------------------------------------------------------

TEST(SnowMathCapture, ClipXyIsTwiceUvMinusOneAndDepthIsLinear) {
    struct Case {
        Region region;
        double cameraZ, far;
    };
    const Case cases[] = {
        {Region{}, -100.0, 2000.0},
        {Region{{-300.5, 1250.25}, 500.0, 256}, -100.0, 2000.0},
        {Region{{40.0, -60.0}, 1024.0, 1024}, 37.5, 800.0},
    };
    for (const Case& c : cases) {
        const glm::mat4 viewProjection = captureViewProjection(c.region, c.cameraZ, c.far);
        const glm::dvec2 lo = c.region.centreCm - 0.5 * c.region.widthCm;
        const double w = c.region.widthCm;
        const glm::dvec3 points[] = {
            {c.region.centreCm, c.cameraZ},
            {lo, c.cameraZ + c.far},
            {lo + glm::dvec2{w, w}, c.cameraZ + 0.5 * c.far},
            {lo + glm::dvec2{0.3 * w, 0.9 * w}, c.cameraZ + 100.0},
            {lo + glm::dvec2{-0.2 * w, 1.1 * w}, c.cameraZ + 250.0}, // outside the region
        };
        for (const glm::dvec3& p : points) {
            const glm::vec4 clip = viewProjection * glm::vec4(glm::vec3(p), 1.0f);
            const glm::dvec2 uv = worldToUv({p.x, p.y}, c.region);
            // Float matrix and float point: a few ulps of the largest term.
            EXPECT_NEAR(clip.w, 1.0, 1e-6); // orthographic: NDC = clip
            EXPECT_NEAR(clip.x, 2.0 * uv.x - 1.0, 1e-5);
            EXPECT_NEAR(clip.y, 2.0 * uv.y - 1.0, 1e-5);
            EXPECT_NEAR(clip.z * 0.5 + 0.5, (p.z - c.cameraZ) / c.far, 1e-6);
        }
    }
}

// ---- resolution table -----------------------------------------------------------------------

TEST(SnowMathBlur, SeedTable) {
    EXPECT_DOUBLE_EQ(blurDistanceForResolution(1024), 0.02);
    EXPECT_DOUBLE_EQ(blurDistanceForResolution(2048), 0.01);
    EXPECT_DOUBLE_EQ(blurDistanceForResolution(4096), 0.005);
    EXPECT_DOUBLE_EQ(blurDistanceForResolution(8192), 0.0015);
}

TEST(SnowMathBlur, ValidResolutions) {
    for (int resolution = 64; resolution <= 8192; resolution *= 2)
        EXPECT_TRUE(isValidResolution(resolution)) << resolution;
    for (int resolution : {0, 1, 32, 63, 100, 3000, 8191, 16384, -64, -1024})
        EXPECT_FALSE(isValidResolution(resolution)) << resolution;
}

// ---- half floats ----------------------------------------------------------------------------

const float kHalfTiny = std::ldexp(1.0f, -24); // the smallest subnormal half

TEST(SnowMathHalf, UlpKnownValues) {
    EXPECT_EQ(halfUlp(1.0f), std::ldexp(1.0f, -10));
    EXPECT_EQ(halfUlp(1.999f), std::ldexp(1.0f, -10));
    EXPECT_EQ(halfUlp(0.999f), std::ldexp(1.0f, -11));
    EXPECT_EQ(halfUlp(0.1f), std::ldexp(1.0f, -14));
    EXPECT_EQ(halfUlp(-0.1f), std::ldexp(1.0f, -14));
    EXPECT_EQ(halfUlp(std::ldexp(1.0f, -14)), kHalfTiny); // smallest normal
    EXPECT_EQ(halfUlp(std::ldexp(1.0f, -15)), kHalfTiny); // subnormal range
    EXPECT_EQ(halfUlp(kHalfTiny), kHalfTiny);
    EXPECT_EQ(halfUlp(65504.0f), 32.0f);
}

TEST(SnowMathHalf, RoundKnownValues) {
    using enum HalfRounding;
    for (HalfRounding rounding : {Truncate, NearestEven}) {
        SCOPED_TRACE(toString(rounding));
        EXPECT_EQ(roundToHalf(0.0f, rounding), 0.0f);
        EXPECT_EQ(roundToHalf(1.0f, rounding), 1.0f);
        EXPECT_EQ(roundToHalf(0.5f, rounding), 0.5f);
        EXPECT_EQ(roundToHalf(65504.0f, rounding), 65504.0f);
        // 0.1 = 1638.4 ulps of 2^-14: both modes give 0x2E66 = 0.0999755859375.
        EXPECT_EQ(roundToHalf(0.1f, rounding), 0.0999755859375f);
        EXPECT_EQ(roundToHalf(kHalfTiny, rounding), kHalfTiny);
    }
    const float ulpAtOne = std::ldexp(1.0f, -10);
    EXPECT_EQ(roundToHalf(1.0f + 0.75f * ulpAtOne, Truncate), 1.0f);
    EXPECT_EQ(roundToHalf(1.0f + 0.75f * ulpAtOne, NearestEven), 1.0f + ulpAtOne);
    EXPECT_EQ(roundToHalf(1.0f + 0.25f * ulpAtOne, NearestEven), 1.0f);
    // Ties go to the even mantissa.
    EXPECT_EQ(roundToHalf(1.0f + 0.5f * ulpAtOne, NearestEven), 1.0f);
    EXPECT_EQ(roundToHalf(1.0f + 1.5f * ulpAtOne, NearestEven), 1.0f + 2.0f * ulpAtOne);
    EXPECT_EQ(roundToHalf(1.0f + 1.5f * ulpAtOne, Truncate), 1.0f + ulpAtOne);
    // 0.999 is 2045.952 ulps of 2^-11 below 1.
    EXPECT_EQ(roundToHalf(0.999f, NearestEven), 2046.0f / 2048.0f);
    EXPECT_EQ(roundToHalf(0.999f, Truncate), 2045.0f / 2048.0f);
    // Subnormals: multiples of 2^-24.
    EXPECT_EQ(roundToHalf(3.0f * std::ldexp(1.0f, -25), NearestEven), 2.0f * kHalfTiny); // tie
    EXPECT_EQ(roundToHalf(3.0f * std::ldexp(1.0f, -25), Truncate), kHalfTiny);
    EXPECT_EQ(roundToHalf(std::ldexp(1.0f, -25), NearestEven), 0.0f); // tie to even 0
    EXPECT_EQ(roundToHalf(0.75f * kHalfTiny, NearestEven), kHalfTiny);
    EXPECT_EQ(roundToHalf(0.75f * kHalfTiny, Truncate), 0.0f);
    EXPECT_EQ(roundToHalf(500.4f * kHalfTiny, NearestEven), 500.0f * kHalfTiny);
    // Overflow: 65520 is the tie between 65504 and 2^16, which is past the largest half.
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(roundToHalf(65519.0f, NearestEven), 65504.0f);
    EXPECT_EQ(roundToHalf(65520.0f, NearestEven), inf);
    EXPECT_EQ(roundToHalf(1.0e6f, NearestEven), inf);
    EXPECT_EQ(roundToHalf(65535.0f, Truncate), 65504.0f);
}

TEST(SnowMathHalf, NegativesAreSymmetric) {
    std::mt19937 random(7);
    std::uniform_real_distribution<float> unit(0.0f, 2.0f);
    for (int i = 0; i < 10000; ++i) {
        const float v = unit(random);
        for (HalfRounding rounding : {HalfRounding::Truncate, HalfRounding::NearestEven})
            ASSERT_EQ(roundToHalf(-v, rounding), -roundToHalf(v, rounding)) << v;
    }
    EXPECT_EQ(roundToHalf(-65520.0f, HalfRounding::NearestEven),
              -std::numeric_limits<float>::infinity());
}

// The values a random sweep checks: uniform in [0, 1] (where the buffers live) and
// log-uniform down into the subnormals (where the decay tail lives).
std::vector<float> sweepValues(int count) {
    std::mt19937 random(2024);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::uniform_real_distribution<float> exponent(-30.0f, 0.0f);
    std::vector<float> values;
    for (int i = 0; i < count; ++i)
        values.push_back(i % 2 == 0 ? unit(random) : std::exp2(exponent(random)));
    return values;
}

TEST(SnowMathHalf, RandomValuesRoundWithinTheirMode) {
    for (float v : sweepValues(100000)) {
        const float ulp = halfUlp(v);
        const float nearest = roundToHalf(v, HalfRounding::NearestEven);
        const float truncated = roundToHalf(v, HalfRounding::Truncate);
        // Representable: converting again changes nothing, in either mode.
        ASSERT_EQ(roundToHalf(nearest, HalfRounding::NearestEven), nearest) << v;
        ASSERT_EQ(roundToHalf(nearest, HalfRounding::Truncate), nearest) << v;
        ASSERT_EQ(roundToHalf(truncated, HalfRounding::NearestEven), truncated) << v;
        ASSERT_EQ(roundToHalf(truncated, HalfRounding::Truncate), truncated) << v;
        ASSERT_LE(std::abs(double(nearest) - double(v)), 0.5 * ulp) << v;
        ASSERT_LE(truncated, v) << v;
        ASSERT_LT(double(v) - double(truncated), ulp) << v;
    }
}

#if defined(__FLT16_MAX__)
// An independent oracle: the compiler's own float -> _Float16 conversion (IEEE round to
// nearest even), and the next half below it for truncation.
TEST(SnowMathHalf, MatchesCompilerFloat16) {
    for (float v : sweepValues(100000)) {
        const _Float16 nearest = static_cast<_Float16>(v);
        ASSERT_EQ(roundToHalf(v, HalfRounding::NearestEven), static_cast<float>(nearest)) << v;
        float below = static_cast<float>(nearest);
        if (below > v)
            below = static_cast<float>(
                std::bit_cast<_Float16>(std::uint16_t(std::bit_cast<std::uint16_t>(nearest) - 1)));
        ASSERT_EQ(roundToHalf(v, HalfRounding::Truncate), below) << v;
    }
}
#endif

// ---- decay ----------------------------------------------------------------------------------

TEST(SnowMathDecay, ExponentPerFrameIgnoresDt) {
    const double perFrame = -std::log(0.999);
    for (double dt : {1.0 / 30.0, 1.0 / 60.0, 1.0 / 144.0, 1.0 / 240.0})
        EXPECT_DOUBLE_EQ(decayExponent(0.999, DecayTiming::PerFrame, dt), perFrame);
}

TEST(SnowMathDecay, ExponentDeltaTimeScalesWithDt) {
    for (double decay : {0.95, 0.999}) {
        EXPECT_DOUBLE_EQ(decayExponent(decay, DecayTiming::DeltaTime, 1.0 / 60.0),
                         -std::log(decay));
        for (double fps : {30.0, 144.0, 240.0}) {
            const double k = std::exp(-decayExponent(decay, DecayTiming::DeltaTime, 1.0 / fps));
            EXPECT_NEAR(k, std::pow(decay, 60.0 / fps), 1e-12);
            // One second of steps decays like 60 frames at 60 fps, whatever the rate.
            EXPECT_NEAR(std::pow(k, fps), std::pow(decay, 60.0), 1e-9);
        }
    }
    EXPECT_EQ(decayExponent(1.0, DecayTiming::DeltaTime, 1.0 / 60.0), 0.0);
}

TEST(SnowMathDecay, AnalyticRemainingSeedFigures) {
    EXPECT_NEAR(analyticRemaining(0.999, 1.0), 0.942, 0.0005);
    EXPECT_NEAR(analyticRemaining(0.999, 5.0), 0.741, 0.0005);
    EXPECT_NEAR(analyticRemaining(0.999, 10.0), 0.549, 0.0005);
    EXPECT_NEAR(analyticRemaining(0.999, 38.0), 0.10, 0.005);
    EXPECT_NEAR(analyticRemaining(0.999, 115.0), 0.001, 0.00005);
    EXPECT_NEAR(analyticRemaining(0.95, 1.0), 0.046, 0.0005);
    EXPECT_EQ(analyticRemaining(0.999, 0.0), 1.0);
}

TEST(SnowMathDecay, QuantizerHoldsExponentUntilAQuantumIsDue) {
    constexpr double q = DecayQuantizer::kQuantum;
    DecayQuantizer quantizer;
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(quantizer.next(q / 4.0), 1.0f);
        EXPECT_DOUBLE_EQ(quantizer.pending(), (i + 1) * q / 4.0);
    }
    EXPECT_FLOAT_EQ(quantizer.next(q / 4.0), float(std::exp(-q)));
    EXPECT_DOUBLE_EQ(quantizer.pending(), 0.0);

    // Several quanta at once are released together; the remainder stays pending.
    EXPECT_FLOAT_EQ(quantizer.next(2.5 * q), float(std::exp(-2.0 * q)));
    EXPECT_DOUBLE_EQ(quantizer.pending(), 0.5 * q);
    quantizer.reset();
    EXPECT_EQ(quantizer.pending(), 0.0);
    EXPECT_EQ(quantizer.next(0.0), 1.0f);
}

TEST(SnowMathDecay, QuantizerReleasesExactlyWhatAccumulated) {
    constexpr double q = DecayQuantizer::kQuantum;
    std::mt19937 random(11);
    std::uniform_real_distribution<double> exponent(0.0, 3.0 * q);
    DecayQuantizer quantizer;
    double total = 0.0, released = 0.0, logProduct = 0.0;
    int releases = 0;
    for (int step = 0; step < 5000; ++step) {
        const double e = exponent(random);
        total += e;
        const float factor = quantizer.next(e);
        ASSERT_GE(quantizer.pending(), 0.0);
        ASSERT_LT(quantizer.pending(), q);
        ASSERT_LE(factor, 1.0f);
        const double quanta = -std::log(double(factor)) / q;
        ASSERT_NEAR(quanta, std::round(quanta), 1e-4); // whole quanta only
        released += std::round(quanta) * q;
        logProduct += std::log(double(factor));
        releases += factor < 1.0f;
    }
    EXPECT_NEAR(released + quantizer.pending(), total, 1e-9);
    // Each factor is exp(-n q) rounded to float: at most half a float ulp (2^-24) apiece.
    EXPECT_NEAR(-logProduct, total - quantizer.pending(), releases * std::ldexp(1.0, -24));
    EXPECT_GT(releases, 3000);

    // Over a short run the product itself matches to 1e-6.
    DecayQuantizer shortRun;
    double product = 1.0, shortTotal = 0.0;
    for (int step = 0; step < 10; ++step) {
        const double e = exponent(random);
        shortTotal += e;
        product *= shortRun.next(e);
    }
    EXPECT_NEAR(product, std::exp(-(shortTotal - shortRun.pending())), 1e-6 * product);
}

} // namespace
} // namespace snowcap
