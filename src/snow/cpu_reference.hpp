#pragma once
// The CPU oracle of the accumulate pass (PP_Depth_Snow): the same float operations in the same
// order as shaders/snow/accumulate.frag, on plain float buffers, with the R16F store modelled by
// a selectable half conversion. GL tests compare the driver's output with it texel for texel.

#include "core/settings.hpp"
#include "core/sim_clock.hpp"
#include "core/snow_math.hpp"
#include "snow/snow_params.hpp"

#include <span>
#include <vector>

namespace snowcap {

struct AccumulateConstants {
    float captureFarCm = 2000.0f;
    float captureOffsetCm = 150.0f;
    float invCaptureDistance = 1.0f / 250.0f;
    float stepFactor = 1.0f;
    float contactScale = 1.0f; // accumulate = "add": the mask counts this much (contact_timing)
    float zeroFloor = 0.0f;
    float refillStep = 0.0f; // refill = "linear": subtracted this step (stepFactor is then 1)
    AccumulateMode mode = AccumulateMode::Add;
    RefillMode refill = RefillMode::Multiply;
    bool halfSafe = true;
    HalfRounding storeRounding = HalfRounding::NearestEven; // what the R16F store does
};

AccumulateConstants accumulateConstants(const SnowParamsBlock& block, const SimSettings& sim,
                                        HalfRounding storeRounding);

// NaN or +-Inf (the shader's notFinite: such inputs are contained, never stored).
bool notFinite(float x);

// mask = 1 - saturate((SceneDepth + offset) / capture_distance), SceneDepth = window depth x far.
// A non-finite depth counts as far (no contact).
float contactMask(float windowDepth, const AccumulateConstants& c);

// One texel of the pass, including the store into a half float.
float accumulateTexel(float windowDepth, float previous, const AccumulateConstants& c);

void accumulateBuffers(std::span<const float> windowDepth, std::span<const float> previous,
                       std::span<float> next, const AccumulateConstants& c);

// One texel driven through time by a contact mask history; what the decay tests and the fade
// plots use to compare designs and rounding modes without a GPU. Its steps come from the same
// SimClock the GPU sim runs on.
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
    SimClock clock(ClockSettings::of(sim));
    const double dt = 1.0 / fps;
    AccumulateConstants c;
    c.mode = sim.accumulate;
    c.refill = sim.refill;
    c.halfSafe = sim.halfSafe;
    c.storeRounding = storeRounding;
    c.zeroFloor = sim.halfSafe ? kZeroFloor : 0.0f;
    float value = 0.0f;
    for (int step = 0; step < steps; ++step) {
        const SimStep& now = clock.advance(dt);
        c.stepFactor = now.stepFactor;
        c.refillStep = now.refillStep;
        c.contactScale = now.contactScale;
        const float mask = maskAt(step, (step + 1) * dt);
        // A window depth that yields exactly this mask is not needed: feed the mask through an
        // equivalent depth so the same code path runs.
        const float sceneDepth = (1.0f - mask) / c.invCaptureDistance - c.captureOffsetCm;
        value = accumulateTexel(sceneDepth / c.captureFarCm, value, c);
        values.push_back(value);
    }
    return values;
}

} // namespace snowcap
