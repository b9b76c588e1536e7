// The weather's passes on one snowpack sim (docs/weather.md §4), against the copy floor at the
// same buffer size: one weather tick (snowfall + melt + drain, drift flux, drift apply) on a
// snowpack state, in three skies. A tick covers 1/30 s of the run, so a 60 fps step runs one
// every other step; the step that has one costs the snowpack's step plus one tick. Beside the
// R16F floor, a copy of the state's own format (RGBA32F, 16 bytes a texel against 2): the
// floor a pass that reads and writes the state once cannot go under.
#include "bench/bench_cases.hpp"
#include "bench/case_support.hpp"
#include "core/weather_laws.hpp"
#include "snow/snowpack_sim.hpp"
#include "snow/weather_sim.hpp"

#include <glm/geometric.hpp>

namespace snowcap::bench {

std::optional<std::string> weatherCases(Context& context, int size) {
    Harness& h = context.harness;
    if (!h.wants("weather"))
        return std::nullopt;
    copyFloor(context, size);
    if (!h.find("copy", "rgba32f", std::to_string(size))) {
        const std::string label = std::to_string(size);
        gpu::Texture2D source(size, size, gpu::TextureFormat::RGBA32F, "bench.src_rgba32f");
        gpu::Texture2D target(size, size, gpu::TextureFormat::RGBA32F, "bench.copy_rgba32f");
        gpu::Framebuffer framebuffer(&target, nullptr, "bench.copy_rgba32f");
        Case& c = h.run({"copy", "rgba32f", label, label, static_cast<long long>(size) * size},
                        [&] { drawCopy(context, framebuffer, source); });
        c.extra["per"] = "one copy of an RGBA32F buffer, the snowpack state's format";
    }
    auto sized = sizedScenario(context, size);
    if (auto* error = std::get_if<std::string>(&sized))
        return *error;
    const auto& [label, texels, settings] = std::get<SizedScenario>(sized);
    auto created = SnowField::create(settings, context.shaders);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    SnowField& field = *std::get<0>(created);
    field.step(std::span<const DeformerInstance>{}, kDt); // a capture to classify from

    const Region region = simRegion(settings, 0);
    SnowpackSim snowpack;
    if (auto error = snowpack.configure(settings.sims[0].snowpack, region, settings.snow.captureZCm,
                                        settings.capture.farCm, context.shaders))
        return *error;
    snowpack.step(field.captureOf(0).depth(), kDt); // the step's contact flags
    struct BenchSky {
        const char* name;
        double snowfallCmH, windMS, airTempC, sunWM2;
    };
    // snow_melt: no wind (the flux and apply passes are left out, the halves swap); storm:
    // snow in a wind above the threshold (all three passes); thaw_wind: melt in sun with drift.
    for (const BenchSky& sky :
         {BenchSky{"snow_melt", 4.0, 0.0, 2.0, 0.0}, BenchSky{"storm", 24.0, 14.0, -6.0, 0.0},
          BenchSky{"thaw_wind", 0.0, 14.0, 6.0, 900.0}}) {
        if (!h.wants("weather", sky.name))
            continue;
        WeatherSettings weather = settings.weather;
        weather.snowfallCmH = sky.snowfallCmH;
        weather.windMS = sky.windMS;
        weather.airTempC = sky.airTempC;
        weather.sunWM2 = sky.sunWM2;
        weather.timeScale = 60.0;
        weather.keys.clear();
        WeatherSim sim;
        if (auto error = sim.configure(weather, settings.sims[0].snowpack, settings.wind,
                                       glm::normalize(settings.look.sunDirection), size,
                                       region.texelCm(), context.shaders))
            return *error;
        // One tick a call: the clock moves by exactly its tick.
        Case& c = h.run({"weather", sky.name, label, label, texels},
                        [&] { sim.step(snowpack, kWeatherTickS); });
        c.extra["per"] = "one weather tick (1/30 s of the run)";
        c.extra["wind_m_s"] = sky.windMS;
    }
    return std::nullopt;
}

} // namespace snowcap::bench
