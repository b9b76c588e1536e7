#pragma once
// The math of the snow pipeline, in one home: used by the passes (which mirror it in
// shaders/snow/*.glsl), the CPU reference and the tests. No GL here.

#include "core/settings.hpp"

#include <cmath>
#include <cstdint>
#include <glm/common.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>

namespace snowcap {

// ---- the capture region: world (x, y) in cm <-> buffer uv / texels -----------------------

struct Region {
    glm::dvec2 centreCm{0.0}; // GuidePosition_X/Y
    double widthCm = 2048.0;  // Ortho_Width
    int resolution = 2048;    // texels per side

    double texelCm() const { return widthCm / resolution; }
    bool operator==(const Region&) const = default;
};

// uv = (xy - centre) / width + 0.5: +x right, +y up in the buffer (row 0 = bottom), no mirror,
// no half-texel shift. shaders/snow/region.glsl mirrors it.
inline glm::dvec2 worldToUv(glm::dvec2 worldCm, const Region& region) {
    return (worldCm - region.centreCm) / region.widthCm + 0.5;
}
inline glm::dvec2 uvToWorld(glm::dvec2 uv, const Region& region) {
    return (uv - 0.5) * region.widthCm + region.centreCm;
}
// The texel whose area contains the point (may be outside [0, resolution)).
inline glm::ivec2 worldToTexel(glm::dvec2 worldCm, const Region& region) {
    const glm::dvec2 texel = glm::floor(worldToUv(worldCm, region) * double(region.resolution));
    return glm::ivec2(texel);
}
inline glm::dvec2 texelCentreToWorld(glm::ivec2 texel, const Region& region) {
    return uvToWorld((glm::dvec2(texel) + 0.5) / double(region.resolution), region);
}

// ---- a following region (sim.X.region) -------------------------------------------------------

// follow_snapped: the centre nearest `targetCm` on the grid of whole texels through `originCm`
// (the configured centre), so every move is a whole number of texels and the buffer shift is an
// exact copy.
inline glm::dvec2 snappedCentre(glm::dvec2 targetCm, glm::dvec2 originCm, double texelCm) {
    return originCm + glm::round((targetCm - originCm) / texelCm) * texelCm;
}
// The shift a move applies to the buffer, in texels: the texel t of the new region shows what
// texel t + offset of the old one held (same width and resolution).
inline glm::dvec2 shiftOffsetTexels(glm::dvec2 fromCentreCm, glm::dvec2 toCentreCm,
                                    double texelCm) {
    return (toCentreCm - fromCentreCm) / texelCm;
}

// The capture camera's view-projection: orthographic, at z = cameraZCm looking +Z (up), with
// clip x/y = 2 * uv - 1 so the depth texture is indexed exactly like the snow buffers, and
// window depth = (z - cameraZ) / farCm, i.e. linear distance from the camera over far.
glm::mat4 captureViewProjection(const Region& region, double cameraZCm, double farCm);

// RT_Blur_Distance by resolution (Foliage Snow Interaction): 1024: 0.02, 2048: 0.01, 4096: 0.005,
// 8192: 0.0015. Other powers of two keep the ~20-texel blur of the 1024-4096 rows.
double blurDistanceForResolution(int resolution);
bool isValidResolution(int resolution);

// blur = "separable": the side of its half-resolution blurred copy, and the standard deviation
// (in texels of the full buffer) of the Gaussian that stands in for the spiral of `rings` x
// `taps` taps out to `blurDistanceUv`: the spiral kernel's own per-axis spread, less the 1/4
// texel^2 of the 2 x 2 average each half-resolution texel already is. Mirrors
// shaders/snow/blur_separable.frag.
int separableBlurSize(int resolution);
double separableBlurSigmaTexels(int rings, int taps, double blurDistanceUv, int resolution);

inline double remap(double x, double inLo, double inHi, double outLo, double outHi) {
    return outLo + (x - inLo) * (outHi - outLo) / (inHi - inLo);
}

// ---- half floats --------------------------------------------------------------------------

enum class HalfRounding { Truncate, NearestEven };
const char* toString(HalfRounding rounding);

// Distance between adjacent half floats around |v| (2^-24 in the subnormal range).
float halfUlp(float v);
// Converts to the nearest-below (Truncate) or nearest (NearestEven) half and back, exactly as
// a float -> R16F store does. Finite inputs only; past 65504 nearest gives infinity and
// truncation 65504.
float roundToHalf(float v, HalfRounding rounding);

// ---- decay ----------------------------------------------------------------------------------

// Remaining fraction after `seconds` for a per-frame decay at 60 fps: decay^(t * 60).
inline double analyticRemaining(double decay, double seconds) {
    return std::pow(decay, seconds * 60.0);
}

// The decay "exponent" (in nepers, -ln k) one step applies: per_frame uses the raw decay each
// step (the UE original), delta_time scales it by dt * 60 (the seed's proposed fix).
double decayExponent(double decay, DecayTiming timing, double dtSeconds);

// Half-safe decay (docs/pipeline.md): the exponent accumulates on the CPU in double precision
// and is released in whole quanta of 2^-7 nepers (a 0.78 % drop), so every decaying step moves a
// value by about 8 half ulps or more and round-to-nearest can never stall it. Steps in between
// use k = 1. The staircase plus the per-step rounding stay within 1.2 % of the analytic curve
// above 0.05 at 30-240 fps and decays 0.95-0.9999 (tests/snow/CpuReferenceTest.cpp).
class DecayQuantizer {
public:
    static constexpr double kQuantum = 1.0 / 128.0;

    // Adds this step's exponent and returns the factor to apply now (1 when no quantum is due).
    float next(double exponent);
    void reset() { pendingExponent_ = 0.0; }
    double pending() const { return pendingExponent_; }
    void restore(double pending) { pendingExponent_ = pending; }

private:
    double pendingExponent_ = 0.0;
};

// Below this the half-safe accumulator writes exactly 0 (0.024 % of a full print, 1.2 % of the
// material's Mask_Multi x50 mask), so every trail reaches zero in finite time.
inline constexpr float kZeroFloor = 1.0f / 4096.0f;

} // namespace snowcap
