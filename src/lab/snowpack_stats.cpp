#include "lab/snowpack_stats.hpp"

#include "io/image.hpp"

namespace snowcap {

void addSnowpackStats(nlohmann::json& sim, const SnowField& field, int s) {
    const SnowpackSim* snowpack = field.snowpack(s);
    if (!snowpack || !snowpack->allocated())
        return;
    const SnowpackBudget budget = snowpack->budget();
    const double start = snowpack->massStartKg();
    const double in = 0.0, out = 0.0; // no weather yet: nothing falls, melts or blows away
    sim["snowpack"] = {
        {"mass_kg", budget.massKg},
        {"mass_start_kg", start},
        {"mass_in_kg", in},
        {"mass_out_kg", out},
        {"mass_error", start > 0.0 ? (budget.massKg - start - in + out) / start : 0.0},
        {"mean_depth_cm", budget.meanDepthCm},
        {"min_depth_cm", budget.minDepthCm},
        {"max_depth_cm", budget.maxDepthCm},
        {"max_density_kg_m3", budget.maxDensityKgM3},
        {"compacted_fraction", budget.compactedFraction},
    };
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

} // namespace snowcap
