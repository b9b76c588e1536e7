#include "lab/snowpack_stats.hpp"

#include "io/image.hpp"
#include "io/legend.hpp"
#include "lab/run_pictures.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace snowcap {

std::vector<SnowpackFigure> snowpackFigures(const SnowpackSim& snowpack) {
    if (!snowpack.allocated())
        return {};
    const SnowpackBudget budget = snowpack.budget();
    const double start = snowpack.massStartKg();
    // What the weather brought in and took out (0 without [weather]).
    const double in = snowpack.weather().massInKg(), out = snowpack.weather().massOutKg();
    // What a following window's moves carried across its border (0 for a fixed region).
    const double carriedIn = snowpack.carriedInKg(), carriedOut = snowpack.carriedOutKg();
    const double error =
        start > 0.0 ? (budget.massKg - start - in + out - carriedIn + carriedOut) / start : 0.0;
    std::vector<SnowpackFigure> figures{
        {"mass_kg", budget.massKg, "kg", "mass now"},
        {"mass_start_kg", start, "kg", "mass at the start"},
        {"mass_in_kg", in, "kg", "in (snowfall)"},
        {"mass_out_kg", out, "kg", "out (melt, drift)"},
        {"mass_carried_in_kg", carriedIn, "kg", "carried in (window moved)"},
        {"mass_carried_out_kg", carriedOut, "kg", "carried out (window moved)"},
        {"mass_error", error, "", "error (now-start-in+out-cin+cout)/start"},
        {"mean_depth_cm", budget.meanDepthCm, "cm", "mean depth"},
        {"min_depth_cm", budget.minDepthCm, "cm", "min depth"},
        {"max_depth_cm", budget.maxDepthCm, "cm", "max depth"},
        {"max_density_kg_m3", budget.maxDensityKgM3, "kg/m3", "max density"},
        {"compacted_fraction", budget.compactedFraction, "", "compacted (1 % denser)"},
    };
    if (const SnowpackWorld* world = snowpack.world()) {
        // persistence = "world" (docs/snowpack.md section 6.2): the window and its store
        // against the undisturbed snow beyond them.
        const double areaM2 = std::pow(snowpack.region().texelCm() * 0.01, 2.0);
        const SnowpackWorld::Terms terms = world->terms();
        const double held = terms.heldKgM2 * areaM2;
        const double fromUndisturbed = snowpack.fromUndisturbedKg();
        const double toUndisturbed = terms.toUndisturbedKgM2 * areaM2;
        const double skyIn = terms.skyInKgM2 * areaM2, skyOut = terms.skyOutKgM2 * areaM2;
        const double worldError = start > 0.0 ? (budget.massKg + held - start - in + out - skyIn +
                                                 skyOut - fromUndisturbed + toUndisturbed) /
                                                    start
                                              : 0.0;
        figures.insert(
            figures.begin() + 7,
            {{"mass_in_store_kg", held, "kg", "held in the world store"},
             {"mass_from_undisturbed_kg", fromUndisturbed, "kg", "carried in as undisturbed snow"},
             {"mass_to_undisturbed_kg", toUndisturbed, "kg", "left as undisturbed snow (not kept)"},
             {"mass_store_in_kg", skyIn, "kg", "in (snowfall) while stored"},
             {"mass_store_out_kg", skyOut, "kg", "out (drained) while stored"},
             {"mass_world_error", worldError, "",
              "error (now+store-start-in+out-sin+sout-cin_u+cout_u)/start"}});
    }
    return figures;
}

long long snowpackTexelsDisturbed(const SnowpackSim& snowpack) {
    const float initial = snowpack.constants().initialDepthCm;
    long long moved = 0;
    for (const SnowColumn& c : snowpack.readBack())
        moved += std::abs(c.depthCm - initial) > 0.01f;
    return moved;
}

void addSnowpackStats(nlohmann::json& sim, const SnowField& field, int s) {
    const SnowpackSim* snowpack = field.snowpack(s);
    if (!snowpack || !snowpack->allocated())
        return;
    nlohmann::json figures = nlohmann::json::object();
    for (const SnowpackFigure& figure : snowpackFigures(*snowpack))
        figures[figure.key] = figure.value;
    sim["snowpack"] = std::move(figures);
}

std::optional<std::string> writeSnowpackImage(const std::filesystem::path& path,
                                              const SnowpackSim& snowpack) {
    const std::vector<SnowColumn> columns = snowpack.readBack();
    const int side = snowpack.state().width();
    ImageFloat depth(side, snowpack.state().height()), density(side, snowpack.state().height());
    for (std::size_t i = 0; i < columns.size(); ++i) {
        depth.values[i] = columns[i].depthCm;
        density.values[i] = densityOf(columns[i]);
    }
    const SnowpackConstants& c = snowpack.constants();
    const float depthHi = 2.0f * c.initialDepthCm;
    ImageRgba8 left = colourMapped(depth, ColourMap::Inferno, 0.0f, depthHi);
    ImageRgba8 right = colourMapped(density, ColourMap::Inferno, c.initialDensity, c.maxDensity);
    // Side by side at no less than 512 a panel (whole texels), with a 4-pixel gap; each panel
    // with its colour bar under it.
    const int factor = std::max(1, 512 / std::max(side, 1));
    const int w = side * factor, h = left.height * factor;
    const auto enlarged = [&](const ImageRgba8& small) {
        ImageRgba8 big(w, h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                big.set(x, y, small.at(x / factor, y / factor));
        return big;
    };
    const int scale = w >= 384 ? 2 : 1;
    ImageRgba8 depthPanel = enlarged(left), densityPanel = enlarged(right);
    drawLabel(depthPanel, 6, 6, "snow depth", {255, 255, 255, 255}, scale);
    drawLabel(densityPanel, 6, 6, "density", {255, 255, 255, 255}, scale);
    ColourKey depthKey;
    depthKey.lo = 0.0f;
    depthKey.hi = depthHi;
    depthKey.caption = fmt::format("snow depth, cm (initial {:g})", c.initialDepthCm);
    ColourKey densityKey;
    densityKey.lo = c.initialDensity;
    densityKey.hi = c.maxDensity;
    densityKey.caption = "density, kg/m3 (initial .. max)";
    const ImageRgba8 depthKeyed = withColourKey(depthPanel, depthKey, scale);
    const ImageRgba8 densityKeyed = withColourKey(densityPanel, densityKey, scale);
    return writePng(path, sideBySide({&depthKeyed, &densityKeyed}, 4, {40, 40, 40, 255}));
}

std::optional<std::string> writeSnowpackPfm(const std::filesystem::path& path,
                                            const SnowpackSim& snowpack) {
    const std::vector<SnowColumn> columns = snowpack.readBack();
    std::vector<float> rgb;
    rgb.reserve(columns.size() * 3);
    for (const SnowColumn& c : columns)
        rgb.insert(rgb.end(), {c.depthCm, densityOf(c), c.waterKgM2});
    const int side = snowpack.state().width();
    return writePfmColour(path, side, snowpack.state().height(), rgb);
}

ImageFloat driftRecordKgM2(const SnowpackSim& snowpack) {
    const std::vector<std::int32_t> record = snowpack.weather().readDriftRecord();
    const int side = snowpack.state().width();
    ImageFloat image(side, snowpack.state().height());
    for (std::size_t i = 0; i < record.size() && i < image.values.size(); ++i)
        image.values[i] = static_cast<float>(record[i]) * kWeatherQuantum;
    return image;
}

std::optional<std::string> writeDriftImage(const std::filesystem::path& path,
                                           const SnowpackSim& snowpack, const std::string& label) {
    const ImageFloat values = driftRecordKgM2(snowpack);
    // Full colour at the 99th percentile of |value| (a trail's walls drift tens of times more
    // than the field's ripples, and would leave the rest white), clamped beyond it.
    std::vector<float> magnitudes;
    magnitudes.reserve(values.values.size());
    for (float v : values.values)
        magnitudes.push_back(std::abs(v));
    float range = kWeatherQuantum;
    if (!magnitudes.empty()) {
        const auto at =
            magnitudes.begin() + static_cast<std::ptrdiff_t>(magnitudes.size() * 99 / 100);
        std::nth_element(magnitudes.begin(), at, magnitudes.end());
        range = std::max(range, *at);
    }
    ColourKey key;
    key.map = ColourMap::Diverging;
    key.lo = -range;
    key.hi = range;
    key.caption = "drifted in - out, kg/m2 (red: deposit, blue: erosion; 99th percentile)";
    return writePng(path, labelledBufferPanel(values, label, snowpack.region().widthCm, key));
}

} // namespace snowcap
