#include "snow/snowpack_store.hpp"

#include <algorithm>
#include <cmath>

namespace snowcap {

SnowColumn SnowpackLog::age(SnowColumn column, long long fromTick, SkyQuanta* sky) const {
    SnowpackConstants c;
    for (long long t = std::max(fromTick, first_); t < ticks(); ++t) {
        const SnowpackEvent& event = events_[static_cast<std::size_t>(t - first_)];
        if (event.weather) {
            // Away from every window nothing presses, and a column alone has a flat surface.
            const WeatheredColumn w = weatherAwayColumn(column, event.tick, event.constants);
            column = w.column;
            if (sky) {
                sky->in += w.inQuanta;
                sky->out += w.outQuanta;
            }
            continue;
        }
        c.maxDensity = event.settle.maxDensity;
        column = settleColumn(column, event.settle.dtS, event.settle.temperatureC, c);
    }
    return column;
}

void SnowpackLog::forgetBefore(long long tick) {
    const long long drop = std::clamp(tick - first_, 0LL, static_cast<long long>(events_.size()));
    events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(drop));
    first_ += drop;
}

void SnowpackLog::clear() {
    events_.clear();
    first_ = 0;
}

namespace {

double kgM2Of(const SnowColumn& c) {
    return double(c.massKgM2) + double(c.waterKgM2);
}

// The undisturbed column, to within the shader's settling against the CPU's.
bool isUndisturbed(const SnowColumn& c, const SnowColumn& undisturbed) {
    return c.massKgM2 == undisturbed.massKgM2 && c.waterKgM2 == undisturbed.waterKgM2 &&
           c.groundPrintCm == undisturbed.groundPrintCm &&
           std::abs(c.depthCm - undisturbed.depthCm) <= SnowpackStore::kUntouchedCm;
}

} // namespace

SnowpackStore::SnowpackStore(int tileTexels, std::size_t capBytes)
    : tileTexels_(tileTexels), capBytes_(capBytes) {}

std::size_t SnowpackStore::tileBytes() const {
    return static_cast<std::size_t>(tileTexels_) * tileTexels_ *
           (sizeof(SnowColumn) + sizeof(std::uint8_t));
}

void SnowpackStore::updateBytes() {
    stats_.tiles = static_cast<long long>(tiles_.size());
    stats_.storeBytes = stats_.tiles * static_cast<long long>(tileBytes());
    stats_.storeBytesPeak = std::max(stats_.storeBytesPeak, stats_.storeBytes);
}

void SnowpackStore::ageTile(Tile& tile, const SnowpackLog& log) {
    if (tile.stamp >= log.ticks())
        return;
    for (std::size_t i = 0; i < tile.columns.size(); ++i)
        if (tile.held[i])
            tile.columns[i] = log.age(tile.columns[i], tile.stamp, &sky_);
    tile.stamp = log.ticks();
}

void SnowpackStore::drop(std::map<Key, Tile>::iterator tile, bool evicted) {
    if (evicted) {
        for (std::size_t i = 0; i < tile->second.columns.size(); ++i)
            if (tile->second.held[i])
                toUndisturbedKgM2_ += kgM2Of(tile->second.columns[i]);
        ++stats_.evictedTiles;
    }
    stats_.texelsHeld -= tile->second.heldCount;
    tiles_.erase(tile);
    updateBytes();
}

void SnowpackStore::makeRoom(const Key& keep) {
    if ((tiles_.size() + 1) * tileBytes() <= capBytes_)
        return;
    // Full: the least recently touched tiles go, an eighth of the cap at once, so the sort is
    // paid once per many new tiles. Their texels come back as the undisturbed column.
    std::vector<std::pair<long long, Key>> ranked;
    for (const auto& [key, tile] : tiles_)
        if (key != keep)
            ranked.push_back({tile.lastSeen, key});
    std::sort(ranked.begin(), ranked.end());
    const std::size_t target = capBytes_ / 8 * 7;
    for (const auto& [seen, key] : ranked) {
        if ((tiles_.size() + 1) * tileBytes() <= target)
            break;
        drop(tiles_.find(key), true);
    }
}

void SnowpackStore::write(const TexelRect& rect, std::span<const SnowColumn> columns,
                          long long stamp, const SnowpackLog& log, const SnowColumn& undisturbed) {
    if (rect.empty())
        return;
    const int t = tileTexels_;
    std::vector<SnowColumn> aged;
    for (const TilePart& piece : tilePartsOf(rect, t)) {
        const int tx = piece.tile.x, ty = piece.tile.y;
        const int x0 = piece.part.origin.x, x1 = x0 + piece.part.size.x;
        const int y0 = piece.part.origin.y, y1 = y0 + piece.part.size.y;
        // The tile's part of the rect, aged to now; undisturbed columns are not kept.
        aged.assign(static_cast<std::size_t>(x1 - x0) * (y1 - y0), SnowColumn{});
        bool any = false;
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) {
                const SnowColumn c =
                    log.age(columns[static_cast<std::size_t>(y - rect.origin.y) * rect.size.x +
                                    (x - rect.origin.x)],
                            stamp, &sky_);
                aged[static_cast<std::size_t>(y - y0) * (x1 - x0) + (x - x0)] = c;
                any = any || !isUndisturbed(c, undisturbed);
            }
        const Key key{tx, ty};
        auto found = tiles_.find(key);
        if (found == tiles_.end()) {
            if (!any) { // untouched snow over an absent tile: the world gives it back
                for (const SnowColumn& c : aged)
                    toUndisturbedKgM2_ += kgM2Of(c);
                continue;
            }
            makeRoom(key);
            Tile tile;
            tile.columns.assign(static_cast<std::size_t>(t) * t, SnowColumn{});
            tile.held.assign(tile.columns.size(), 0);
            tile.stamp = log.ticks();
            found = tiles_.emplace(key, std::move(tile)).first;
            updateBytes();
        }
        Tile& tile = found->second;
        ageTile(tile, log);
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) {
                const SnowColumn& c = aged[static_cast<std::size_t>(y - y0) * (x1 - x0) + (x - x0)];
                const std::size_t i = static_cast<std::size_t>(y - ty * t) * t + (x - tx * t);
                const bool keep = !isUndisturbed(c, undisturbed);
                if (!keep)
                    toUndisturbedKgM2_ += kgM2Of(c);
                // A texel leaving a window is the window's newest: it replaces what the
                // store held there (nothing, while a window held it).
                tile.heldCount += int(keep) - int(tile.held[i]);
                stats_.texelsHeld += int(keep) - int(tile.held[i]);
                tile.held[i] = keep ? 1 : 0;
                tile.columns[i] = keep ? c : SnowColumn{};
            }
        tile.lastSeen = ++touches_;
        ++stats_.pagedOut;
        if (tile.heldCount == 0)
            drop(found, false);
    }
}

SnowpackStore::Taken SnowpackStore::take(const TexelRect& rect, std::span<SnowColumn> out,
                                         const SnowpackLog& log, const SnowColumn& undisturbed) {
    std::fill(out.begin(), out.end(), undisturbed);
    Taken taken;
    if (rect.empty() || tiles_.empty())
        return taken;
    const int t = tileTexels_;
    for (const TilePart& piece : tilePartsOf(rect, t)) {
        const int tx = piece.tile.x, ty = piece.tile.y;
        auto found = tiles_.find({tx, ty});
        if (found == tiles_.end())
            continue;
        Tile& tile = found->second;
        const int x0 = piece.part.origin.x, x1 = x0 + piece.part.size.x;
        const int y0 = piece.part.origin.y, y1 = y0 + piece.part.size.y;
        bool any = false;
        // Only the texels handed back are aged: the rest keep the tile's stamp.
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) {
                const std::size_t i = static_cast<std::size_t>(y - ty * t) * t + (x - tx * t);
                if (!tile.held[i])
                    continue;
                const SnowColumn now = log.age(tile.columns[i], tile.stamp, &sky_);
                out[static_cast<std::size_t>(y - rect.origin.y) * rect.size.x +
                    (x - rect.origin.x)] = now;
                ++taken.texels;
                taken.kgM2 += kgM2Of(now);
                tile.held[i] = 0;
                tile.columns[i] = SnowColumn{};
                --tile.heldCount;
                --stats_.texelsHeld;
                any = true;
            }
        tile.lastSeen = ++touches_;
        if (any)
            ++stats_.pagedIn;
        if (tile.heldCount == 0)
            drop(found, false);
    }
    return taken;
}

void SnowpackStore::clear() {
    tiles_.clear();
    toUndisturbedKgM2_ = 0.0;
    sky_ = {};
    touches_ = 0;
    stats_ = {};
}

void SnowpackStore::ageAll(const SnowpackLog& log) {
    for (auto& [key, tile] : tiles_)
        ageTile(tile, log);
}

double SnowpackStore::heldKgM2() const {
    double sum = 0.0;
    for (const auto& [key, tile] : tiles_)
        for (std::size_t i = 0; i < tile.columns.size(); ++i)
            if (tile.held[i])
                sum += kgM2Of(tile.columns[i]);
    return sum;
}

long long SnowpackStore::oldestStamp(long long now) const {
    for (const auto& [key, tile] : tiles_)
        now = std::min(now, tile.stamp);
    return now;
}

} // namespace snowcap
