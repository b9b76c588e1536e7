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
// Readbacks in flight before the oldest is waited for (bounds the pixel buffers' memory).
constexpr std::size_t kMaxInFlight = 8;

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

void WorldPager::pageOut(const SnowSim& sim, glm::dvec2 toCentre, bool windowClear,
                         std::span<const TexelRect> others) {
    if (windowClear || !sim.allocated())
        return; // every leaving texel is 0, and the store holds 0 under the window
    const auto start = std::chrono::steady_clock::now();
    const glm::ivec2 from = windowCorner(sim.region().centreCm), to = windowCorner(toCentre);
    const int n = configured_.resolution;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    for (const TexelRect& rect : minusRects(squareMinusSquare(from, to, n), others)) {
        const std::size_t bytes =
            static_cast<std::size_t>(rect.size.x) * rect.size.y * sizeof(std::uint16_t);
        Readback readback;
        auto spare = std::find_if(spare_.begin(), spare_.end(),
                                  [&](const Readback& r) { return r.capacity >= bytes; });
        if (spare != spare_.end()) {
            readback = std::move(*spare);
            spare_.erase(spare);
        } else {
            GLuint id = 0;
            glCreateBuffers(1, &id);
            glNamedBufferStorage(id, static_cast<GLsizeiptr>(bytes), nullptr, GL_MAP_READ_BIT);
            readback.pbo = gpu::UniqueName<gpu::ObjectKind::Buffer>(id);
            readback.capacity = bytes;
        }
        readback.rect = rect;
        readback.stamp = log_.steps();
        const glm::ivec2 local = rect.origin - from;
        glBindBuffer(GL_PIXEL_PACK_BUFFER, readback.pbo.id());
        glGetTextureSubImage(sim.persistent().id(), 0, local.x, local.y, 0, rect.size.x,
                             rect.size.y, 1, GL_RED, GL_HALF_FLOAT, static_cast<GLsizei>(bytes),
                             nullptr);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        readback.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        inFlight_.push_back(std::move(readback));
        ++cost_.readbacks;
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    while (inFlight_.size() > kMaxInFlight) {
        complete(inFlight_.front(), true);
        spare_.push_back(std::move(inFlight_.front()));
        inFlight_.pop_front();
    }
    cost_.pageOutS += secondsSince(start);
}

void WorldPager::complete(Readback& readback, bool wait) {
    const auto start = std::chrono::steady_clock::now();
    if (readback.fence) {
        glClientWaitSync(readback.fence, GL_SYNC_FLUSH_COMMANDS_BIT,
                         wait ? GLuint64(10'000'000'000) : 0);
        glDeleteSync(readback.fence);
        readback.fence = nullptr;
    }
    const std::size_t count = static_cast<std::size_t>(readback.rect.size.x) * readback.rect.size.y;
    const auto* mapped = static_cast<const std::uint16_t*>(glMapNamedBufferRange(
        readback.pbo.id(), 0, static_cast<GLsizeiptr>(count * sizeof(std::uint16_t)),
        GL_MAP_READ_BIT));
    if (mapped) {
        store_->write(readback.rect, {mapped, count}, readback.stamp, log_);
        glUnmapNamedBuffer(readback.pbo.id());
    }
    cost_.completeS += secondsSince(start);
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
    std::size_t needed = 0;
    for (std::size_t i = 0; i < inFlight_.size(); ++i)
        for (const TexelRect& rect : entering)
            if (inFlight_[i].rect.overlaps(rect))
                needed = i + 1;
    for (std::size_t i = 0; i < needed; ++i) {
        complete(inFlight_.front(), true);
        ++cost_.readbacksWaited;
        spare_.push_back(std::move(inFlight_.front()));
        inFlight_.pop_front();
    }
    const float top = restore(sim, entering, to);
    cost_.pageInS += secondsSince(start);
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
    while (!inFlight_.empty()) {
        const GLenum state =
            glClientWaitSync(inFlight_.front().fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
        if (state != GL_ALREADY_SIGNALED && state != GL_CONDITION_SATISFIED)
            break;
        complete(inFlight_.front(), false);
        spare_.push_back(std::move(inFlight_.front()));
        inFlight_.pop_front();
    }
    if (log_.steps() % kHealSweepSteps == 0) {
        store_->dropHealed(log_);
        long long oldest = store_->oldestStamp(log_.steps());
        for (const Readback& r : inFlight_)
            oldest = std::min(oldest, r.stamp);
        log_.forgetBefore(oldest);
    }
}

void WorldPager::finish() {
    while (!inFlight_.empty()) {
        complete(inFlight_.front(), true);
        spare_.push_back(std::move(inFlight_.front()));
        inFlight_.pop_front();
    }
}

WorldPager::~WorldPager() {
    for (Readback& r : inFlight_)
        if (r.fence)
            glDeleteSync(r.fence);
}

void WorldPager::reset() {
    for (Readback& r : inFlight_)
        if (r.fence)
            glDeleteSync(r.fence);
    inFlight_.clear();
    if (store_)
        store_->clear();
    log_.clear();
}

} // namespace snowcap
