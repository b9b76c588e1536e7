// blur = "separable": the GPU's two passes against a CPU reference of the same passes, and the
// Gaussian's spread against the spiral it stands in for.
#include "FieldTestSupport.hpp"
#include "GLTestSupport.hpp"
#include "core/snow_math.hpp"

#include <cmath>

namespace snowcap {
namespace {

// Bilinear sample of a side x side single-channel image at uv, texels past the edge reading 0
// (the sampler's border colour), texel centres at (i + 0.5) / side.
float bilinearBorder(const std::vector<float>& image, int side, double u, double v) {
    const double x = u * side - 0.5, y = v * side - 0.5;
    const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    const double fx = x - x0, fy = y - y0;
    auto at = [&](int i, int j) -> double {
        if (i < 0 || j < 0 || i >= side || j >= side)
            return 0.0;
        return image[static_cast<std::size_t>(j) * side + i];
    };
    const double bottom = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
    const double top = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
    return static_cast<float>(bottom * (1 - fy) + top * fy);
}

// What a pass writes with WITH_SLOPE: the blur, the slope carried from pass x (pass y only)
// and the slope along the pass's own axis, per full-resolution texel.
struct Blurred {
    std::vector<float> value, carried, slope;
};

// One pass of shaders/snow/blur_separable.frag: taps 2 full-resolution texels apart along
// `axis`, Gaussian weights of sigma (full-resolution texels), out to 3 sigma; the slope from
// derivative-of-Gaussian weights on the same taps. `carry` is blurred like the value.
Blurred separablePass(const std::vector<float>& source, const std::vector<float>& carry,
                      int sourceSide, int outSide, int axis, double sigma, int resolution) {
    const int reach = static_cast<int>(std::ceil(1.5 * sigma));
    const double step = axis == 0 ? 2.0 / resolution : 1.0 / outSide;
    const std::size_t n = static_cast<std::size_t>(outSide) * outSide;
    Blurred out{std::vector<float>(n), std::vector<float>(n), std::vector<float>(n)};
    for (int j = 0; j < outSide; ++j)
        for (int i = 0; i < outSide; ++i) {
            const double u = (i + 0.5) / outSide, v = (j + 0.5) / outSide;
            auto tap = [&](const std::vector<float>& image, int m) {
                const double du = axis == 0 ? m * step : 0.0, dv = axis == 1 ? m * step : 0.0;
                return double(bilinearBorder(image, sourceSide, u + du, v + dv));
            };
            double sum = tap(source, 0), carried = tap(carry, 0), slope = 0.0, weights = 1.0;
            for (int m = 1; m <= reach; ++m) {
                const double w = std::exp(-(2.0 * m) * (2.0 * m) / (2.0 * sigma * sigma));
                sum += w * (tap(source, m) + tap(source, -m));
                carried += w * (tap(carry, m) + tap(carry, -m));
                slope += w * (2.0 * m / (sigma * sigma)) * (tap(source, m) - tap(source, -m));
                weights += 2.0 * w;
            }
            const std::size_t k = static_cast<std::size_t>(j) * outSide + i;
            out.value[k] = static_cast<float>(sum / weights);
            out.carried[k] = static_cast<float>(carried / weights);
            out.slope[k] = static_cast<float>(slope / weights);
        }
    return out;
}

// Channel c of an RGBA readback.
std::vector<float> channel(const std::vector<float>& rgba, int c) {
    std::vector<float> out(rgba.size() / 4);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = rgba[i * 4 + c];
    return out;
}

TEST(SeparableBlur, MatchesItsCpuReference) {
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    Settings settings;
    settings.snow.resolution = 64;
    settings.snow.orthoWidthCm = 256.0;
    settings.sims[0].blur = BlurMode::Separable;
    settings.sims[0].material.rtBlurDistance = 0.1; // 6.4 texels: a blur wide enough to see
    auto field = test::makeField(settings, shaders);
    ASSERT_TRUE(field);
    test::Sphere sphere;
    for (glm::vec3 p : {glm::vec3{-40, -30, -20}, glm::vec3{50, 40, -8}}) {
        const DeformerInstance pressed = sphere.at(p);
        for (int i = 0; i < 10; ++i) // held: the add accumulate fills the print up
            field->step({&pressed, 1}, 1.0 / 60.0);
    }
    field->sim(0).blur(); // the frame's per-step blur pass
    const SnowSim& sim = field->sim(0);
    const int resolution = sim.region().resolution;
    const int half = separableBlurSize(resolution);
    const std::vector<float> buffer = test::redOf(sim.persistent());
    const gpu::Texture2D& blurred = sim.surfaceInput();
    ASSERT_EQ(blurred.width(), half);
    ASSERT_EQ(blurred.format(), gpu::TextureFormat::RGBA16F); // r16f: the slope rides along
    const std::vector<float> rgba = blurred.readFloats();
    const std::vector<float> gpu = channel(rgba, 0);

    const SimSettings& s = sim.settings();
    const double sigma = separableBlurSigmaTexels(s.material.distanceSteps, s.material.radialSteps,
                                                  s.material.rtBlurDistance, resolution);
    const std::vector<float> zeros(buffer.size(), 0.0f);
    const Blurred x = separablePass(buffer, zeros, resolution, half, 0, sigma, resolution);
    const Blurred cpu = separablePass(x.value, x.slope, half, half, 1, sigma, resolution);
    const std::vector<float> gpuSlopeX = channel(rgba, 1), gpuSlopeY = channel(rgba, 2);
    double worst = 0.0, worstSlope = 0.0, largestSlope = 0.0;
    for (std::size_t i = 0; i < cpu.value.size(); ++i) {
        worst = std::max(worst, double(std::abs(cpu.value[i] - gpu[i])));
        worstSlope = std::max({worstSlope, double(std::abs(cpu.carried[i] - gpuSlopeX[i])),
                               double(std::abs(cpu.slope[i] - gpuSlopeY[i]))});
        largestSlope = std::max(largestSlope, double(std::abs(cpu.slope[i])));
    }
    RecordProperty("max_abs_difference", std::to_string(worst));
    RecordProperty("max_abs_slope_difference", std::to_string(worstSlope));
    // The intermediate and the output are 16-bit floats (10-bit mantissa, truncated or
    // rounded); the slopes are per texel, a few hundredths at most here.
    EXPECT_LT(worst, 4e-3);
    EXPECT_LT(worstSlope, 1e-3);
    EXPECT_GT(largestSlope, 0.01);                    // the print's walls have a slope
    EXPECT_GT(test::maxOf(gpu), 0.2f);                // a print is there
    EXPECT_LT(test::maxOf(gpu), test::maxOf(buffer)); // and it is blurred
}

TEST(SeparableBlur, SigmaIsTheSpiralKernelsSpread) {
    // The spiral's taps as a point set: its per-axis variance, less the 1/4 texel^2 of the
    // half-resolution average, is sigma^2.
    const int rings = 16, taps = 8, resolution = 1024;
    const double radiusUv = 0.02, radius = radiusUv * resolution;
    double sum = 0.0;
    int count = 1;
    for (int ring = 1; ring <= rings; ++ring)
        for (int tap = 0; tap < taps; ++tap) {
            const double r = radius * ring / rings;
            const double angle = 2.0 * M_PI * (tap + ring * 0.61803398875) / taps;
            sum += r * std::cos(angle) * r * std::cos(angle);
            ++count;
        }
    const double variance = sum / count;
    const double sigma = separableBlurSigmaTexels(rings, taps, radiusUv, resolution);
    EXPECT_NEAR(sigma * sigma + 0.25, variance, 1e-6 * variance);
}

} // namespace
} // namespace snowcap
