#include "core/accumulate_law.hpp"

namespace snowcap {

AccumulateLaw AccumulateLaw::of(const SimSettings& sim, const CaptureSettings& capture,
                                HalfRounding storeRounding) {
    AccumulateLaw law;
    law.decay = sim.decay;
    law.decayKeys = sim.decayKeys;
    law.decayTiming = sim.decayTiming;
    law.refill = sim.refill;
    law.refillRatePerS = sim.refillRatePerS;
    law.contactTiming = sim.contactTiming;
    law.mode = sim.accumulate;
    law.halfSafe = sim.halfSafe;
    law.captureFarCm = static_cast<float>(capture.farCm);
    law.captureOffsetCm = static_cast<float>(capture.offsetCm);
    law.invCaptureDistance = static_cast<float>(1.0 / capture.distanceCm);
    law.storeRounding = storeRounding;
    return law;
}

} // namespace snowcap
