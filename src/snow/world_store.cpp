#include "snow/world_store.hpp"

#include <algorithm>
#include <glm/common.hpp>
#include <limits>
#include <unordered_map>

namespace snowcap {

bool TexelRect::overlaps(const TexelRect& o) const {
    return !empty() && !o.empty() && origin.x < o.origin.x + o.size.x &&
           o.origin.x < origin.x + size.x && origin.y < o.origin.y + o.size.y &&
           o.origin.y < origin.y + size.y;
}

std::vector<TilePart> tilePartsOf(const TexelRect& rect, int tileTexels) {
    std::vector<TilePart> parts;
    if (rect.empty())
        return parts;
    const int t = tileTexels;
    const glm::ivec2 end = rect.origin + rect.size;
    const glm::ivec2 lo{tileIndexOf(rect.origin.x, t), tileIndexOf(rect.origin.y, t)};
    const glm::ivec2 hi{tileIndexOf(end.x - 1, t), tileIndexOf(end.y - 1, t)};
    for (int ty = lo.y; ty <= hi.y; ++ty)
        for (int tx = lo.x; tx <= hi.x; ++tx) {
            const glm::ivec2 from = glm::max(rect.origin, glm::ivec2(tx, ty) * t);
            const glm::ivec2 to = glm::min(end, glm::ivec2(tx + 1, ty + 1) * t);
            parts.push_back({{tx, ty}, {from, to - from}});
        }
    return parts;
}

std::vector<TexelRect> squareMinusSquare(glm::ivec2 from, glm::ivec2 to, int n) {
    const glm::ivec2 d = to - from;
    if (std::abs(d.x) >= n || std::abs(d.y) >= n)
        return {{from, {n, n}}}; // no overlap: all of it
    std::vector<TexelRect> out;
    // Whole columns the other square misses, then the rows it misses over the shared columns.
    if (d.x > 0)
        out.push_back({from, {d.x, n}});
    else if (d.x < 0)
        out.push_back({{from.x + n + d.x, from.y}, {-d.x, n}});
    const int x0 = std::max(from.x, to.x), x1 = std::min(from.x, to.x) + n;
    if (d.y > 0)
        out.push_back({{x0, from.y}, {x1 - x0, d.y}});
    else if (d.y < 0)
        out.push_back({{x0, from.y + n + d.y}, {x1 - x0, -d.y}});
    return out;
}

namespace {

// Ages half bits from `from` to now, each distinct value once (a trail has few of them).
struct AgedBits {
    const AgingLog& log;
    long long from;
    bool changes = log.changesAfter(from);
    std::unordered_map<std::uint16_t, std::uint16_t> memo;
    std::uint16_t operator()(std::uint16_t bits) {
        if (bits == 0 || !changes)
            return bits;
        auto [it, inserted] = memo.try_emplace(bits, 0);
        if (inserted)
            it->second = log.ageBits(bits, from);
        return it->second;
    }
};

} // namespace

WorldStore::WorldStore(int tileTexels, int channels, std::size_t capBytes, EvictionPolicy policy,
                       TileCompression compression)
    : tileTexels_(tileTexels), channels_(channels), capBytes_(capBytes), policy_(policy),
      compression_(compression) {}

std::size_t WorldStore::tileBytes() const {
    return static_cast<std::size_t>(tileTexels_) * tileTexels_ * channels_ * sizeof(std::uint16_t);
}

std::size_t WorldStore::heldBytes(const Tile& tile) const {
    return tile.isPacked() ? tile.packed.size() : tileBytes();
}

std::vector<std::uint16_t> WorldStore::tileBits(const Tile& tile) const {
    if (!tile.isPacked())
        return tile.bits;
    std::vector<std::uint16_t> bits(tileBytes() / sizeof(std::uint16_t));
    if (!unpackTile(tile.packedWith, tile.packed, bits))
        std::fill(bits.begin(), bits.end(), std::uint16_t{0}); // never: the store packed it
    return bits;
}

void WorldStore::rebook(std::size_t before, std::size_t after) {
    bytes_ = bytes_ - before + after;
    updateBytes();
}

void WorldStore::pack(Tile& tile) {
    if (compression_ == TileCompression::Off || tile.isPacked() || tile.incompressible)
        return;
    std::vector<std::uint8_t> packed = packTile(compression_, tile.bits);
    if (packed.size() >= tileBytes()) {
        tile.incompressible = true; // keep it as it is rather than pay for nothing
        return;
    }
    tile.packed = std::move(packed);
    tile.packedWith = compression_;
    tile.bits = {};
    ++stats_.packs;
    ++stats_.packedTiles;
    rebook(tileBytes(), tile.packed.size());
}

void WorldStore::unpack(const Key& key, Tile& tile, const AgingLog& log) {
    if (!tile.isPacked())
        return;
    // Unpacked, the tile holds tileBytes(): room first, so the cap holds at every moment.
    makeRoom(tileBytes() - tile.packed.size(), log, &key);
    const std::size_t before = tile.packed.size();
    tile.bits = tileBits(tile);
    tile.packed = {};
    ++stats_.unpacks;
    --stats_.packedTiles;
    rebook(before, tileBytes());
}

void WorldStore::ageTile(Tile& tile, const AgingLog& log) {
    if (tile.stamp >= log.steps())
        return;
    if (!log.changesAfter(tile.stamp)) {
        tile.stamp = log.steps();
        return;
    }
    AgedBits aged{log, tile.stamp};
    if (tile.isPacked()) {
        // Aged where it lies: unpacked only for the replay, so ageing never needs room.
        std::vector<std::uint16_t> bits = tileBits(tile);
        for (std::uint16_t& b : bits)
            b = aged(b);
        const std::size_t before = tile.packed.size();
        tile.packed = packTile(tile.packedWith, bits);
        tile.stamp = log.steps();
        rebook(before, tile.packed.size());
        return;
    }
    for (std::uint16_t& bits : tile.bits)
        bits = aged(bits);
    tile.stamp = log.steps();
}

void WorldStore::refreshTop(Tile& tile) {
    tile.top = *std::max_element(tile.bits.begin(), tile.bits.end()); // bits order = value order
    tile.topStamp = tile.stamp;
}

std::uint16_t WorldStore::topNow(Tile& tile, const AgingLog& log) {
    if (tile.topStamp < log.steps()) {
        tile.top = log.ageBits(tile.top, tile.topStamp);
        tile.topStamp = log.steps();
    }
    return tile.top;
}

void WorldStore::updateBytes() {
    stats_.tiles = static_cast<long long>(tiles_.size());
    stats_.storeBytes = static_cast<long long>(bytes_);
    stats_.storeBytesPeak = std::max(stats_.storeBytesPeak, stats_.storeBytes);
}

void WorldStore::drop(std::map<Key, Tile>::iterator tile, bool evicted) {
    if (tile->second.isPacked())
        --stats_.packedTiles;
    bytes_ -= heldBytes(tile->second);
    tiles_.erase(tile);
    if (evicted)
        ++stats_.evictedTiles;
    updateBytes();
}

static bool allZero(const std::vector<std::uint16_t>& bits) {
    return std::all_of(bits.begin(), bits.end(), [](std::uint16_t b) { return b == 0; });
}

void WorldStore::makeRoom(std::size_t extra, const AgingLog& log, const Key* keep) {
    if (bytes_ + extra <= capBytes_)
        return;
    // Full: get an eighth of the cap back at once, so the work below is paid once per many
    // new tiles rather than once per tile. Packing loses nothing, so it goes first: every
    // tile not touched this step.
    const std::size_t target = capBytes_ / 8 * 7;
    auto roomy = [&] {
        return bytes_ <= target && bytes_ + extra <= capBytes_;
    };
    if (compression_ != TileCompression::Off) {
        for (auto& [key, tile] : tiles_)
            if (tile.lastSeen < log.steps() && !(keep && key == *keep))
                pack(tile);
        if (roomy())
            return;
    }
    std::vector<std::pair<double, Key>> ranked; // lowest score goes first
    ranked.reserve(tiles_.size());
    for (auto& [key, tile] : tiles_) {
        if (keep && key == *keep)
            continue;
        const double score = policy_ == EvictionPolicy::MostHealed
                                 ? double(halfBitsToFloat(topNow(tile, log)))
                                 : static_cast<double>(tile.lastSeen);
        ranked.push_back({score, key});
    }
    std::sort(ranked.begin(), ranked.end());
    for (const auto& [score, key] : ranked) {
        if (roomy())
            break;
        drop(tiles_.find(key), true);
    }
}

void WorldStore::write(const TexelRect& rect, std::span<const std::uint16_t> bits, long long stamp,
                       const AgingLog& log) {
    if (rect.empty())
        return;
    const int t = tileTexels_, ch = channels_;
    AgedBits aged{log, stamp};
    for (const TilePart& piece : tilePartsOf(rect, t)) {
        const int tx = piece.tile.x, ty = piece.tile.y;
        const int x0 = piece.part.origin.x, x1 = x0 + piece.part.size.x;
        const int y0 = piece.part.origin.y, y1 = y0 + piece.part.size.y;
        auto source = [&](int x, int y, int c) {
            return bits[((static_cast<std::size_t>(y - rect.origin.y) * rect.size.x) +
                         (x - rect.origin.x)) *
                            ch +
                        c];
        };
        auto found = tiles_.find({tx, ty});
        if (found == tiles_.end()) {
            bool any = false;
            for (int y = y0; y < y1 && !any; ++y)
                for (int x = x0; x < x1 && !any; ++x)
                    any = source(x, y, 0) != 0 && aged(source(x, y, 0)) != 0;
            if (!any)
                continue; // untouched snow over an absent tile: nothing to keep
            makeRoom(tileBytes(), log, nullptr);
            Tile tile;
            tile.bits.assign(static_cast<std::size_t>(t) * t * ch, 0);
            tile.stamp = log.steps();
            found = tiles_.emplace(Key{tx, ty}, std::move(tile)).first;
            rebook(0, tileBytes());
        }
        Tile& tile = found->second;
        unpack(found->first, tile, log);
        ageTile(tile, log);
        tile.incompressible = false;
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x)
                for (int c = 0; c < ch; ++c)
                    tile.bits[(static_cast<std::size_t>(y - ty * t) * t + (x - tx * t)) * ch + c] =
                        aged(source(x, y, c));
        tile.lastSeen = log.steps();
        refreshTop(tile);
        ++stats_.pagedOut;
        if (allZero(tile.bits)) {
            drop(found, false);
            ++stats_.healedTiles;
        }
    }
}

float WorldStore::take(const TexelRect& rect, std::span<std::uint16_t> out, const AgingLog& log) {
    std::fill(out.begin(), out.end(), std::uint16_t{0});
    if (rect.empty() || tiles_.empty())
        return 0.0f;
    const int t = tileTexels_, ch = channels_;
    float top = 0.0f;
    for (const TilePart& piece : tilePartsOf(rect, t)) {
        const int tx = piece.tile.x, ty = piece.tile.y;
        auto found = tiles_.find({tx, ty});
        if (found == tiles_.end())
            continue;
        Tile& tile = found->second;
        unpack(found->first, tile, log);
        // Only the texels handed back are aged: the rest keep the tile's stamp, and the 0
        // left in their place is 0 at any stamp (nothing presses), so the tile stays
        // consistent without ageing all of it on every page-in.
        AgedBits aged{log, tile.stamp};
        const int x0 = piece.part.origin.x, x1 = x0 + piece.part.size.x;
        const int y0 = piece.part.origin.y, y1 = y0 + piece.part.size.y;
        bool any = false;
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x)
                for (int c = 0; c < ch; ++c) {
                    std::uint16_t& from =
                        tile.bits[(static_cast<std::size_t>(y - ty * t) * t + (x - tx * t)) * ch +
                                  c];
                    const std::uint16_t now = aged(from);
                    out[((static_cast<std::size_t>(y - rect.origin.y) * rect.size.x) +
                         (x - rect.origin.x)) *
                            ch +
                        c] = now;
                    if (c == 0 && now != 0) {
                        any = true;
                        top = std::max(top, halfBitsToFloat(now));
                    }
                    from = 0; // the window holds it now
                }
        tile.lastSeen = log.steps();
        refreshTop(tile);
        if (any)
            ++stats_.pagedIn;
        if (allZero(tile.bits))
            drop(found, false);
    }
    return top;
}

void WorldStore::ageAll(const AgingLog& log) {
    for (auto it = tiles_.begin(); it != tiles_.end();) {
        ageTile(it->second, log);
        if (topNow(it->second, log) == 0) { // monotone law: all 0 exactly when its top is
            auto healed = it++;
            drop(healed, false);
            ++stats_.healedTiles;
        } else {
            ++it;
        }
    }
}

void WorldStore::dropHealed(const AgingLog& log) {
    for (auto it = tiles_.begin(); it != tiles_.end();) {
        // Monotone law: the tile is all 0 now exactly when its largest value has aged to 0.
        if (topNow(it->second, log) == 0) {
            auto healed = it++;
            drop(healed, false);
            ++stats_.healedTiles;
        } else {
            if (it->second.lastSeen + kColdSteps <= log.steps())
                pack(it->second);
            ++it;
        }
    }
}

void WorldStore::clear() {
    tiles_.clear();
    bytes_ = 0;
    stats_ = {};
}

long long WorldStore::oldestStamp(long long now) const {
    long long oldest = now;
    for (const auto& [key, tile] : tiles_)
        oldest = std::min(oldest, tile.stamp);
    return oldest;
}

void WorldStore::insert(Key key, Tile tile) {
    if (!tile.isPacked())
        refreshTop(tile); // a packed tile brings its top along
    if (auto old = tiles_.find(key); old != tiles_.end())
        drop(old, false);
    if (tile.isPacked())
        ++stats_.packedTiles;
    const std::size_t held = heldBytes(tile);
    tiles_.emplace(key, std::move(tile));
    rebook(0, held);
}

} // namespace snowcap
