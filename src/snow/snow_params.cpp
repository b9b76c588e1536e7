#include "snow/snow_params.hpp"

namespace snowcap {

SnowParamsBlock makeSnowParams(const Settings& settings, const Region& region, int simIndex,
                               float stepFactor) {
    const SimSettings& sim = settings.sims[simIndex];
    SnowParamsBlock block{};
    block.regionCentreCm[0] = static_cast<float>(region.centreCm.x);
    block.regionCentreCm[1] = static_cast<float>(region.centreCm.y);
    block.orthoWidthCm = static_cast<float>(region.widthCm);
    block.captureDistanceCm = static_cast<float>(settings.capture.distanceCm);
    block.invCaptureDistance = static_cast<float>(1.0 / settings.capture.distanceCm);
    block.captureOffsetCm = static_cast<float>(settings.capture.offsetCm);
    block.captureFarCm = static_cast<float>(settings.capture.farCm);
    block.decay = static_cast<float>(sim.decay);
    block.stepFactor = stepFactor;
    block.zeroFloor = sim.halfSafe ? kZeroFloor : 0.0f;
    block.rtBlurDistance = static_cast<float>(blurDistanceForResolution(region.resolution));
    block.resolution = static_cast<float>(region.resolution);
    block.surfaceZCm = static_cast<float>(settings.snow.surfaceZCm);
    block.captureZCm = static_cast<float>(settings.snow.captureZCm);
    block.snowDepthCm = static_cast<float>(settings.snow.depthCm);
    return block;
}

} // namespace snowcap
