// The MPC_FoliageInteraction analogue, one block per sim. C++ mirror: src/snow/snow_params.hpp.
layout(std140, binding = 0) uniform SnowParams {
    vec2 regionCentreCm;     // GuidePosition_X / GuidePosition_Y
    float orthoWidthCm;      // Ortho_Width
    float captureDistanceCm; // Capture_Distance
    float invCaptureDistance;
    float captureOffsetCm;   // PP_Depth_Snow Offset
    float captureFarCm;
    float decay;             // Mask_Attenuation
    float stepFactor;        // k for this step
    float zeroFloor;
    float rtBlurDistance;    // RT_Blur_Distance
    float resolution;
    float surfaceZCm;
    float captureZCm;
    float snowDepthCm;
    float snowParamsPadding0;
} snow;
