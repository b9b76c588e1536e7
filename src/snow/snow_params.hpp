#pragma once
// The MPC_FoliageInteraction analogue: every shader-visible snow parameter of one sim — the
// capture and decay of PP_Depth_Snow and the material of M_Snow — as one std140 uniform block.
// The GLSL side is shaders/snow/snow_params.glsl; keep the two in step (the static_asserts catch
// size and offset drift on this side). Every member is a float or a vec4 so the layout is the
// same in C++ and std140 without hidden padding.

#include "core/accumulate_law.hpp"
#include "core/settings.hpp"
#include "core/sim_clock.hpp"
#include "core/snow_math.hpp"
#include "gpu/binding_slots.hpp"

#include <cstddef>

namespace snowcap {

inline constexpr unsigned kSnowParamsBinding = gpu::slot::kSnowParams;

struct alignas(16) SnowParamsBlock {
    // ---- capture + accumulate (PP_Depth_Snow) ----
    float regionCentreCm[2];  //   0 GuidePosition_X / GuidePosition_Y
    float orthoWidthCm;       //   8 Ortho_Width
    float captureDistanceCm;  //  12 Capture_Distance
    float invCaptureDistance; //  16 1 / Capture_Distance, computed once on the CPU
    float captureOffsetCm;    //  20 PP_Depth_Snow Offset
    float captureFarCm;       //  24 far plane: depth texture value x far = SceneDepth (cm)
    float contactScale;       //  28 add mode: the mask counts this much this step (SimClock)
    float stepFactor;         //  32 the factor k this step applies (SimClock: timing + quanta)
    float zeroFloor;          //  36 half-safe: results below this are written as 0
    float rtBlurDistance;     //  40 RT_Blur_Distance (uv units)
    float resolution;         //  44 texels per side
    float surfaceZCm;         //  48 undisturbed snow top
    float captureZCm;         //  52 camera height relative to the surface (negative: below)
    float snowDepthCm;        //  56 snow thickness
    float maskMulti;          //  60 Mask_Multi
    // ---- material (M_Snow, MF_FoliageInteraction_Snow) ----
    float tgl;             //  64 RemapValueRange low
    float tgh;             //  68 RemapValueRange high
    float displacementCm;  //  72 displacement magnitude (cm per unit of remapped value)
    float distanceSteps;   //  76 SpiralBlur rings
    float radialSteps;     //  80 SpiralBlur taps per ring
    float edgeControl;     //  84 Snow Edge Control (uv)
    float normalIntensity; //  88 HeightToNormal strength
    // normalMode, formatRgba and rimsOn mirror switches the surface material compiles in
    // (SurfaceVariant, render/snow_surface_pass.hpp); no shader reads them any more. They keep
    // the block's layout and show the sim's switches to a GPU debugger.
    float normalMode; //  92 0 height_to_normal, 1 sobel
    // ---- test-bed switches ----
    float ageStepS;     //  96 seconds the age channel (rgba16f G) grows this step (SimClock)
    float refillStep;   // 100 linear refill: mask units subtracted this step (SimClock)
    float formatRgba;   // 104 1: rgba16f (G age, B contact type + 1) is read by the material
    float rimsOn;       // 108 1: berms around prints (rims = "on")
    float rimHeightCm;  // 112 crest height of a berm
    float rimWidthUv;   // 116 how far a berm reaches out from a print's visible edge (uv)
    float ageSoftenS;   // 120 age at which an old print is fully softened
    float switchesPad0; // 124
    // ---- look (MF_Landscape_Ground, light): rgb + one scalar each ----
    float snowColourWrap[4];     // 128 snow base colour, wrap amount
    float packedColourReveal[4]; // 144 packed-snow colour, ground reveal threshold
    float groundColour[4];       // 160 ground colour, detail normal strength
    float ssSnow[4];             // 176 SS_Snow
    float ssGround[4];           // 192 SS_Ground; w: how much water darkens the ground
    float sunDirection[4];       // 208 normalised, towards the sun
    float sunColour[4];          // 224
    float skyColour[4];          // 240
    // ---- the layers' OR (occlusion, roughness) and the crevice term ----
    float snowPackedOr[4];    // 256 snow occlusion, roughness; packed occlusion, roughness
    float groundOrCrevice[4]; // 272 ground occlusion, roughness; crevice strength; the ground
                              //     texture's repeats per cm (kind = "texture", else 0)
};
static_assert(sizeof(SnowParamsBlock) == 288, "std140 size drift: see snow_params.glsl");
static_assert(offsetof(SnowParamsBlock, invCaptureDistance) == 16);
static_assert(offsetof(SnowParamsBlock, contactScale) == 28);
static_assert(offsetof(SnowParamsBlock, stepFactor) == 32);
static_assert(offsetof(SnowParamsBlock, tgl) == 64);
static_assert(offsetof(SnowParamsBlock, ageStepS) == 96);
static_assert(offsetof(SnowParamsBlock, snowColourWrap) == 128);
static_assert(offsetof(SnowParamsBlock, skyColour) == 240);
static_assert(offsetof(SnowParamsBlock, groundOrCrevice) == 272);

// The blur radius a sim uses: its own setting, or the seed's table by resolution.
double effectiveBlurDistance(const MaterialSettings& material, int resolution);
// The displacement magnitude a sim uses: its own, or snow depth / (tgh - tgl).
double effectiveDisplacementCm(const MaterialSettings& material, double snowDepthCm);

// Contact type as the capture and the B channel store it: 0 = no contact yet, 1 + the enum.
inline float contactTypeCode(ContactType type) {
    return 1.0f + static_cast<float>(type);
}

// Everything but the step's own amounts, which setStep writes from the sim's clock.
SnowParamsBlock makeSnowParams(const Settings& settings, const Region& region, int simIndex);
// The accumulate law's part of the block: the capture's depth-to-mask mapping and the zero
// floor (the decay, refill and contact inputs reach the pass as the step's amounts).
void setLaw(SnowParamsBlock& block, const AccumulateLaw& law);
void setStep(SnowParamsBlock& block, const SimStep& step);

} // namespace snowcap
