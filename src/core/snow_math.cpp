#include "core/snow_math.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace snowcap {

glm::mat4 captureViewProjection(const Region& region, double cameraZCm, double farCm) {
    // Column-major: clip = M * (x, y, z, 1).
    const double sx = 2.0 / region.widthCm;
    glm::dmat4 m(0.0);
    m[0][0] = sx;
    m[1][1] = sx;
    m[3][0] = -sx * region.centreCm.x;
    m[3][1] = -sx * region.centreCm.y;
    // NDC z in [-1, 1] with window depth = (z - cameraZ) / far under the default depth range.
    m[2][2] = 2.0 / farCm;
    m[3][2] = -2.0 * cameraZCm / farCm - 1.0;
    m[3][3] = 1.0;
    return glm::mat4(m);
}

bool isValidResolution(int resolution) {
    return resolution >= 64 && resolution <= 8192 && std::has_single_bit(unsigned(resolution));
}

int separableBlurSize(int resolution) {
    return std::max(resolution / 2, 1);
}

double separableBlurSigmaTexels(int rings, int taps, double blurDistanceUv, int resolution) {
    const double k = std::max(rings, 1), t = std::max(taps, 1);
    const double radius = blurDistanceUv * resolution;
    const double variance =
        radius * radius * t * (k + 1.0) * (2.0 * k + 1.0) / (12.0 * k * (1.0 + k * t));
    return std::sqrt(std::max(variance - 0.25, 0.0025));
}

double blurDistanceForResolution(int resolution) {
    switch (resolution) {
    case 1024:
        return 0.02;
    case 2048:
        return 0.01;
    case 4096:
        return 0.005;
    case 8192:
        return 0.0015; // the seed's table: 40 % below proportional, to save taps
    default:
        return 20.48 / resolution;
    }
}

const char* toString(HalfRounding rounding) {
    return rounding == HalfRounding::Truncate ? "truncate" : "nearest_even";
}

float halfUlp(float v) {
    if (v == 0.0f)
        return std::ldexp(1.0f, -24); // the subnormal spacing
    int exponent = 0;
    std::frexp(std::fabs(v), &exponent); // |v| in [2^(exponent-1), 2^exponent)
    return std::ldexp(1.0f, std::max(exponent - 1 - 10, -24));
}

float roundToHalf(float v, HalfRounding rounding) {
    if (v == 0.0f || !std::isfinite(v))
        return v;
    const float magnitude = std::fabs(v);
    const float ulp = halfUlp(magnitude);
    // magnitude / ulp is exact (power-of-two scale) and below 2^11, so this is exact.
    const float steps = magnitude / ulp;
    const float rounded =
        (rounding == HalfRounding::Truncate ? std::floor(steps) : std::nearbyint(steps)) * ulp;
    // Past the largest half: nearest overflows to infinity, truncation stops at 65504.
    const float limited = rounded <= 65504.0f ? rounded
                          : rounding == HalfRounding::Truncate
                              ? 65504.0f
                              : std::numeric_limits<float>::infinity();
    return std::copysign(limited, v);
}

double decayExponent(double decay, DecayTiming timing, double dtSeconds) {
    const double perFrame = -std::log(decay);
    return timing == DecayTiming::DeltaTime ? perFrame * dtSeconds * 60.0 : perFrame;
}

float DecayQuantizer::next(double exponent) {
    pendingExponent_ += exponent;
    const double quanta = std::floor(pendingExponent_ / kQuantum);
    if (quanta <= 0.0)
        return 1.0f;
    pendingExponent_ -= quanta * kQuantum;
    return static_cast<float>(std::exp(-quanta * kQuantum));
}

} // namespace snowcap
