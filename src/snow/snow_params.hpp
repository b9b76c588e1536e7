#pragma once
// The MPC_FoliageInteraction analogue: every shader-visible snow parameter of one sim, as one
// std140 uniform block. The GLSL side is shaders/snow/snow_params.glsl; keep the two in step
// (the static_asserts catch size and offset drift on this side).

#include <cstddef>

#include "core/settings.hpp"
#include "core/snow_math.hpp"

namespace snowcap {

inline constexpr unsigned kSnowParamsBinding = 0;

struct alignas(16) SnowParamsBlock {
    float regionCentreCm[2];     //  0 GuidePosition_X / GuidePosition_Y
    float orthoWidthCm;          //  8 Ortho_Width
    float captureDistanceCm;     // 12 Capture_Distance
    float invCaptureDistance;    // 16 1 / Capture_Distance, computed once on the CPU
    float captureOffsetCm;       // 20 PP_Depth_Snow Offset
    float captureFarCm;          // 24 far plane: depth texture value x far = SceneDepth (cm)
    float decay;                 // 28 Mask_Attenuation, the user's per-frame factor
    float stepFactor;            // 32 the factor k this step applies (timing + quantization)
    float zeroFloor;             // 36 half-safe: results below this are written as 0
    float rtBlurDistance;        // 40 RT_Blur_Distance (uv units)
    float resolution;            // 44 texels per side
    float surfaceZCm;            // 48 undisturbed snow top
    float captureZCm;            // 52 camera height relative to the surface (negative: below)
    float snowDepthCm;           // 56 snow thickness
    float padding0;              // 60
};
static_assert(sizeof(SnowParamsBlock) == 64, "std140 size drift: see snow_params.glsl");
static_assert(offsetof(SnowParamsBlock, invCaptureDistance) == 16);
static_assert(offsetof(SnowParamsBlock, stepFactor) == 32);
static_assert(offsetof(SnowParamsBlock, surfaceZCm) == 48);

SnowParamsBlock makeSnowParams(const Settings& settings, const Region& region, int simIndex,
                               float stepFactor);

} // namespace snowcap
