#include "snow/cpu_reference.hpp"

#include <algorithm>
#include <cassert>

namespace snowcap {

AccumulateConstants accumulateConstants(const SnowParamsBlock& block, const SimSettings& sim,
                                        HalfRounding storeRounding) {
    AccumulateConstants c;
    c.captureFarCm = block.captureFarCm;
    c.captureOffsetCm = block.captureOffsetCm;
    c.invCaptureDistance = block.invCaptureDistance;
    c.stepFactor = block.stepFactor;
    c.zeroFloor = block.zeroFloor;
    c.mode = sim.accumulate;
    c.halfSafe = sim.halfSafe;
    c.storeRounding = storeRounding;
    return c;
}

float contactMask(float windowDepth, const AccumulateConstants& c) {
    const float sceneDepthCm = windowDepth * c.captureFarCm;
    const float normalised = (sceneDepthCm + c.captureOffsetCm) * c.invCaptureDistance;
    return 1.0f - std::clamp(normalised, 0.0f, 1.0f);
}

float accumulateTexel(float windowDepth, float previous, const AccumulateConstants& c) {
    const float mask = contactMask(windowDepth, c);
    float value;
    if (c.mode == AccumulateMode::Max) {
        const float decayed = previous * c.stepFactor;
        value = std::max(mask, decayed);
    } else {
        const float summed = (mask + previous) * c.stepFactor;
        value = std::clamp(summed, 0.0f, 1.0f);
    }
    if (c.halfSafe) {
        value = roundToHalf(value, HalfRounding::NearestEven);
        if (value < c.zeroFloor)
            value = 0.0f;
        return value; // exactly representable: the store cannot change it
    }
    return roundToHalf(value, c.storeRounding);
}

void accumulateBuffers(std::span<const float> windowDepth, std::span<const float> previous,
                       std::span<float> next, const AccumulateConstants& c) {
    assert(windowDepth.size() == previous.size() && previous.size() == next.size());
    for (std::size_t i = 0; i < next.size(); ++i)
        next[i] = accumulateTexel(windowDepth[i], previous[i], c);
}

} // namespace snowcap
