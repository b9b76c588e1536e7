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

std::variant<std::vector<int>, std::string>
SnowField::resolveObservers(const Settings& settings, std::span<const std::string> given) {
    // Without the step's names, the [[deformer]] list: the first instances of every step.
    std::vector<std::string> listed;
    if (given.empty())
        for (const DeformerSettings& d : settings.deformers)
            listed.push_back(d.name);
    const std::span<const std::string> names = given.empty() ? std::span(listed) : given;
    const auto indexOf = [&](const std::string& name) {
        const auto at = std::find(names.begin(), names.end(), name);
        return at == names.end() ? -1 : static_cast<int>(at - names.begin());
    };
    const std::vector<std::string>& follow = settings.snow.follow;
    if (follow.empty()) {
        // The player if there is one (a deformer, or a vehicle's chassis: the part with its
        // name), else the step's instance 0.
        for (const DeformerSettings& d : settings.deformers)
            if (d.player)
                return std::vector<int>{std::max(indexOf(d.name), 0)};
        for (const VehicleSettings& v : settings.vehicles)
            if (v.player)
                return std::vector<int>{std::max(indexOf(v.name), 0)};
        return std::vector<int>{0};
    }
    if (follow.size() > static_cast<std::size_t>(kMaxObservers))
        return "snow.follow: " + std::to_string(follow.size()) +
               " observers; a sim follows at most " + std::to_string(kMaxObservers);
    const bool anyFollows =
        std::any_of(settings.sims.begin(), settings.sims.end(),
                    [](const SimSettings& sim) { return sim.region != RegionMode::Fixed; });
    std::vector<int> found;
    for (const std::string& name : follow) {
        const int index = indexOf(name);
        if (index < 0 && anyFollows)
            return "snow.follow: no deformer, body or vehicle named '" + name + "'";
        found.push_back(index); // -1: nothing follows, a name that matches nothing moves nothing
    }
    return found;
}

int SnowField::windowsWanted(const Settings& settings, int simIndex, int observers) {
    const SimSettings& sim = settings.sims[simIndex];
    if (sim.region != RegionMode::FollowSnapped || sim.format != BufferFormat::R16F ||
        sim.model == SimModel::Snowpack)
        return 1;
    return std::clamp(observers, 1, kMaxObservers);
}

std::optional<std::string> SnowField::configureWindows() {
    const int observers = static_cast<int>(observers_.size());
    for (int i = 0; i < simCount(); ++i) {
        const Region configured = simRegion(effective_, i);
        auto& windows = windows_[i];
        const int wanted = windowsWanted(effective_, i, observers);
        // A window that goes away (fewer observers) hands its texels outside the windows that
        // stay to the store, as if it had walked off them, when the store's grid is unchanged.
        WorldPager* world = worlds_[i].get();
        bool handed = false;
        for (int w = wanted; world && w < windowCount(i); ++w) {
            const SimWindow& gone = *windows[w];
            if (!gone.sim.allocated() || world->configured() != configured ||
                gone.sim.region().resolution != configured.resolution)
                continue;
            std::vector<TexelRect> staying;
            for (int k = 0; k < wanted; ++k)
                staying.push_back(windowRect(i, k));
            const glm::dvec2 away =
                gone.sim.region().centreCm + glm::dvec2(2.0 * configured.widthCm);
            world->pageOut(gone.sim, away, gone.healBound == 0.0, staying);
            handed = true;
        }
        if (handed)
            world->finish(); // the readbacks read textures that go now
        windows.resize(static_cast<std::size_t>(wanted));
        for (int w = 0; w < wanted; ++w) {
            // A new window starts cleared at the configured centre (its first step moves it to
            // its observer, taking what it covers from the store or the other windows); one
            // whose size changes starts cleared there too (applySettings moved it).
            if (!windows[w])
                windows[w] = std::make_unique<SimWindow>(
                    std::string(simName(i)) + "." + std::to_string(w + 1), i, configured.centreCm);
            SimWindow& window = *windows[w];
            const Region& had = window.sim.region();
            window.fresh = window.fresh || had.widthCm != configured.widthCm ||
                           had.resolution != configured.resolution;
            window.observer = observers_[w];
            Region region = configured;
            region.centreCm = window.centre;
            if (auto error = window.sim.configure(effective_, region, shaders_))
                return error; // cannot happen after applySettings' loads, but never swallow it
            // A cleared rgba16f texel (0, 0, 0, 0) takes the untouched (0, max age, 0, 0) on
            // its first step: that step must run. An r16f buffer has no tags to wait for.
            window.tagStepsLeft = window.sim.settings().format == BufferFormat::RGBA16F
                                      ? std::max(window.tagStepsLeft, 1)
                                      : 0;
        }
        // Every window steps on the sim's clock (window 0's, which a world file restores).
        for (int w = 1; w < wanted; ++w)
            windows[w]->sim.restoreClock(windows[0]->sim.clock().state());
    }
    return std::nullopt;
}

void SnowField::linkWorlds() {
    for (int i = 0; i < simCount(); ++i)
        for (auto& window : windows_[i])
            window->world = worlds_[i].get();
}

TexelRect SnowField::windowRect(int simIndex, int w) const {
    return simWindow(simIndex, w).rect(simRegion(effective_, simIndex));
}

std::vector<TexelRect> SnowField::otherWindows(int simIndex, int w) const {
    std::vector<TexelRect> others;
    for (int k = 0; k < windowCount(simIndex); ++k)
        if (k != w)
            others.push_back(windowRect(simIndex, k));
    return others;
}

void SnowField::copyBetweenWindows(int simIndex, int from, int to, const TexelRect& rect) {
    windowAt(simIndex, to)
        .copyFrom(simWindow(simIndex, from), rect, simRegion(effective_, simIndex));
}

void SnowField::moveWindow(int simIndex, int w, glm::dvec2 next, const gpu::ShaderProgram& shift) {
    SimWindow& self = windowAt(simIndex, w);
    const Region configured = simRegion(effective_, simIndex);
    const std::vector<TexelRect> others = otherWindows(simIndex, w);
    const glm::dvec2 from = self.sim.region().centreCm;
    self.shiftTo(next, shift, others);
    // What enters from another window is that window's (synced at the last step's end).
    const std::vector<TexelRect> entering = squareMinusSquare(
        windowCorner(configured, next), windowCorner(configured, from), configured.resolution);
    for (int k = 0; k < windowCount(simIndex); ++k) {
        if (k == w)
            continue;
        const TexelRect there = windowRect(simIndex, k);
        for (const TexelRect& rect : entering)
            copyBetweenWindows(simIndex, k, w, intersection(rect, there));
    }
    self.pageIn(from, others);
}

void SnowField::syncOverlaps(int simIndex, const std::array<bool, kMaxObservers>& ran) {
    // Ascending: window w takes from every lower window k, and k already holds its owner's
    // values, so every window ends with the lowest covering window's texels. A window that
    // did not run (idle: all zero, nothing reaches it) needs nothing: a lower window could only
    // have changed a shared texel by a contact that reaches this one too.
    for (int w = 1; w < windowCount(simIndex); ++w) {
        if (!ran[w])
            continue;
        const TexelRect mine = windowRect(simIndex, w);
        for (int k = 0; k < w; ++k)
            copyBetweenWindows(simIndex, k, w, intersection(mine, windowRect(simIndex, k)));
    }
}

void SnowField::fillWindow(int simIndex, int w, const std::vector<int>& sources) {
    std::vector<TexelRect> held;
    for (int k : sources) {
        const TexelRect there = windowRect(simIndex, k);
        copyBetweenWindows(simIndex, k, w, intersection(windowRect(simIndex, w), there));
        held.push_back(there);
    }
    windowAt(simIndex, w).restoreFromWorld(held);
}

void SnowField::fillNewWindows() {
    for (int i = 0; i < simCount(); ++i) {
        // Ascending: a new window takes from every window that already holds its texels.
        std::vector<int> holding;
        for (int w = 0; w < windowCount(i); ++w) {
            SimWindow& window = windowAt(i, w);
            if (window.fresh) {
                fillWindow(i, w, holding);
                window.fresh = false;
            }
            holding.push_back(w);
        }
    }
}

void SnowField::placeWindow(int simIndex, int w, glm::dvec2 centreCm) {
    SimWindow& window = windowAt(simIndex, w);
    if (window.centre == centreCm && window.sim.region().centreCm == centreCm)
        return;
    window.centre = centreCm;
    window.sim.placeRegion(centreCm);
    if (enabled_)
        assignCaptures();
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
        info.deformer = follows ? simWindow(simIndex, w).observer : -1;
        out.push_back(info);
    }
    return out;
}

} // namespace snowcap
