#pragma once
// The accumulate law: every input of one sim's accumulate pass that is not the contact itself,
// in one struct made from the parameter table (sim.X.* and capture.*) and the driver's half
// store rounding. Its four consumers read it and nothing else: the sim clock turns it into each
// step's amounts (core/sim_clock.hpp), the GPU uniform block carries its capture mapping and
// zero floor (snow/snow_params.hpp), the CPU reference runs it texel by texel
// (snow/cpu_reference.hpp), and the world store replays it on texels away from every window
// (snow/world_aging.hpp). No GL here.

#include "core/settings.hpp"
#include "core/snow_math.hpp"

#include <vector>

namespace snowcap {

// Made by of(); a default-constructed law is all zeros (SimClock's default is of() over the
// parameter table's defaults).
struct AccumulateLaw {
    // ---- what the clock turns into a step's amounts ----
    double decay{};                               // sim.X.decay, in force without keys
    std::vector<SimSettings::DecayKey> decayKeys; // sim.X.decay_keys
    DecayTiming decayTiming{};
    RefillMode refill{};
    double refillRatePerS{}; // refill = "linear": mask units a second
    ContactTiming contactTiming{};
    AccumulateMode mode{}; // sim.X.accumulate
    // Half-safe: the decay in half-exact quanta, results rounded in the shader, and values
    // under kZeroFloor written as 0.
    bool halfSafe{};
    // The age channel has no input: it grows by whole sixteenths of a second (AgeClock).

    // ---- what every texel's step does with them (shaders/snow/accumulate.frag) ----
    // mask = 1 - saturate((window depth x far + offset) x 1 / distance)
    float captureFarCm{};
    float captureOffsetCm{};
    float invCaptureDistance{};
    // What the R16F store does to a value that is not a half: the driver's (probed at start-up,
    // gpu/half_store_probe.hpp). The GPU pass does what its driver does whatever this says; the
    // CPU reference and the world's aging replay model it with this.
    HalfRounding storeRounding = HalfRounding::NearestEven;

    // Half-safe results below this are written as 0.
    float zeroFloor() const { return halfSafe ? kZeroFloor : 0.0f; }

    static AccumulateLaw of(const SimSettings& sim, const CaptureSettings& capture,
                            HalfRounding storeRounding = HalfRounding::NearestEven);
    bool operator==(const AccumulateLaw&) const = default;
};

} // namespace snowcap
