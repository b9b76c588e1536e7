// The MPC_FoliageInteraction analogue, one block per sim. C++ mirror: src/snow/snow_params.hpp.
layout(std140, binding = 0) uniform SnowParams {
    // capture + accumulate (PP_Depth_Snow)
    vec2 regionCentreCm;     // GuidePosition_X / GuidePosition_Y
    float orthoWidthCm;      // Ortho_Width
    float captureDistanceCm; // Capture_Distance
    float invCaptureDistance;
    float captureOffsetCm;   // PP_Depth_Snow Offset
    float captureFarCm;
    float contactScale;      // add mode: the mask counts this much this step
    float stepFactor;        // k for this step
    float zeroFloor;
    float rtBlurDistance;    // RT_Blur_Distance
    float resolution;
    float surfaceZCm;
    float captureZCm;
    float snowDepthCm;
    float maskMulti;         // Mask_Multi
    // material (M_Snow)
    float tgl;
    float tgh;
    float displacementCm;
    float distanceSteps;
    float radialSteps;
    float edgeControl;       // Snow Edge Control
    float normalIntensity;
    float normalMode;        // 0 height_to_normal, 1 sobel (read by no shader: compiled in)
    // test-bed switches
    float ageStepS;          // seconds the age channel grows this step
    float refillStep;        // linear refill: subtracted this step
    float formatRgba;        // 1: G age, B contact type + 1 (read by no shader: compiled in)
    float rimsOn;            // 1: berms around prints (read by no shader: compiled in)
    float rimHeightCm;
    float rimWidthUv;
    float ageSoftenS;        // age at which a print is fully softened
    float switchesPad0;
    // look (MF_Landscape_Ground, light)
    vec4 snowColourWrap;
    vec4 packedColourReveal;
    vec4 groundColour;
    vec4 ssSnow;             // SS_Snow
    vec4 ssGround;           // SS_Ground; w: the share of the ground's albedo water takes
                             // at 5 kg/m2 ([ground], 0 for kind "colour")
    vec4 sunDirection;
    vec4 sunColour;
    vec4 skyColour;
    // the layers' OR (MF_Landscape_Ground) and the crevice term
    vec4 snowPackedOr;       // snow occlusion, roughness; packed occlusion, roughness
    vec4 groundOrCrevice;    // ground occlusion, roughness; crevice strength; ground texture
                             // repeats per cm (kind = "texture")
} snow;
