#include "snow/cpu_reference.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>

namespace snowcap {

bool notFinite(float x) {
    return (std::bit_cast<std::uint32_t>(x) & 0x7f800000u) == 0x7f800000u;
}

float contactMask(float windowDepth, const AccumulateLaw& law) {
    if (notFinite(windowDepth))
        windowDepth = 1.0f;
    const float sceneDepthCm = windowDepth * law.captureFarCm;
    const float normalised = (sceneDepthCm + law.captureOffsetCm) * law.invCaptureDistance;
    return 1.0f - std::clamp(normalised, 0.0f, 1.0f);
}

float accumulateTexel(float windowDepth, float previous, const AccumulateLaw& law,
                      const SimStep& step) {
    const float mask = contactMask(windowDepth, law);
    previous = notFinite(previous) ? 0.0f : std::clamp(previous, 0.0f, 1.0f);
    const bool linear = law.refill == RefillMode::Linear;
    float value;
    if (law.mode == AccumulateMode::Max) {
        const float decayed =
            linear ? std::max(previous - step.refillStep, 0.0f) : previous * step.stepFactor;
        value = std::max(mask, decayed);
    } else {
        const float added = mask * step.contactScale;
        const float summed =
            linear ? (added + previous) - step.refillStep : (added + previous) * step.stepFactor;
        value = std::clamp(summed, 0.0f, 1.0f);
    }
    if (notFinite(value))
        value = 0.0f;
    if (law.halfSafe) {
        value = roundToHalf(value, HalfRounding::NearestEven);
        if (value < law.zeroFloor())
            value = 0.0f;
        return value; // exactly representable: the store cannot change it
    }
    return roundToHalf(value, law.storeRounding);
}

void accumulateBuffers(std::span<const float> windowDepth, std::span<const float> previous,
                       std::span<float> next, const AccumulateLaw& law, const SimStep& step) {
    assert(windowDepth.size() == previous.size() && previous.size() == next.size());
    for (std::size_t i = 0; i < next.size(); ++i)
        next[i] = accumulateTexel(windowDepth[i], previous[i], law, step);
}

} // namespace snowcap
