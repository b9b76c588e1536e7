#include "snow/snowpack_world.hpp"

#include "snow/world_pager.hpp"

#include <chrono>
#include <cstring>

namespace snowcap {

namespace {

// The state as it is in its RGBA32F texture: four floats a texel, the bits themselves.
constexpr TexelLayout kColumns{GL_RGBA, GL_FLOAT, sizeof(SnowColumn)};
// Every this many steps the log forgets the ticks no stored column still needs.
constexpr long long kForgetSteps = 64;

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

bool SnowpackWorld::configure(const Region& configured, int storeMib) {
    const std::size_t cap = static_cast<std::size_t>(std::max(storeMib, 1)) << 20;
    const int tile = WorldPager::tileTexelsFor(configured.resolution);
    if (store_ && configured_ == configured && store_->tileTexels() == tile) {
        store_->setCapBytes(cap); // a smaller cap evicts on the next write
        return false;
    }
    // A new grid: an empty store (the state it belonged to is refilled on a new grid).
    readbacks_.clear();
    configured_ = configured;
    store_.emplace(tile, cap);
    log_.clear();
    return true;
}

glm::ivec2 SnowpackWorld::windowCorner(glm::dvec2 centreCm) const {
    return snowcap::windowCorner(configured_, centreCm);
}

TexelReadbacks::Sink SnowpackWorld::intoStore() const {
    return [this](const TexelRect& rect, long long stamp, std::span<const std::byte> texels) {
        std::vector<SnowColumn> columns(texels.size() / sizeof(SnowColumn));
        std::memcpy(columns.data(), texels.data(), columns.size() * sizeof(SnowColumn));
        store_->write(rect, columns, stamp, log_, undisturbed_);
    };
}

void SnowpackWorld::pageOut(const gpu::Texture2D& state, glm::dvec2 fromCentre,
                            glm::dvec2 toCentre) {
    const auto start = std::chrono::steady_clock::now();
    const glm::ivec2 from = windowCorner(fromCentre), to = windowCorner(toCentre);
    for (const TexelRect& rect : squareMinusSquare(from, to, configured_.resolution))
        readbacks_.queue(state.id(), rect.origin - from, rect, log_.ticks(), kColumns, intoStore());
    readbacks_.cost().pageOutS += secondsSince(start);
}

SnowpackStore::Taken SnowpackWorld::pageIn(const gpu::Texture2D& state, glm::dvec2 fromCentre,
                                           glm::dvec2 toCentre) {
    const auto start = std::chrono::steady_clock::now();
    const glm::ivec2 from = windowCorner(fromCentre), to = windowCorner(toCentre);
    const std::vector<TexelRect> entering = squareMinusSquare(to, from, configured_.resolution);
    // A readback still in flight that holds entering texels lands first.
    readbacks_.completeOverlapping(entering, intoStore());
    SnowpackStore::Taken total;
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (const TexelRect& rect : entering) {
        scratch_.resize(static_cast<std::size_t>(rect.size.x) * rect.size.y);
        const SnowpackStore::Taken taken = store_->take(rect, scratch_, log_, undisturbed_);
        if (taken.texels == 0)
            continue; // all undisturbed: the move already wrote it
        total.texels += taken.texels;
        total.kgM2 += taken.kgM2;
        const glm::ivec2 local = rect.origin - to;
        glTextureSubImage2D(state.id(), 0, local.x, local.y, rect.size.x, rect.size.y, GL_RGBA,
                            GL_FLOAT, scratch_.data());
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    readbacks_.cost().pageInS += secondsSince(start);
    return total;
}

void SnowpackWorld::settled(const SettleTick& tick, const SnowColumn& undisturbed) {
    log_.record(tick);
    undisturbed_ = undisturbed;
}

void SnowpackWorld::weathered(const WeatherTick& tick, const SnowpackConstants& constants,
                              const SnowColumn& undisturbed) {
    log_.record(tick, constants);
    undisturbed_ = undisturbed;
}

void SnowpackWorld::afterStep() {
    readbacks_.completeReady(intoStore());
    if (++steps_ % kForgetSteps == 0)
        log_.forgetBefore(readbacks_.oldestStamp(store_->oldestStamp(log_.ticks())));
}

void SnowpackWorld::reset(const SnowColumn& undisturbed) {
    readbacks_.clear();
    if (store_)
        store_->clear();
    log_.clear();
    undisturbed_ = undisturbed;
    steps_ = 0;
}

void SnowpackWorld::finish() const {
    readbacks_.finish(intoStore());
    store_->ageAll(log_); // every column as of now: what the budget reads
}

SnowpackWorld::Terms SnowpackWorld::terms() const {
    finish();
    return {store_->heldKgM2(), store_->toUndisturbedKgM2(),
            static_cast<double>(store_->sky().in) * static_cast<double>(kWeatherQuantum),
            static_cast<double>(store_->sky().out) * static_cast<double>(kWeatherQuantum)};
}

} // namespace snowcap
