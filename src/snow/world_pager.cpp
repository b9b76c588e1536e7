#include "snow/world_pager.hpp"

#include "core/config.hpp"
#include "snow/snow_params.hpp"
#include "snow/snow_sim.hpp"

#include <algorithm>
#include <chrono>

namespace snowcap {

namespace {

// Every this many steps the store drops the tiles that have healed to 0 while away.
constexpr long long kHealSweepSteps = 64;
// Which tiles a full store gives up: over the 10 km walk of WorldStore.TheCapHoldsOver-
// ATenKilometreWalk the most healed first keep 35 % more of the trail than the least recently
// seen first (docs/world.md, section 5).
constexpr EvictionPolicy kEviction = EvictionPolicy::MostHealed;
// The mask's texels as they are in its R16F buffer: half bits.
constexpr TexelLayout kHalfBits{GL_RED, GL_HALF_FLOAT, sizeof(std::uint16_t)};

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

std::string worldPersistenceError(const SimSettings& sim, const CaptureSettings& capture,
                                  int simIndex) {
    if (sim.persistence != Persistence::World)
        return "";
    const std::string key = "sim." + std::string(simName(simIndex));
    if (sim.region == RegionMode::FollowNaive)
        return key + ".persistence = \"world\" needs region = \"follow_snapped\" (a naive "
                     "follow resamples, so its texels are not on a world grid)";
    if (sim.model == SimModel::Snowpack)
        return ""; // its own store (snow/snowpack_world.hpp); snowpackSettingsError checks it
    if (sim.format != BufferFormat::R16F)
        return key + ".persistence = \"world\" needs format = \"r16f\" (rgba16f's tags spread "
                     "between texels, which a stored tile cannot replay alone)";
    if (untouchedMask(AccumulateLaw::of(sim, capture)) != 0.0f)
        return key + ".persistence = \"world\" needs untouched snow to read mask 0 (capture "
                     "offset_cm + far_cm below distance_cm presses everywhere)";
    return "";
}

int WorldPager::tileTexelsFor(int resolution) {
    return std::clamp(resolution / 4, 16, 64);
}

void WorldPager::configure(const Region& configured, int storeMib, HalfRounding storeRounding) {
    const std::size_t cap = static_cast<std::size_t>(std::max(storeMib, 1)) << 20;
    const bool same = store_ && configured_ == configured &&
                      store_->tileTexels() == tileTexelsFor(configured.resolution);
    rounding_ = storeRounding;
    if (same && store_->capBytes() == cap)
        return;
    if (same) {
        // Only the cap changed: keep the tiles (a smaller cap evicts on the next write).
        WorldStore resized(store_->tileTexels(), 1, cap, kEviction);
        for (const auto& [key, tile] : store_->tiles())
            resized.insert(key, tile);
        store_.emplace(std::move(resized));
        return;
    }
    finish();
    configured_ = configured;
    store_.emplace(tileTexelsFor(configured.resolution), 1, cap, kEviction);
    log_.clear();
}

glm::ivec2 windowCorner(const Region& configured, glm::dvec2 centreCm) {
    const glm::dvec2 steps = glm::round((centreCm - configured.centreCm) / configured.texelCm());
    return glm::ivec2(steps) - configured.resolution / 2;
}

TexelRect intersection(const TexelRect& a, const TexelRect& b) {
    const glm::ivec2 lo = glm::max(a.origin, b.origin);
    const glm::ivec2 hi = glm::min(a.origin + a.size, b.origin + b.size);
    if (hi.x <= lo.x || hi.y <= lo.y)
        return {};
    return {lo, hi - lo};
}

std::vector<TexelRect> minusRects(std::vector<TexelRect> rects, std::span<const TexelRect> holes) {
    for (const TexelRect& hole : holes) {
        std::vector<TexelRect> kept;
        for (const TexelRect& r : rects) {
            const TexelRect cut = intersection(r, hole);
            if (cut.empty()) {
                kept.push_back(r);
                continue;
            }
            // Up to four pieces: the rows below and above the cut (full width), then the
            // columns left and right of it (the cut's rows).
            const glm::ivec2 lo = r.origin, hi = r.origin + r.size;
            const glm::ivec2 clo = cut.origin, chi = cut.origin + cut.size;
            if (clo.y > lo.y)
                kept.push_back({lo, {r.size.x, clo.y - lo.y}});
            if (chi.y < hi.y)
                kept.push_back({{lo.x, chi.y}, {r.size.x, hi.y - chi.y}});
            if (clo.x > lo.x)
                kept.push_back({{lo.x, clo.y}, {clo.x - lo.x, cut.size.y}});
            if (chi.x < hi.x)
                kept.push_back({{chi.x, clo.y}, {hi.x - chi.x, cut.size.y}});
        }
        rects = std::move(kept);
    }
    return rects;
}

glm::ivec2 WorldPager::windowCorner(glm::dvec2 centreCm) const {
    return snowcap::windowCorner(configured_, centreCm);
}

TexelReadbacks::Sink WorldPager::intoStore() {
    return [this](const TexelRect& rect, long long stamp, std::span<const std::byte> texels) {
        const auto* bits = reinterpret_cast<const std::uint16_t*>(texels.data());
        store_->write(rect, {bits, texels.size() / sizeof(std::uint16_t)}, stamp, log_);
    };
}

void WorldPager::pageOut(const SnowSim& sim, glm::dvec2 toCentre, bool windowClear,
                         std::span<const TexelRect> others) {
    if (windowClear || !sim.allocated())
        return; // every leaving texel is 0, and the store holds 0 under the window
    const auto start = std::chrono::steady_clock::now();
    const glm::ivec2 from = windowCorner(sim.region().centreCm), to = windowCorner(toCentre);
    const int n = configured_.resolution;
    for (const TexelRect& rect : minusRects(squareMinusSquare(from, to, n), others))
        readbacks_.queue(sim.persistent().id(), rect.origin - from, rect, log_.steps(), kHalfBits,
                         intoStore());
    readbacks_.cost().pageOutS += secondsSince(start);
}

float WorldPager::pageIn(const SnowSim& sim, glm::dvec2 fromCentre,
                         std::span<const TexelRect> others) {
    if (!sim.allocated())
        return 0.0f;
    const auto start = std::chrono::steady_clock::now();
    const glm::ivec2 from = windowCorner(fromCentre), to = windowCorner(sim.region().centreCm);
    const std::vector<TexelRect> entering =
        minusRects(squareMinusSquare(to, from, configured_.resolution), others);
    // A readback still in flight that holds entering texels must land first (in order: a
    // later one may overwrite the same texels).
    readbacks_.completeOverlapping(entering, intoStore());
    const float top = restore(sim, entering, to);
    readbacks_.cost().pageInS += secondsSince(start);
    return top;
}

float WorldPager::restore(const SnowSim& sim, const std::vector<TexelRect>& rects,
                          glm::ivec2 corner) {
    float top = 0.0f;
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (const TexelRect& rect : rects) {
        scratch_.resize(static_cast<std::size_t>(rect.size.x) * rect.size.y);
        const float restored = store_->take(rect, scratch_, log_);
        if (restored <= 0.0f)
            continue; // untouched snow: the shift already wrote its zeros
        top = std::max(top, restored);
        const glm::ivec2 local = rect.origin - corner;
        glTextureSubImage2D(sim.persistent().id(), 0, local.x, local.y, rect.size.x, rect.size.y,
                            GL_RED, GL_HALF_FLOAT, scratch_.data());
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    return top;
}

float WorldPager::restoreWindow(const SnowSim& sim, std::span<const TexelRect> others) {
    if (!sim.allocated())
        return 0.0f;
    finish();
    const glm::ivec2 corner = windowCorner(sim.region().centreCm);
    const int n = configured_.resolution;
    return restore(sim, minusRects({{corner, {n, n}}}, others), corner);
}

void WorldPager::afterStep(const SnowSim& sim) {
    AccumulateLaw law = sim.clock().law();
    law.storeRounding = rounding_; // the driver's, which the replay models
    log_.record(sim.lastStep(), law);
    readbacks_.completeReady(intoStore());
    if (log_.steps() % kHealSweepSteps == 0) {
        store_->dropHealed(log_);
        log_.forgetBefore(readbacks_.oldestStamp(store_->oldestStamp(log_.steps())));
    }
}

void WorldPager::finish() {
    readbacks_.finish(intoStore());
}

void WorldPager::reset() {
    readbacks_.clear();
    if (store_)
        store_->clear();
    log_.clear();
}

} // namespace snowcap
