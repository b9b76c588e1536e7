#pragma once
// The GL side of a following snowpack's world store (sim.X.model = "snowpack", persistence =
// "world"; docs/snowpack.md section 6.2): when the window moves, the columns that leave are
// read back asynchronously (snow/texel_readbacks.*: RGBA32F as floats, the bits themselves)
// into the SnowpackStore, and the columns that enter are taken from it, settled to now, and
// uploaded over the undisturbed column the move filled in. The settling log records every
// settling tick of the sim's clock. SnowpackSim::shift and step call it; it owns no texture.

#include "core/snow_math.hpp"
#include "gpu/objects.hpp"
#include "snow/snowpack_store.hpp"
#include "snow/texel_readbacks.hpp"

#include <optional>
#include <vector>

namespace snowcap {

class SnowpackWorld {
public:
    // (Re)configures for the sim's configured region (the grid's origin and texel size) and
    // the cap (snow.world_store_mib); a changed grid starts an empty store (returns
    // true: the caller then resets it to its undisturbed column).
    bool configure(const Region& configured, int storeMib);
    const Region& configured() const { return configured_; }
    // The world texel of the window's texel (0, 0) when it is centred at `centreCm`.
    glm::ivec2 windowCorner(glm::dvec2 centreCm) const;

    // Before the state moves from `fromCentre` to `toCentre`: queues the readback of the
    // columns that leave (`state` is the state before the move).
    void pageOut(const gpu::Texture2D& state, glm::dvec2 fromCentre, glm::dvec2 toCentre);
    // After the move, with the entering texels of `state` holding the undisturbed column:
    // uploads what the store holds of them. Returns how many it held and their kg/m2.
    SnowpackStore::Taken pageIn(const gpu::Texture2D& state, glm::dvec2 fromCentre,
                                glm::dvec2 toCentre);
    // A settling tick, or a weather tick, of the sim's clock; `undisturbed` is the column
    // after it.
    void settled(const SettleTick& tick, const SnowColumn& undisturbed);
    void weathered(const WeatherTick& tick, const SnowpackConstants& constants,
                   const SnowColumn& undisturbed);
    // After every step: writes the readbacks that have finished into the store.
    void afterStep();
    // The sim's state went back to `undisturbed` everywhere: an empty store and log.
    void reset(const SnowColumn& undisturbed);
    // Waits for every readback in flight and writes it into the store. Logically const: the
    // columns in flight are the store's already (the budget reads them through this).
    void finish() const;

    // The budget's world terms, kg/m2 summed (x texel area: kg).
    struct Terms {
        double heldKgM2 = 0.0;          // in the store now
        double toUndisturbedKgM2 = 0.0; // left the window as undisturbed snow (not kept)
        double skyInKgM2 = 0.0;         // snowfall onto the stored columns
        double skyOutKgM2 = 0.0;        // water drained from them
    };
    // Every readback finished and every column aged to now, once for all four terms.
    Terms terms() const;
    const SnowpackStore& store() const { return *store_; }
    const SnowpackLog& log() const { return log_; }
    const WorldPagingCost& cost() const { return readbacks_.cost(); }

private:
    TexelReadbacks::Sink intoStore() const;

    Region configured_{};
    mutable std::optional<SnowpackStore> store_;
    mutable TexelReadbacks readbacks_;
    SnowpackLog log_;
    SnowColumn undisturbed_{};
    std::vector<SnowColumn> scratch_;
    long long steps_ = 0;
};

} // namespace snowcap
