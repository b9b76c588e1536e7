#include "snow/cpu_reference.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>

namespace snowcap {

AccumulateConstants accumulateConstants(const SnowParamsBlock& block, const SimSettings& sim,
                                        HalfRounding storeRounding) {
    AccumulateConstants c;
    c.captureFarCm = block.captureFarCm;
    c.captureOffsetCm = block.captureOffsetCm;
    c.invCaptureDistance = block.invCaptureDistance;
    c.stepFactor = block.stepFactor;
    c.contactScale = block.contactScale;
    c.zeroFloor = block.zeroFloor;
    c.refillStep = block.refillStep;
    c.mode = sim.accumulate;
    c.refill = sim.refill;
    c.halfSafe = sim.halfSafe;
    c.storeRounding = storeRounding;
    return c;
}

bool notFinite(float x) {
    return (std::bit_cast<std::uint32_t>(x) & 0x7f800000u) == 0x7f800000u;
}

float contactMask(float windowDepth, const AccumulateConstants& c) {
    if (notFinite(windowDepth))
        windowDepth = 1.0f;
    const float sceneDepthCm = windowDepth * c.captureFarCm;
    const float normalised = (sceneDepthCm + c.captureOffsetCm) * c.invCaptureDistance;
    return 1.0f - std::clamp(normalised, 0.0f, 1.0f);
}

float accumulateTexel(float windowDepth, float previous, const AccumulateConstants& c) {
    const float mask = contactMask(windowDepth, c);
    previous = notFinite(previous) ? 0.0f : std::clamp(previous, 0.0f, 1.0f);
    const bool linear = c.refill == RefillMode::Linear;
    float value;
    if (c.mode == AccumulateMode::Max) {
        const float decayed =
            linear ? std::max(previous - c.refillStep, 0.0f) : previous * c.stepFactor;
        value = std::max(mask, decayed);
    } else {
        const float added = mask * c.contactScale;
        const float summed =
            linear ? (added + previous) - c.refillStep : (added + previous) * c.stepFactor;
        value = std::clamp(summed, 0.0f, 1.0f);
    }
    if (notFinite(value))
        value = 0.0f;
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
