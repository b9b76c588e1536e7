#include "core/support_law.hpp"

#include "core/snowpack_laws.hpp"

#include <fmt/format.h>

namespace snowcap {

std::string SupportPlan::name() const {
    return sim < 0 ? std::string("ground") : fmt::format("sim.{}", simName(sim));
}

std::variant<SupportPlan, std::string> supportPlan(const Settings& settings) {
    const std::string& key = settings.physics.supportSim;
    const int sims = static_cast<int>(settings.sims.size());
    int chosen = -1;
    if (key.empty()) {
        for (int i = 0; i < sims && chosen < 0; ++i)
            if (settings.sims[i].model == SimModel::Snowpack)
                chosen = i;
    } else if (key != "ground") {
        for (int i = 0; i < sims; ++i)
            if (key == simName(i))
                chosen = i;
        if (chosen < 0) {
            std::string letters;
            for (int i = 0; i < sims; ++i)
                letters += fmt::format("{}\"{}\"", i == 0 ? "" : ", ", simName(i));
            return fmt::format("key 'physics.support_sim': no sim \"{}\" (the sims are {}; or "
                               "\"ground\", or \"\" for the first snowpack sim)",
                               key, letters);
        }
        if (settings.sims[chosen].model != SimModel::Snowpack)
            chosen = -1; // a decay sim's mask carries nothing: the ground holds them
    }
    SupportPlan plan;
    plan.groundZCm = settings.snow.surfaceZCm - settings.snow.depthCm;
    plan.snowDepthCm = settings.snow.depthCm;
    if (chosen < 0)
        return plan;
    const SimSettings& sim = settings.sims[chosen];
    const SnowpackSettings& pack = sim.snowpack;
    plan.sim = chosen;
    plan.groundZCm = settings.snow.surfaceZCm - pack.depthCm;
    plan.snowDepthCm = pack.depthCm;
    plan.region.centreCm = {settings.snow.regionCentreCm[0], settings.snow.regionCentreCm[1]};
    plan.region.widthCm = settings.snow.orthoWidthCm;
    plan.region.resolution = sim.resolution > 0 ? sim.resolution : settings.snow.resolution;
    plan.finalDensityKgM3 = pack.maxDensityKgM3;
    const float mass = columnMass(float(pack.depthCm), float(pack.densityKgM3));
    plan.initialBearingZCm =
        plan.groundZCm + bearingHeightCm(float(pack.depthCm), mass, float(pack.maxDensityKgM3)) +
        kSupportLiftCm;
    return plan;
}

} // namespace snowcap
