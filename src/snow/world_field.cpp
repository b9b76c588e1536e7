// SnowField's part of sim.X.persistence = "world" (declared in snow_field.hpp): the field
// keeps one WorldPager per sim that has a world store, pages around every move of its window
// and lets the pager log every step of the sim's clock. docs/world.md has the design.
#include "gpu/half_store_probe.hpp"
#include "snow/snow_field.hpp"

namespace snowcap {

std::optional<std::string> SnowField::worldSettingsError(const Settings& settings) {
    for (int i = 0; i < static_cast<int>(settings.sims.size()); ++i)
        if (std::string error = worldPersistenceError(settings.sims[i], settings.capture, i);
            !error.empty())
            return error;
    return std::nullopt;
}

std::optional<std::string> SnowField::configureWorlds() {
    for (int i = simCount(); i < kMaxSims; ++i)
        worlds_[i].reset(); // sims that went away take their store with them
    for (int i = 0; i < simCount(); ++i) {
        const SimSettings& sim = effective_.sims[i];
        // A fixed region never scrolls anything past: it needs no store. A snowpack keeps its
        // columns in its own (SnowpackSim::setWorld); its mask buffer carries nothing.
        if (sim.persistence != Persistence::World || sim.region != RegionMode::FollowSnapped ||
            sim.model == SimModel::Snowpack) {
            worlds_[i].reset();
            continue;
        }
        if (!halfStore_) {
            // The store replays the pass, so it rounds as this driver's R16F store does (only
            // half_safe = false depends on it).
            auto detected = gpu::detectHalfStoreRounding(shaders_);
            if (auto* error = std::get_if<std::string>(&detected)) {
                linkWorlds(); // the stores reset above must not stay linked
                return *error;
            }
            halfStore_ = std::get<HalfRounding>(detected);
        }
        if (!worlds_[i])
            worlds_[i] = std::make_unique<WorldPager>();
        worlds_[i]->configure(simRegion(effective_, i), effective_.snow.worldStoreMib, *halfStore_);
        worlds_[i]->store().setCompression(effective_.snow.worldCompress);
    }
    linkWorlds();
    return std::nullopt;
}

void SnowField::restoreWorldWindows() {
    for (int i = 0; i < simCount(); ++i) {
        if (!worlds_[i])
            continue;
        // Each texel comes from the store into the lowest window covering it, and from there
        // into the others; every window steps on the loaded clock.
        for (int w = 1; w < windowCount(i); ++w)
            windowAt(i, w).sim.restoreClock(sim(i).clock().state());
        std::vector<int> lower;
        for (int w = 0; w < windowCount(i); ++w) {
            fillWindow(i, w, lower);
            lower.push_back(w);
        }
    }
}

} // namespace snowcap
