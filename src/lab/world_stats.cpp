#include "lab/world_stats.hpp"

#include "core/config.hpp"
#include "snow/snowpack_sim.hpp"

namespace snowcap {

void addWorldStats(nlohmann::json& sim, const SnowField& field, int s,
                   std::span<const DeformerSettings> deformers) {
    if (const WorldPager* world = field.world(s)) {
        // sim.X.persistence = "world": the store's size and traffic.
        const WorldStoreStats& w = world->store().stats();
        const WorldPagingCost& cost = world->cost();
        sim["world"] = {{"tiles", w.tiles},
                        {"tile_texels", world->store().tileTexels()},
                        {"store_bytes", w.storeBytes},
                        {"store_bytes_peak", w.storeBytesPeak},
                        {"cap_bytes", world->store().capBytes()},
                        {"paged_out", w.pagedOut},
                        {"paged_in", w.pagedIn},
                        {"evicted_tiles", w.evictedTiles},
                        {"healed_tiles", w.healedTiles},
                        {"compress", toString(world->store().compression())},
                        {"packed_tiles", w.packedTiles},
                        {"packs", w.packs},
                        {"unpacks", w.unpacks},
                        {"readbacks", cost.readbacks},
                        {"readbacks_waited", cost.readbacksWaited},
                        {"page_out_s", cost.pageOutS},
                        {"page_in_s", cost.pageInS},
                        {"complete_s", cost.completeS}};
    }
    if (const SnowpackSim* snowpack = field.snowpack(s); snowpack && snowpack->world()) {
        // A snowpack's store (docs/snowpack.md section 6.2): columns, not half floats.
        const SnowpackWorld& world = *snowpack->world();
        world.finish();
        const SnowpackStoreStats& w = world.store().stats();
        const WorldPagingCost& cost = world.cost();
        sim["world"] = {{"tiles", w.tiles},
                        {"tile_texels", world.store().tileTexels()},
                        {"texels_held", w.texelsHeld},
                        {"store_bytes", w.storeBytes},
                        {"store_bytes_peak", w.storeBytesPeak},
                        {"cap_bytes", world.store().capBytes()},
                        {"paged_out", w.pagedOut},
                        {"paged_in", w.pagedIn},
                        {"evicted_tiles", w.evictedTiles},
                        {"log_events", world.log().ticks()}, // settling and weather ticks
                        {"readbacks", cost.readbacks},
                        {"readbacks_waited", cost.readbacksWaited},
                        {"page_out_s", cost.pageOutS},
                        {"page_in_s", cost.pageInS},
                        {"complete_s", cost.completeS}};
    }
    if (field.windowCount(s) > 1) {
        // Observers (snow.follow, docs/world.md section 6): where each window ended and whom
        // it follows (a sim has several windows only when snow.follow names them).
        nlohmann::json windows = nlohmann::json::array();
        for (const ObserverWindow& w : field.windows(s)) {
            const bool named = w.deformer >= 0 && w.deformer < int(deformers.size());
            windows.push_back({{"centre_cm", {w.centreCm.x, w.centreCm.y}},
                               {"observer", named ? deformers[w.deformer].name : ""}});
        }
        sim["windows"] = windows;
    }
}

} // namespace snowcap
