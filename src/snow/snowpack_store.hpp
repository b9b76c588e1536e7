#pragma once
// The world store of a following snowpack (sim.X.model = "snowpack", persistence = "world";
// docs/snowpack.md section 6.2): the columns that left the window, kept on the sim's world
// texel grid in square tiles, the four floats of each texel as they were (nothing lost), and
// aged while away as the window ages an untouched column: settling, tick by tick, on the
// snowpack clock's instants (settleColumn, the law the entering column follows). A texel the
// store does not hold is the undisturbed column; one that leaves the window as the undisturbed
// column (its mass and water bit for bit, its depth within kUntouchedCm) is not kept, so a walk
// keeps only its trail (under gusty wind the field's own drift ripples differ from it, and are
// kept). Under [weather] the columns also get each weather tick (weatherAwayColumn). No GL here:
// the GL side is snow/snowpack_world.*.

#include "core/snowpack_laws.hpp"
#include "core/weather_laws.hpp"
#include "snow/world_store.hpp"

#include <cstdint>
#include <map>
#include <span>
#include <vector>

namespace snowcap {

// One settling tick of the sim's clock: what SnowpackSim::step settles every untouched column
// by (the step's ticks folded into one dt, as the compaction pass applies them).
struct SettleTick {
    float dtS = 0.0f;
    float temperatureC = 0.0f;
    float maxDensity = 0.0f;
};

// Under [weather]: one weather tick, as a column away from every window gets it
// (weatherAwayColumn): snowfall, melt (the sun's on a flat surface) and drainage, and under wind
// the drift of a column that receives what it sends (its mass stays; docs/snowpack.md section
// 6.3). `constants` are the sim's (the drift's loose density, maxDensity and texel).
struct SnowpackEvent {
    bool weather = false;
    SettleTick settle;
    WeatherTick tick;
    SnowpackConstants constants;
};

// The snow and water the sky brought to and drained from columns while they were replayed, in
// quanta of kWeatherQuantum kg/m2.
struct SkyQuanta {
    std::uint64_t in = 0;
    std::uint64_t out = 0;
};

// Every settling tick and weather tick of the sim's clock, in the order the frame applies them.
class SnowpackLog {
public:
    void record(const SettleTick& tick) { events_.push_back({false, tick, {}, {}}); }
    void record(const WeatherTick& tick, const SnowpackConstants& constants) {
        events_.push_back({true, {}, tick, constants});
    }
    // Events recorded since the last clear: a column read back now is "as after ticks()".
    long long ticks() const { return first_ + static_cast<long long>(events_.size()); }
    // The column that held `column` after `fromTick` events, replayed to ticks(); what the sky
    // brought and took is added to `sky`.
    SnowColumn age(SnowColumn column, long long fromTick, SkyQuanta* sky = nullptr) const;
    // Drops the events every column still to be aged is past.
    void forgetBefore(long long tick);
    void clear();

private:
    std::vector<SnowpackEvent> events_; // events first_ + 1 .. ticks()
    long long first_ = 0;
};

struct SnowpackStoreStats {
    long long tiles = 0;
    long long storeBytes = 0;
    long long storeBytesPeak = 0;
    long long pagedOut = 0;     // tile writes that kept texels
    long long pagedIn = 0;      // tile reads that handed texels back
    long long evictedTiles = 0; // dropped for the cap while holding texels
    long long texelsHeld = 0;   // texels kept now
};

class SnowpackStore {
public:
    // Depth (cm) within which a column that left with the undisturbed column's mass and water
    // is that column (the shader's settling and the CPU's differ by under 1e-5 cm over two
    // simulated hours: docs/snowpack.md section 6.1).
    static constexpr float kUntouchedCm = 1e-4f;

    struct Tile {
        std::vector<SnowColumn> columns; // tileTexels² row-major, row 0 = bottom
        std::vector<std::uint8_t> held;  // 1 where the store holds the texel
        long long stamp = 0;             // the columns are as after this many settling ticks
        long long lastSeen = 0;          // the write or take that last touched it (a counter)
        int heldCount = 0;
    };
    using Key = std::pair<int, int>;

    SnowpackStore(int tileTexels, std::size_t capBytes);

    // Columns that left a window (rect.size.x x rect.size.y, row-major), as after `stamp`
    // ticks. Those that are `undisturbed` once aged to now are not kept; the kg/m2 (snow and
    // water) of those and of any tile evicted for room is added to `toUndisturbedKgM2`.
    void write(const TexelRect& rect, std::span<const SnowColumn> columns, long long stamp,
               const SnowpackLog& log, const SnowColumn& undisturbed);
    // Columns that enter a window: the held ones aged to now (removed from the store), the
    // others `undisturbed`. Returns how many were held and their kg/m2.
    struct Taken {
        long long texels = 0;
        double kgM2 = 0.0;
    };
    Taken take(const TexelRect& rect, std::span<SnowColumn> out, const SnowpackLog& log,
               const SnowColumn& undisturbed);
    void clear();
    // Every held column replayed to now.
    void ageAll(const SnowpackLog& log);

    // kg/m2 (snow and water) summed over every held texel.
    double heldKgM2() const;
    // kg/m2 that left the store's keeping for the undisturbed snow beyond it, summed.
    double toUndisturbedKgM2() const { return toUndisturbedKgM2_; }
    // What the sky brought to and drained from the columns while they were in the store.
    const SkyQuanta& sky() const { return sky_; }
    long long oldestStamp(long long now) const;
    int tileTexels() const { return tileTexels_; }
    std::size_t capBytes() const { return capBytes_; }
    void setCapBytes(std::size_t capBytes) { capBytes_ = capBytes; }
    std::size_t tileBytes() const;
    const SnowpackStoreStats& stats() const { return stats_; }
    const std::map<Key, Tile>& tiles() const { return tiles_; }

private:
    void ageTile(Tile& tile, const SnowpackLog& log);
    void makeRoom(const Key& keep);
    void drop(std::map<Key, Tile>::iterator tile, bool evicted);
    void updateBytes();

    int tileTexels_;
    std::size_t capBytes_;
    std::map<Key, Tile> tiles_;
    long long touches_ = 0;
    double toUndisturbedKgM2_ = 0.0;
    SkyQuanta sky_;
    SnowpackStoreStats stats_;
};

} // namespace snowcap
