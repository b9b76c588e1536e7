// SnowField's snowpack sims (sim.X.model = "snowpack", docs/snowpack.md): their validation,
// configuration and step. The decay sims' accumulate passes skip them; they read the same
// captures (one per distinct region + resolution).
#include "core/ground.hpp"
#include "snow/snow_field.hpp"
#include "snow/snowpack_sim.hpp"

#include <fmt/format.h>

namespace snowcap {

SnowField::SnowField(gpu::ShaderLibrary& shaders) : shaders_(shaders) {}
SnowField::~SnowField() = default;

std::optional<std::string> SnowField::snowpackSettingsError(const Settings& settings) {
    for (int i = 0; i < static_cast<int>(settings.sims.size()); ++i) {
        const SimSettings& sim = settings.sims[i];
        if (sim.model != SimModel::Snowpack)
            continue;
        const std::string key = fmt::format("sim.{}.model = \"snowpack\"", simName(i));
        if (sim.region == RegionMode::FollowNaive)
            return key + ": needs region = \"fixed\" or \"follow_snapped\" (follow_naive "
                         "resamples the state between texels, which loses mass)";
        if (sim.format != BufferFormat::R16F)
            return key + ": format does not apply (the snowpack state is RGBA32F); leave it "
                         "\"r16f\"";
    }
    return std::nullopt;
}

std::optional<std::string> SnowField::configureSnowpacks() {
    for (int i = 0; i < kMaxSims; ++i) {
        if (i >= simCount() || !isSnowpack(i)) {
            if (i < simCount())
                sim(i).attachSnowpack(nullptr);
            snowpacks_[i].reset();
            continue;
        }
        if (!snowpacks_[i])
            snowpacks_[i] = std::make_unique<SnowpackSim>();
        Region region = simRegion(effective_, i);
        region.centreCm = front(i).centre;
        snowpacks_[i]->setTerrain(terrain_, effective_.weather.windCurvatureM * 100.0);
        if (auto error = snowpacks_[i]->configure(
                effective_.sims[i].snowpack, region, effective_.snow.captureZCm,
                effective_.capture.farCm, shaders_, groundPrintMaxCm(effective_.ground)))
            return fmt::format("sim.{}: {}", simName(i), *error);
        // The weather hook: one sky for every snowpack sim (docs/weather.md).
        if (auto error = snowpacks_[i]->weather().configure(
                effective_.weather, effective_.sims[i].snowpack, effective_.wind,
                effective_.look.sunDirection, region.resolution, region.texelCm(), shaders_))
            return fmt::format("sim.{}: weather: {}", simName(i), *error);
        // persistence = "world": a store on the sim's grid (a fixed region loses nothing).
        const SimSettings& simSettings = effective_.sims[i];
        std::optional<Region> world;
        if (simSettings.persistence == Persistence::World &&
            simSettings.region == RegionMode::FollowSnapped)
            world = simRegion(effective_, i);
        snowpacks_[i]->setWorld(world, effective_.snow.worldStoreMib);
        sim(i).attachSnowpack(snowpacks_[i].get());
    }
    return std::nullopt;
}

} // namespace snowcap
