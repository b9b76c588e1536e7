// The `world` cases of `snowcap bench` (sim.X.persistence = "world", docs/world.md): a pressing
// deformer walks 1.5 window widths out along X and back over its own trail, followed by two
// fields stepped alternately in the same run, one forgetting what it scrolls past ("window")
// and one paging it through its world store ("world"). From the per-step wall times: the
// follow step with paging against the same step without it, the worst step of the return (the
// store handing the trail back) against a normal step, page-out and page-in cost per tile,
// store bytes per km of trail and per km² trampled, and each codec's ratio and cost per tile on
// the tiles the walk stored.
#include "bench/bench_world.hpp"

#include "bench/case_support.hpp"
#include "core/config.hpp"
#include "snow/snow_field.hpp"
#include "snow/tile_codec.hpp"
#include "snow/world_pager.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <glm/gtc/matrix_transform.hpp>

namespace snowcap::bench {

namespace {

// Steps each way: the walk covers 1.5 window widths at 1/200 of a width a step, whatever the
// size, so every size pages the same share of its window per step.
constexpr int kLegSteps = 300;
constexpr float kRadiusCm = 20.0f, kPressCm = 10.0f;

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// One step as a whole frame pays for it: serialized wall time (the paging work is on the CPU
// as much as on the GPU).
double timedStep(SnowField& field, const DeformerInstance& deformer) {
    glFinish();
    const auto start = std::chrono::steady_clock::now();
    field.step({&deformer, 1}, kDt);
    glFinish();
    return msSince(start);
}

Case stepCase(std::string variant, const std::string& size, long long texels,
              std::vector<double> ms) {
    Case c;
    c.pass = "world";
    c.variant = std::move(variant);
    c.size = size;
    c.floor = size;
    c.elements = texels;
    c.method = "serialized_wall";
    c.samples = static_cast<int>(ms.size());
    std::sort(ms.begin(), ms.end());
    c.medianMs = ms[ms.size() / 2];
    c.minMs = ms.front();
    c.maxMs = ms.back();
    return c;
}

Case perTileCase(std::string variant, const std::string& size, double totalMs, long long tiles,
                 std::string note) {
    Case c;
    c.pass = "world";
    c.variant = std::move(variant);
    c.size = size;
    c.elements = 1;
    c.unit = "tiles";
    c.method = "cpu_clock";
    c.samples = static_cast<int>(tiles);
    c.medianMs = c.minMs = c.maxMs = tiles > 0 ? totalMs / double(tiles) : 0.0;
    c.note = std::move(note);
    return c;
}

// Packs and unpacks every tile with each codec: ratio and cost per tile.
void codecCases(Context& context, const std::string& size, const WorldStore& store) {
    std::vector<std::vector<std::uint16_t>> tiles;
    for (const auto& [key, tile] : store.tiles())
        tiles.push_back(store.tileBits(tile));
    if (tiles.empty())
        return;
    const double raw = double(tiles.size() * store.tileBytes());
    for (TileCompression codec : {TileCompression::Lz4, TileCompression::Zstd}) {
        std::vector<std::vector<std::uint8_t>> packed(tiles.size());
        auto start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < tiles.size(); ++i)
            packed[i] = packTile(codec, tiles[i]);
        const double packMs = msSince(start);
        std::vector<std::uint16_t> back(tiles[0].size());
        bool exact = true;
        start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < tiles.size(); ++i)
            exact = unpackTile(codec, packed[i], back) && back == tiles[i] && exact;
        const double unpackMs = msSince(start);
        double bytes = 0;
        for (const auto& p : packed)
            bytes += double(p.size());
        const std::string name(toString(codec));
        const long long n = static_cast<long long>(tiles.size());
        Case& pack = context.harness.add(
            perTileCase("pack_" + name, size, packMs, n, fmt::format("{} tiles of the walk", n)));
        pack.extra["ratio"] = raw / bytes;
        pack.extra["raw_bytes"] = raw;
        pack.extra["packed_bytes"] = bytes;
        Case& unpack = context.harness.add(perTileCase(
            "unpack_" + name, size, unpackMs, n,
            exact ? "bit-exact" : "NOT bit-exact: a codec bug (tests/snow/WorldStoreTest)"));
        unpack.extra["exact"] = exact;
    }
}

} // namespace

std::optional<std::string> worldCases(Context& context, int size) {
    Harness& h = context.harness;
    if (!h.wants("world"))
        return std::nullopt;
    auto sized = sizedScenario(context, size, {"snow.idle_skip=false"});
    if (auto* error = std::get_if<std::string>(&sized))
        return *error;
    const std::string label = std::get<SizedScenario>(sized).label;
    Settings base = std::get<SizedScenario>(sized).settings;
    base.deformers.clear(); // the bench's own deformer is the first instance: it is followed
    base.snow.follow = {};  // "": the first instance
    for (SimSettings& sim : base.sims) {
        sim.region = RegionMode::FollowSnapped;
        sim.format = BufferFormat::R16F;
    }
    Settings window = base, world = base;
    for (SimSettings& sim : world.sims)
        sim.persistence = Persistence::World;
    auto made = SnowField::create(window, context.shaders);
    if (auto* error = std::get_if<std::string>(&made))
        return *error;
    auto madeWorld = SnowField::create(world, context.shaders);
    if (auto* error = std::get_if<std::string>(&madeWorld))
        return *error;
    SnowField& plain = *std::get<0>(made);
    SnowField& paged = *std::get<0>(madeWorld);

    const Mesh sphere = denseSphere(kRadiusCm, 2000);
    gpu::GpuMesh mesh(sphere, "bench.world_walker");
    const double widthCm = base.snow.orthoWidthCm, stepCm = widthCm / 200.0;
    auto at = [&](int i) {
        const double x = (i <= kLegSteps ? i : 2 * kLegSteps - i) * stepCm;
        const glm::mat4 model =
            glm::translate(glm::mat4(1.0f), {float(x), 0.0f, kRadiusCm - kPressCm});
        return DeformerInstance{
            &mesh, model, sphere.bounds().transformed(model), {}, ContactType::Foot};
    };
    // A few steps in place first (shaders, first allocations), not timed.
    const DeformerInstance start = at(0);
    for (int i = 0; i < 5; ++i) {
        plain.step({&start, 1}, kDt);
        paged.step({&start, 1}, kDt);
    }
    std::vector<double> plainMs, pagedMs, returnMs;
    for (int i = 1; i <= 2 * kLegSteps; ++i) {
        const DeformerInstance d = at(i);
        // Alternate which field goes first, so neither always steps on a warmer cache.
        double a, b;
        if (i % 2) {
            a = timedStep(plain, d);
            b = timedStep(paged, d);
        } else {
            b = timedStep(paged, d);
            a = timedStep(plain, d);
        }
        plainMs.push_back(a);
        pagedMs.push_back(b);
        if (i > kLegSteps)
            returnMs.push_back(b);
        if (i == kLegSteps)
            codecCases(context, label, paged.world(0)->store()); // the store at its fullest
    }
    const long long texels = static_cast<long long>(size) * size;
    Case normal = stepCase("follow_window", label, texels, plainMs);
    Case paging = stepCase("follow_paging", label, texels, pagedMs);
    Case back = stepCase("return", label, texels, returnMs);
    paging.extra["x_follow_window"] = paging.medianMs / normal.medianMs;
    back.extra["worst_x_follow_window"] = back.maxMs / normal.medianMs;

    // Sim a's store (both sims page alike); the CPU side of paging, per tile.
    const WorldPager& pager = *paged.world(0);
    const WorldStoreStats& s = pager.store().stats();
    const WorldPagingCost& cost = pager.cost();
    // Trail outside the window at the turn: the walk's length less the half window it stood in.
    const double trailKm = (kLegSteps * stepCm - widthCm / 2.0) / 1e5;
    const double r = kRadiusCm, below = kRadiusCm - kPressCm;
    const double trailWidthKm = 2.0 * std::sqrt(r * r - below * below) / 1e5;
    paging.extra["store_bytes_peak"] = s.storeBytesPeak;
    paging.extra["paged_out_tiles"] = s.pagedOut;
    paging.extra["paged_in_tiles"] = s.pagedIn;
    paging.extra["evicted_tiles"] = s.evictedTiles;
    paging.extra["compress"] = toString(pager.store().compression());
    paging.extra["store_bytes_per_km_trail"] = double(s.storeBytesPeak) / trailKm;
    paging.extra["store_bytes_per_km2_trampled"] =
        double(s.storeBytesPeak) / trailKm / trailWidthKm;
    paging.note = fmt::format("{:.0f} m out and back at {:.1f} cm a step",
                              kLegSteps * stepCm / 100.0, stepCm);
    h.add(std::move(normal));
    h.add(std::move(paging));
    h.add(std::move(back));
    h.add(perTileCase("page_out_tile", label, (cost.pageOutS + cost.completeS) * 1e3, s.pagedOut,
                      "readbacks queued and landed in the store, per tile written"));
    h.add(perTileCase("page_in_tile", label, cost.pageInS * 1e3, s.pagedIn,
                      fmt::format("per tile handed back; {} of {} readbacks waited for",
                                  cost.readbacksWaited, cost.readbacks)));
    return std::nullopt;
}

} // namespace snowcap::bench
