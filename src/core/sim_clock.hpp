#pragma once
// The sim clock: everything one step of a sim does with time, computed once per sim per step on
// the CPU. The GPU sim uploads it (SnowParams), a skipped idle step advances it the same way,
// the CPU reference runs on it and the viewer's Decay panel draws its fade. No GL here.
//
// What it owns: the scenario time since the last reset, the decay in force then
// (sim.X.decay_keys), the step's decay factor (decay_timing, in half-safe quanta), linear
// refill's amount, the age channel's growth and contact timing's scale. The quanta carry a
// remainder from step to step, so a step that is not run must still advance the clock, or every
// later step would differ.

#include "core/accumulate_law.hpp"
#include "core/settings.hpp"
#include "core/snow_math.hpp"

#include <utility>
#include <vector>

namespace snowcap {

// ---- the per-step amounts, released in half-exact quanta ----------------------------------

// The age channel (rgba16f G) grows by whole sixteenths of a second: every age up to
// kMaxAgeS is then a multiple of 1/16 and exact in a half float, so the R16F store cannot stall
// or drift it at any frame rate (a plain age + dt would stall at 64 s at 60 fps with
// round-to-nearest, and much earlier with llvmpipe's truncation). Error: under one quantum.
class AgeClock {
public:
    static constexpr double kQuantum = 1.0 / 16.0;
    static constexpr float kMaxAgeS = 120.0f; // ages saturate here (softening is long done)
    float next(double dtSeconds);
    void reset() { pendingS_ = 0.0; }
    double pending() const { return pendingS_; }
    void restore(double pendingS) { pendingS_ = pendingS; }

private:
    double pendingS_ = 0.0;
};

// Linear refill subtracts refill_rate x dt per step, released in whole quanta of 2^-11 (the half
// ulp just below 1): a stored value minus a multiple of 2^-11 is again a half float, so no
// rounding touches the fade and a print of value v is exactly 0 after v / rate seconds, to
// within one step.
class LinearRefill {
public:
    static constexpr double kQuantum = 1.0 / 2048.0;
    float next(double amount);
    void reset() { pending_ = 0.0; }
    double pending() const { return pending_; }
    void restore(double pending) { pending_ = pending; }

private:
    double pending_ = 0.0;
};

// The decay in force at scenario time `timeS`: the keys linear between them and held outside,
// or `decay` when there are none.
double decayAt(const std::vector<SimSettings::DecayKey>& keys, double decay, double timeS);
inline double decayAt(const SimSettings& sim, double timeS) {
    return decayAt(sim.decayKeys, sim.decay, timeS);
}

// contact_timing's scale of what a step adds in accumulate = "add": 1 per_frame (the UE
// original), dt x 60 delta_time (exactly 1 at 1/60 s). "max" adds nothing (the deepest press
// wins whatever the rate), so it is 1 there.
float contactScale(ContactTiming timing, AccumulateMode mode, double dtSeconds);

// ---- the clock ----------------------------------------------------------------------------

// What one step applies; the accumulate pass reads the float members from SnowParams, and
// shaders/snow/accumulate.frag says how each enters its sum.
struct SimStep {
    double dtS = 0.0;
    double timeS = 0.0;      // scenario time the step ends at, since the last reset
    double decay = 1.0;      // the decay in force then (decay_keys, else decay), at float precision
    float stepFactor = 1.0f; // k on (mask + previous); 1 with linear refill and between quanta
    float refillStep = 0.0f; // linear refill: subtracted this step
    float ageStepS = 0.0f;   // the age channel (rgba16f G) grows by this
    float contactScale = 1.0f; // the mask is added times this (contact_timing)
};

class SimClock {
public:
    SimClock() : law_(AccumulateLaw::of(SimSettings{}, CaptureSettings{})) {}
    explicit SimClock(AccumulateLaw law) : law_(std::move(law)) {}

    // Live edits: new keys from the next step on; time and the quanta's remainders are kept.
    void configure(AccumulateLaw law) { law_ = std::move(law); }
    // One step of dt seconds, run or skipped alike.
    const SimStep& advance(double dtSeconds);
    void reset(); // time 0, no remainder (with the sim's buffers cleared)
    // Everything the clock carries from one step to the next: a world file saves it, so a
    // loaded run steps on exactly as the saved one would have.
    struct State {
        double timeS = 0.0;
        double decayPending = 0.0;
        double agePendingS = 0.0;
        double refillPending = 0.0;
        bool operator==(const State&) const = default;
    };
    State state() const {
        return {timeS_, quantizer_.pending(), ageClock_.pending(), linearRefill_.pending()};
    }
    void restore(const State& state);

    double timeS() const { return timeS_; }
    const SimStep& last() const { return last_; }
    // The law it steps by (its decay, refill and contact inputs; the rest rides along).
    const AccumulateLaw& law() const { return law_; }

private:
    AccumulateLaw law_;
    DecayQuantizer quantizer_;
    AgeClock ageClock_;
    LinearRefill linearRefill_;
    double timeS_ = 0.0;
    SimStep last_;
};

// A full print's fade under the clock's own law at a fixed frame rate, with no contact after
// t = 0: the fraction left after each whole step (entry 0 is t = 0), over `horizonS` or until it
// reaches `stopBelow`. The product of the step factors (the half-safe staircase, decay keys
// included) or 1 minus the refill released, and the half-safe zero floor; the half store's
// rounding of each stored value is not modelled (the CPU reference does that, texel by texel).
std::vector<double> fadeCurve(const AccumulateLaw& law, double fps, double horizonS,
                              double stopBelow = 0.0);

} // namespace snowcap
