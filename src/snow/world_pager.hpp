#pragma once
// The GL side of sim.X.persistence = "world" for one sim: when its following window moves,
// the texels that leave are read back asynchronously (a pixel buffer object and a fence, mapped
// a frame or more later, so the move never waits on the GPU) into the sim's WorldStore, and the
// texels that enter are taken from the store, aged to now, and uploaded into the window.
// The AgingLog records every step of the sim's clock. docs/world.md has the design.

#include "core/settings.hpp"
#include "core/snow_math.hpp"
#include "gpu/objects.hpp"
#include "gpu/shader_library.hpp"
#include "snow/texel_readbacks.hpp"
#include "snow/world_store.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace snowcap {

class SnowSim;

// The world texel of a window's texel (0, 0) when it is centred at `centreCm`, on the grid of
// the configured region (a follow_snapped window is always on it).
glm::ivec2 windowCorner(const Region& configured, glm::dvec2 centreCm);
// The overlap of two rectangles (empty if they do not meet).
TexelRect intersection(const TexelRect& a, const TexelRect& b);
// What of `rects` no rectangle of `holes` covers (disjoint rectangles).
std::vector<TexelRect> minusRects(std::vector<TexelRect> rects, std::span<const TexelRect> holes);

class WorldPager {
public:
    // The tile side for a window of `resolution` texels.
    static int tileTexelsFor(int resolution);
    WorldPager() = default;
    WorldPager(const WorldPager&) = delete;
    WorldPager& operator=(const WorldPager&) = delete;

    // (Re)configures for the sim's settings; a changed grid (texel size, resolution, the
    // snapping origin) starts an empty store. `origin` is the configured centre, the grid's
    // origin (region_shift.hpp's snappedCentre).
    void configure(const Region& configured, int storeMib, HalfRounding storeRounding);
    // One window of the sim (observers: every window shares this store). `others` are the
    // world rectangles of the sim's other windows: a texel inside one of them is that window's,
    // never the store's, so it is neither paged out nor taken (the field copies it between
    // windows on the GPU instead).
    // Before the window moves to `toCentre`: queues the readback of the texels that leave.
    // `windowClear`: the window is known to be all 0 (healBound), so nothing is read back.
    void pageOut(const SnowSim& window, glm::dvec2 toCentre, bool windowClear,
                 std::span<const TexelRect> others = {});
    // After the move (from `fromCentre`): restores the texels that entered. Returns the largest
    // value restored (0: nothing was).
    float pageIn(const SnowSim& window, glm::dvec2 fromCentre,
                 std::span<const TexelRect> others = {});
    // The whole window from the store (a loaded world): returns the largest value restored.
    float restoreWindow(const SnowSim& window, std::span<const TexelRect> others = {});
    // After every step of the sim, run or idle: logs the clock's step, completes the readbacks
    // that have finished and now and then drops healed tiles.
    void afterStep(const SnowSim& sim);
    // Waits for every readback in flight and writes it into the store.
    void finish();
    void reset();

    // The world texel of the window's texel (0, 0) when it is centred at `centreCm`.
    glm::ivec2 windowCorner(glm::dvec2 centreCm) const;
    const WorldStore& store() const { return *store_; }
    WorldStore& store() { return *store_; }
    const AgingLog& log() const { return log_; }
    AgingLog& log() { return log_; }
    const WorldPagingCost& cost() const { return readbacks_.cost(); }
    int resolution() const { return configured_.resolution; }
    const Region& configured() const { return configured_; }

private:
    // Writes a finished readback of half bits into the store.
    TexelReadbacks::Sink intoStore();
    // Takes `rects` (world texels) from the store into the window whose corner is `corner`.
    float restore(const SnowSim& sim, const std::vector<TexelRect>& rects, glm::ivec2 corner);

    Region configured_{};
    HalfRounding rounding_ = HalfRounding::NearestEven;
    std::optional<WorldStore> store_;
    AgingLog log_;
    TexelReadbacks readbacks_;
    std::vector<std::uint16_t> scratch_;
};

// Why sim `simIndex` cannot keep a world store with these settings ("" when it can).
std::string worldPersistenceError(const SimSettings& sim, const CaptureSettings& capture,
                                  int simIndex);

} // namespace snowcap
