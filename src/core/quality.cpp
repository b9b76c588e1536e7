#include "core/quality.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace snowcap {

QualityRung qualityRung(Quality quality) {
    // Resolution halves per rung down from the seed's 2048 default. The blur radius is left to
    // sim.X.material.rt_blur_distance (a size in the world, so a scenario's prints keep their
    // width on every rung; 0 = the seed's table, ~20 texels, which widens prints on low rungs).
    // The cheap rungs take the separable blur (a Gaussian of the spiral's spread at half
    // resolution, one tap in the material, docs/improvements.md §12); the grid
    // keeps about two texels per cell on low/medium, one on high; ultra tessellates.
    switch (quality) {
    case Quality::Custom:
    case Quality::Off:
        return {};
    case Quality::Low:
        return {512, BlurMode::Separable, 8, 6, 128, SurfaceGeometry::VertexGrid, 0.5f};
    case Quality::Medium:
        return {1024, BlurMode::Separable, 12, 8, 256, SurfaceGeometry::VertexGrid};
    case Quality::High:
        return {2048, BlurMode::PerPixel, 16, 8, 512, SurfaceGeometry::VertexGrid};
    case Quality::Ultra:
        return {4096, BlurMode::PerPixel, 16, 8, 512, SurfaceGeometry::Tessellation};
    }
    return {};
}

Settings effectiveSettings(const Settings& settings) {
    if (settings.snow.quality == Quality::Custom || settings.snow.quality == Quality::Off)
        return settings; // off keeps the keys; snowDisabled() stops everything that would use them
    const QualityRung rung = qualityRung(settings.snow.quality);
    Settings out = settings;
    out.snow.resolution = rung.resolution;
    for (SimSettings& sim : out.sims) {
        sim.resolution = 0;
        sim.blur = rung.blur;
        sim.material.distanceSteps = rung.distanceSteps;
        sim.material.radialSteps = rung.radialSteps;
        sim.displacement = rung.displacement;
    }
    return out;
}

namespace {

// A sim's buffer side as it runs without a rung: its own, else snow.resolution.
int ownResolution(const Settings& settings, const SimSettings& sim) {
    return sim.resolution > 0 ? sim.resolution : settings.snow.resolution;
}

// The sim keys a rung sets, each as (key, the sim's value as text).
std::vector<std::pair<std::string, std::string>> rungKeysOf(const Settings& settings,
                                                            const SimSettings& sim) {
    return {{"resolution", std::to_string(ownResolution(settings, sim))},
            {"blur", std::string(toString(sim.blur))},
            {"material.distance_steps", std::to_string(sim.material.distanceSteps)},
            {"material.radial_steps", std::to_string(sim.material.radialSteps)},
            {"displacement", std::string(toString(sim.displacement))}};
}

} // namespace

std::vector<RungChange> rungChanges(const Settings& settings, Quality rung) {
    std::vector<RungChange> out;
    if (rung == Quality::Custom || rung == Quality::Off)
        return out;
    Settings asked = settings;
    asked.snow.quality = rung;
    const Settings run = effectiveSettings(asked);
    const Settings defaults;
    if (settings.snow.resolution != run.snow.resolution &&
        settings.snow.resolution != defaults.snow.resolution)
        out.push_back({"snow.resolution", std::to_string(settings.snow.resolution),
                       std::to_string(run.snow.resolution)});
    for (std::size_t s = 0; s < settings.sims.size(); ++s) {
        const auto given = rungKeysOf(settings, settings.sims[s]);
        const auto set = rungKeysOf(run, run.sims[s]);
        const auto table =
            rungKeysOf(defaults, defaults.sims[std::min(s, defaults.sims.size() - 1)]);
        for (std::size_t k = 0; k < given.size(); ++k) {
            // A sim that follows snow.resolution is named once, by snow.resolution.
            if (given[k].first == "resolution" && settings.sims[s].resolution == 0)
                continue;
            if (given[k].second != set[k].second && given[k].second != table[k].second)
                out.push_back(
                    {"sim." + std::string(simName(static_cast<int>(s))) + "." + given[k].first,
                     given[k].second, set[k].second});
        }
    }
    return out;
}

std::vector<std::string> comparisonsVoidedBy(const Settings& settings) {
    std::vector<std::string> out;
    if (settings.sims.size() < 2)
        return out;
    const auto first = rungKeysOf(settings, settings.sims[0]);
    for (std::size_t k = 0; k < first.size(); ++k)
        for (std::size_t s = 1; s < settings.sims.size(); ++s)
            if (rungKeysOf(settings, settings.sims[s])[k].second != first[k].second) {
                out.push_back(first[k].first);
                break;
            }
    return out;
}

namespace {

std::string listed(const std::vector<std::string>& keys) {
    std::string text;
    for (const std::string& key : keys)
        text += (text.empty() ? "" : ", ") + key;
    return text;
}

} // namespace

std::optional<std::string> startRungRefusal(const Settings& settings) {
    const std::vector<std::string> voided = comparisonsVoidedBy(settings);
    if (voided.empty())
        return std::nullopt;
    return fmt::format("the scenario's own settings (snow.quality = custom), not the cheaper "
                       "{} rung: its sims differ in {}, which a rung sets alike for every sim",
                       toString(kLlvmpipeStartQuality), listed(voided));
}

std::optional<std::string> rungReplacesNote(const Settings& settings, Quality rung) {
    std::vector<std::string> replaced;
    for (const RungChange& change : rungChanges(settings, rung))
        replaced.push_back(
            fmt::format("{} {} (the scenario's {})", change.key, change.rungValue, change.given));
    if (replaced.empty())
        return std::nullopt;
    return fmt::format("snow.quality = {} replaces {}", toString(rung), listed(replaced));
}

std::optional<std::string> voidedComparisonNote(const Settings& settings) {
    if (settings.snow.quality == Quality::Custom || settings.snow.quality == Quality::Off)
        return std::nullopt;
    const std::vector<std::string> voided = comparisonsVoidedBy(settings);
    if (voided.empty())
        return std::nullopt;
    return fmt::format("snow.quality = {} sets {} alike for every sim: the sims no longer differ "
                       "in {}; snow.quality = custom keeps the comparison",
                       toString(settings.snow.quality), listed(voided),
                       voided.size() == 1 ? "it" : "them");
}

int surfaceGridCells(Quality quality, int resolution) {
    if (quality == Quality::Custom)
        return std::min(resolution, 512);
    return qualityRung(quality).gridCells;
}

} // namespace snowcap
