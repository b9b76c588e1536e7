// SnowField's observers (declared in snow_field.hpp; docs/world.md, section 6): a follow_snapped
// r16f sim keeps one window per observer named in snow.follow, each with its own buffer and
// capture, all on the sim's one texel grid and sharing its world store. A world texel inside
// several windows is owned by the lowest of them: after every step the others copy its value
// (glCopyImageSubData, the bits themselves), so overlapping windows hold the same texels. A
// texel that leaves a window but stays inside another is that window's, not the store's; one
// that enters a window from another is copied from it.
#include "snow/region_shift.hpp"
#include "snow/snow_field.hpp"

#include <algorithm>

namespace snowcap {

std::variant<std::vector<int>, std::string> SnowField::resolveObservers(const Settings& settings) {
    const std::vector<std::string>& names = settings.snow.follow;
    if (names.empty()) {
        // The player if there is one, else the first deformer (the step's instance 0).
        for (std::size_t i = 0; i < settings.deformers.size(); ++i)
            if (settings.deformers[i].player)
                return std::vector<int>{static_cast<int>(i)};
        return std::vector<int>{0};
    }
    if (names.size() > static_cast<std::size_t>(kMaxObservers))
        return "snow.follow: " + std::to_string(names.size()) +
               " observers; a sim follows at most " + std::to_string(kMaxObservers);
    const bool anyFollows =
        std::any_of(settings.sims.begin(), settings.sims.end(),
                    [](const SimSettings& sim) { return sim.region != RegionMode::Fixed; });
    std::vector<int> found;
    for (const std::string& name : names) {
        const auto at = std::find_if(settings.deformers.begin(), settings.deformers.end(),
                                     [&](const DeformerSettings& d) { return d.name == name; });
        if (at == settings.deformers.end()) {
            if (anyFollows)
                return "snow.follow: no deformer named '" + name + "'";
            found.push_back(-1); // nothing follows: a name that matches nothing moves nothing
            continue;
        }
        found.push_back(static_cast<int>(at - settings.deformers.begin()));
    }
    return found;
}

int SnowField::windowsWanted(const Settings& settings, int simIndex, int observers) {
    const SimSettings& sim = settings.sims[simIndex];
    if (sim.region != RegionMode::FollowSnapped || sim.format != BufferFormat::R16F)
        return 1;
    return std::clamp(observers, 1, kMaxObservers);
}

SnowField::WindowRef SnowField::windowRef(int simIndex, int w) {
    if (w == 0)
        return {sims_[simIndex], centres_[simIndex], captureIndex_[simIndex], healBound_[simIndex]};
    Extra& extra = *extra_[simIndex][w - 1];
    return {extra.sim, extra.centre, extra.capture, extra.healBound};
}

std::optional<std::string> SnowField::configureWindows() {
    const int observers = static_cast<int>(observers_.size());
    for (int i = 0; i < simCount(); ++i) {
        const Region configured = simRegion(effective_, i);
        auto& extras = extra_[i];
        const int wanted = windowsWanted(effective_, i, observers);
        // A window that goes away (fewer observers) hands its texels outside the windows that
        // stay to the store, as if it had walked off them, when the store's grid is unchanged.
        WorldPager* world = worlds_[i].get();
        bool handed = false;
        for (int w = wanted; world && w < windowCount(i); ++w) {
            const Extra& gone = *extras[w - 1];
            if (!gone.sim.allocated() || world->configured() != configured ||
                gone.sim.region().resolution != configured.resolution)
                continue;
            std::vector<TexelRect> staying;
            for (int k = 0; k < wanted; ++k)
                staying.push_back(windowRect(i, window(i, k).region().centreCm));
            const glm::dvec2 away =
                gone.sim.region().centreCm + glm::dvec2(2.0 * configured.widthCm);
            world->pageOut(gone.sim, away, gone.healBound == 0.0, staying);
            handed = true;
        }
        if (handed)
            world->finish(); // the readbacks read textures that go now
        extras.resize(static_cast<std::size_t>(wanted - 1));
        for (std::size_t e = 0; e < extras.size(); ++e) {
            const bool fresh = !extras[e] ||
                               extras[e]->sim.region().widthCm != configured.widthCm ||
                               extras[e]->sim.region().resolution != configured.resolution;
            if (fresh) {
                // A new window starts cleared at the configured centre (its first step moves
                // it to its observer, taking what it covers from the store or the other
                // windows), on the sim's clock.
                extras[e] = std::make_unique<Extra>();
                extras[e]->sim = SnowSim(std::string(simName(i)) + "." + std::to_string(e + 2), i);
                extras[e]->centre = configured.centreCm;
                extras[e]->fresh = true; // filled once the store is configured
            }
            Region region = configured;
            region.centreCm = extras[e]->centre;
            if (auto error = extras[e]->sim.configure(effective_, region, shaders_))
                return error;
            extras[e]->sim.restoreClock(sims_[i].clock().state());
        }
    }
    return std::nullopt;
}

TexelRect SnowField::windowRect(int simIndex, glm::dvec2 centre) const {
    const Region configured = simRegion(effective_, simIndex);
    return {snowcap::windowCorner(configured, centre), glm::ivec2(configured.resolution)};
}

std::vector<TexelRect> SnowField::otherWindows(int simIndex, int w) const {
    std::vector<TexelRect> others;
    for (int k = 0; k < windowCount(simIndex); ++k)
        if (k != w)
            others.push_back(windowRect(simIndex, window(simIndex, k).region().centreCm));
    return others;
}

void SnowField::copyBetweenWindows(int simIndex, int from, int to, const TexelRect& rect) {
    WindowRef source = windowRef(simIndex, from), target = windowRef(simIndex, to);
    if (rect.empty() || !source.sim.allocated() || !target.sim.allocated())
        return;
    const glm::ivec2 src = rect.origin - windowRect(simIndex, source.sim.region().centreCm).origin;
    const glm::ivec2 dst = rect.origin - windowRect(simIndex, target.sim.region().centreCm).origin;
    glCopyImageSubData(source.sim.persistent().id(), GL_TEXTURE_2D, 0, src.x, src.y, 0,
                       target.sim.persistent().id(), GL_TEXTURE_2D, 0, dst.x, dst.y, 0, rect.size.x,
                       rect.size.y, 1);
    target.healBound = std::max(target.healBound, source.healBound);
}

void SnowField::moveWindow(int simIndex, int w, glm::dvec2 next, const gpu::ShaderProgram& shift) {
    WindowRef self = windowRef(simIndex, w);
    WorldPager* world = worlds_[simIndex].get();
    const std::vector<TexelRect> others = otherWindows(simIndex, w);
    const glm::dvec2 from = self.sim.region().centreCm;
    if (world)
        world->pageOut(self.sim, next, self.healBound == 0.0, others);
    self.sim.shiftRegion(next, shift);
    self.centre = next;
    // What enters from another window is that window's (synced at the last step's end).
    const int n = simRegion(effective_, simIndex).resolution;
    const std::vector<TexelRect> entering =
        squareMinusSquare(windowRect(simIndex, next).origin, windowRect(simIndex, from).origin, n);
    for (int k = 0; k < windowCount(simIndex); ++k) {
        if (k == w)
            continue;
        const TexelRect there = windowRect(simIndex, window(simIndex, k).region().centreCm);
        for (const TexelRect& rect : entering)
            copyBetweenWindows(simIndex, k, w, intersection(rect, there));
    }
    if (world) {
        // A restored trail must be stepped (idle skip) until it has healed again.
        const float restored = world->pageIn(self.sim, from, others);
        self.healBound = std::max(self.healBound, double(restored));
    }
}

void SnowField::syncOverlaps(int simIndex, const std::array<bool, kMaxObservers>& ran) {
    // Ascending: window w takes from every lower window k, and k already holds its owner's
    // values, so every window ends with the lowest covering window's texels. A window that
    // did not run (idle: all zero, nothing reaches it) needs nothing: a lower window could only
    // have changed a shared texel by a contact that reaches this one too.
    for (int w = 1; w < windowCount(simIndex); ++w) {
        if (!ran[w])
            continue;
        const TexelRect mine = windowRect(simIndex, window(simIndex, w).region().centreCm);
        for (int k = 0; k < w; ++k)
            copyBetweenWindows(
                simIndex, k, w,
                intersection(mine, windowRect(simIndex, window(simIndex, k).region().centreCm)));
    }
}

float SnowField::fillWindow(int simIndex, int w, const std::vector<int>& sources) {
    WindowRef self = windowRef(simIndex, w);
    std::vector<TexelRect> held;
    for (int k : sources) {
        const TexelRect there = windowRect(simIndex, window(simIndex, k).region().centreCm);
        copyBetweenWindows(simIndex, k, w,
                           intersection(windowRect(simIndex, self.sim.region().centreCm), there));
        held.push_back(there);
    }
    WorldPager* world = worlds_[simIndex].get();
    const float restored = world ? world->restoreWindow(self.sim, held) : 0.0f;
    self.healBound = std::max(self.healBound, double(restored));
    return restored;
}

void SnowField::fillNewWindows() {
    for (int i = 0; i < simCount(); ++i) {
        // Ascending: a new window takes from every window that already holds its texels.
        std::vector<int> holding{0};
        for (int w = 1; w < windowCount(i); ++w) {
            if (extra_[i][w - 1]->fresh) {
                fillWindow(i, w, holding);
                extra_[i][w - 1]->fresh = false;
            }
            holding.push_back(w);
        }
    }
}

std::vector<ObserverWindow> SnowField::windows(int simIndex) const {
    std::vector<ObserverWindow> out;
    const Region configured = simRegion(effective_, simIndex);
    for (int w = 0; w < windowCount(simIndex); ++w) {
        ObserverWindow info;
        info.centreCm = window(simIndex, w).region().centreCm;
        info.sideCm = configured.widthCm;
        info.resolution = configured.resolution;
        const bool follows = effective_.sims[simIndex].region != RegionMode::Fixed;
        info.deformer = follows && w < static_cast<int>(observers_.size()) ? observers_[w] : -1;
        out.push_back(info);
    }
    return out;
}

} // namespace snowcap
