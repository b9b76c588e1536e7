#pragma once
// The CPU oracle of the accumulate pass (PP_Depth_Snow): the same float operations in the same
// order as shaders/snow/accumulate.frag, on plain float buffers, with the R16F store modelled by
// a selectable half conversion. GL tests compare the driver's output with it texel for texel.

#include "core/accumulate_law.hpp"
#include "core/settings.hpp"
#include "core/sim_clock.hpp"
#include "core/snow_math.hpp"

#include <span>
#include <vector>

namespace snowcap {

// NaN or +-Inf (the shader's notFinite: such inputs are contained, never stored).
bool notFinite(float x);

// mask = 1 - saturate((SceneDepth + offset) / capture_distance), SceneDepth = window depth x far.
// A non-finite depth counts as far (no contact).
float contactMask(float windowDepth, const AccumulateLaw& law);

// One texel of the pass under `law` with the step's amounts (SimClock::advance: stepFactor,
// refillStep, contactScale), including the store into a half float.
float accumulateTexel(float windowDepth, float previous, const AccumulateLaw& law,
                      const SimStep& step);

void accumulateBuffers(std::span<const float> windowDepth, std::span<const float> previous,
                       std::span<float> next, const AccumulateLaw& law, const SimStep& step);

// One texel driven through time by a contact mask history; what the decay tests and the fade
// plots use to compare designs and rounding modes without a GPU. Its steps come from the same
// SimClock the GPU sim runs on, under the sim's law with the default capture.
struct TexelSimulation {
    SimSettings sim;
    HalfRounding storeRounding = HalfRounding::NearestEven;
    double fps = 60.0;

    // Runs `steps` steps; `maskAt(stepIndex, timeS)` gives the mask of that step. Returns the
    // stored value after each step.
    template <class MaskFn> std::vector<float> run(int steps, MaskFn maskAt) const;
};

template <class MaskFn> std::vector<float> TexelSimulation::run(int steps, MaskFn maskAt) const {
    std::vector<float> values;
    values.reserve(steps);
    SimClock clock(AccumulateLaw::of(sim, CaptureSettings{}, storeRounding));
    const AccumulateLaw& law = clock.law();
    const double dt = 1.0 / fps;
    float value = 0.0f;
    for (int step = 0; step < steps; ++step) {
        const SimStep& now = clock.advance(dt);
        const float mask = maskAt(step, (step + 1) * dt);
        // A window depth that yields exactly this mask is not needed: feed the mask through an
        // equivalent depth so the same code path runs.
        const float sceneDepth = (1.0f - mask) / law.invCaptureDistance - law.captureOffsetCm;
        value = accumulateTexel(sceneDepth / law.captureFarCm, value, law, now);
        values.push_back(value);
    }
    return values;
}

} // namespace snowcap
