#pragma once
// How a texel ages while it is away from every window (sim.X.persistence = "world"). A window
// applies the accumulate pass to every texel each step; a texel the window has scrolled past
// would, in a window big enough to hold it, have seen the same pass with nothing pressing on it.
// So the store ages it by replaying that pass on the CPU, step by step, with the exact float
// operations of shaders/snow/accumulate.frag (snow/cpu_reference.hpp's accumulateTexel, the
// capture's cleared depth as input, the driver's half store rounding): the value that comes
// back is the value the big window would hold, bit for bit (docs/world.md, "The aging proof").
//
// The log keeps only the steps that can change a stored texel. A step with factor 1 and no
// refill is the identity on every value a pass can have stored (v x 1 = v, and the half
// rounding of a half is itself), so decay quanta that are not due cost nothing.

#include "core/accumulate_law.hpp"
#include "core/settings.hpp"
#include "core/sim_clock.hpp"
#include "snow/cpu_reference.hpp"

#include <cstdint>
#include <vector>

namespace snowcap {

// IEEE half <-> float. toHalfBits is exact for every float a half can hold (what a R16F
// texture reads back as) and rounds to nearest even otherwise.
float halfBitsToFloat(std::uint16_t bits);
std::uint16_t floatToHalfBits(float value);

// The mask an untouched texel reads under `law` (capture depth cleared to 1): 0 unless the
// capture's offset and distance are set so that the far plane itself counts as contact.
float untouchedMask(const AccumulateLaw& law);

// A run of identical logged steps: steps first .. first + count - 1 (1-based, in the order
// the sim's clock advanced), each applying `factor` / `refill` under `law` (the sim's
// accumulate law with the driver's store rounding).
struct AgingRun {
    long long first = 0;
    long long count = 0;
    float stepFactor = 1.0f;
    float refillStep = 0.0f;
    AccumulateLaw law;
};

class AgingLog {
public:
    // One step of the sim's clock, run or skipped alike (a skipped idle step advances the
    // clock, and the big window would have run the pass on its far texels).
    void record(const SimStep& step, const AccumulateLaw& law);
    // Steps recorded since the last clear: a texel read back now is "as after steps()".
    long long steps() const { return steps_; }
    // The value a texel that held `value` after `fromStep` steps holds after steps().
    float age(float value, long long fromStep) const;
    std::uint16_t ageBits(std::uint16_t bits, long long fromStep) const;
    // Whether any kept step lies after `fromStep` (if not, ageing changes nothing).
    bool changesAfter(long long fromStep) const {
        return !runs_.empty() && runs_.back().first + runs_.back().count - 1 > fromStep;
    }
    // Drops the runs every texel still to be aged is past (memory stays bounded).
    void forgetBefore(long long step);
    void clear();
    std::size_t runCount() const { return runs_.size(); }

private:
    std::vector<AgingRun> runs_;
    long long steps_ = 0;
    AccumulateLaw lastLaw_;
    bool any_ = false;
};

// One step of the law on one value: accumulateTexel with the cleared capture depth.
float agingStep(float value, const AgingRun& run);

} // namespace snowcap
