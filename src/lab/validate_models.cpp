#include "lab/validate_models.hpp"

#include "core/snowpack_laws.hpp"
#include "core/support_law.hpp"
#include "core/weather_laws.hpp"
#include "snow/snowpack_reference.hpp"
#include "snow/weather_reference.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <functional>

namespace snowcap {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

using Experiment =
    std::function<std::variant<ExperimentResult, std::string>(const ValidationCase&)>;

std::string missingColumn(const ValidationCase& c, std::initializer_list<std::string_view> names) {
    for (std::string_view name : names) {
        if (!c.rows.front().contains(name))
            return fmt::format("{}/measured.csv: experiment '{}' needs a column '{}'",
                               c.folder.string(), c.experiment, name);
    }
    return {};
}

SnowpackReference referenceFor(const ValidationCase& c, const SnowpackSettings& snowpack) {
    return SnowpackReference(c.resolution, snowpack, c.settings.snow.captureZCm,
                             c.settings.capture.farCm, c.texelCm);
}

// One step of the snowpack with a box (the middle half of the grid each way) whose bottom stands
// `contactAboveGroundCm` above the ground: the capture's window depth that puts it there.
const SnowColumn& pressOnce(SnowpackReference& reference, float contactAboveGroundCm) {
    const SnowpackConstants& k = reference.constants();
    const int n = reference.grid().size;
    const float depth = (contactAboveGroundCm - k.cameraAboveGroundCm) / k.captureFarCm;
    std::vector<float> window(static_cast<std::size_t>(n) * n, 1.0f);
    for (int y = n / 4; y < n - n / 4; ++y)
        for (int x = n / 4; x < n - n / 4; ++x)
            window[static_cast<std::size_t>(y) * n + x] = depth;
    reference.step(window, 1.0 / 60.0);
    return reference.grid().at(n / 2, n / 2);
}

// ---- compaction: the final density under a contact pressure ---------------------------------
// A box pressed to 1 cm above the ground through the scenario's snow; max_density_kg_m3 is the
// final density of *Shallow snow sinkage (CRREL 95-7)* for the row's contact pressure
// (finalDensityForPressure). The density of the pressed column is the model's.
double pressedDensity(const ValidationCase& c, double pressureKPa, bool byPressure) {
    SnowpackSettings snowpack = c.settings.sims.front().snowpack;
    if (byPressure)
        snowpack.maxDensityKgM3 = finalDensityForPressure(static_cast<float>(pressureKPa));
    SnowpackReference reference = referenceFor(c, snowpack);
    return densityOf(pressOnce(reference, 1.0f));
}

std::variant<ExperimentResult, std::string> compactionDensity(const ValidationCase& c) {
    if (std::string missing = missingColumn(c, {"p_max_kpa"}); !missing.empty())
        return missing;
    ExperimentResult result;
    for (const MeasuredRow& row : c.rows)
        result.model.push_back(pressedDensity(c, row.at("p_max_kpa"), true));
    ModelCurve byPressure{"model: density by contact pressure", {}, {}, false};
    ModelCurve alone{fmt::format("max_density_kg_m3 alone ({:.0f})",
                                 c.settings.sims.front().snowpack.maxDensityKgM3),
                     {},
                     {},
                     true};
    for (double p = 0.0; p <= 900.0; p += 5.0) {
        byPressure.x.push_back(p);
        byPressure.y.push_back(pressedDensity(c, p, true));
        alone.x.push_back(p);
        alone.y.push_back(pressedDensity(c, p, false));
    }
    result.curves = {byPressure, alone};
    result.note = "a box pressed to 1 cm above the ground, one step; max_density_kg_m3 from the "
                  "contact pressure (finalDensityForPressure)";
    return result;
}

// ---- ruts: the sinkage of a wheel resting on the snow -----------------------------------------
// The wheel stands on the snowpack's bearing surface (core/support_law.hpp: what the physics'
// bodies and vehicles rest on) and compacts the column under it to that height: the sinkage is
// the snow depth less the depth of the pressed column (m).
double wheelSinkageM(const ValidationCase& c, double depthM, double density) {
    SnowpackSettings snowpack = c.settings.sims.front().snowpack;
    snowpack.depthCm = depthM * 100.0;
    snowpack.densityKgM3 = density;
    SnowpackReference reference = referenceFor(c, snowpack);
    const SnowpackConstants& k = reference.constants();
    const SnowColumn initial = initialColumn(k);
    const float bearing = bearingHeightCm(initial.depthCm, initial.massKgM2, k.maxDensity);
    const SnowColumn& pressed = pressOnce(reference, bearing + kSupportLiftCm);
    return (initial.depthCm - pressed.depthCm) / 100.0;
}

std::variant<ExperimentResult, std::string> rutSinkage(const ValidationCase& c) {
    if (std::string missing = missingColumn(c, {"snow_depth_m", "density_kg_m3"}); !missing.empty())
        return missing;
    ExperimentResult result;
    std::vector<double> densities;
    for (const MeasuredRow& row : c.rows) {
        result.model.push_back(wheelSinkageM(c, row.at("snow_depth_m"), row.at("density_kg_m3")));
        densities.push_back(row.at("density_kg_m3"));
    }
    std::sort(densities.begin(), densities.end());
    densities.erase(std::unique(densities.begin(), densities.end()), densities.end());
    for (double density : densities) {
        ModelCurve curve{fmt::format("model, {:.0f} kg/m3", density), {}, {}, false, density};
        for (double depth = 0.10; depth <= 0.2501; depth += 0.005) {
            curve.x.push_back(depth);
            curve.y.push_back(wheelSinkageM(c, depth, density));
        }
        result.curves.push_back(std::move(curve));
    }
    result.note = fmt::format(
        "a wheel resting on the bearing surface (compaction to max_density_kg_m3 = {:.0f})",
        c.settings.sims.front().snowpack.maxDensityKgM3);
    return result;
}

// ---- drift onset: the least 10 m wind that moves snow ------------------------------------------
// A column of the scenario's snow holding `waterShare` of its mass as liquid water, flat, in the
// open: the wind (m/s at 10 m) above which the drift law (driftOut) sends snow downwind, found by
// bisection to 1 mm/s; +infinity if no wind up to 60 m/s does.
double driftOnsetMS(const ValidationCase& c, double waterShare) {
    const SnowpackSettings& snowpack = c.settings.sims.front().snowpack;
    const SnowpackConstants k = snowpackConstants(snowpack, c.settings.snow.captureZCm,
                                                  c.settings.capture.farCm, c.texelCm);
    SnowColumn column = initialColumn(k);
    column.waterKgM2 = static_cast<float>(waterShare) * column.massKgM2;
    WeatherTick tick;
    tick.weatherDtS = 3600.0f; // an hour: any flux at all moves whole quanta
    tick.windDirection = {1.0f, 0.0f};
    tick.driftThresholdMS = static_cast<float>(snowpack.driftThresholdMS);
    const auto drifts = [&](double wind) {
        return driftOut(column, false, static_cast<float>(wind), 0.0f, 0.0f, tick,
                        static_cast<float>(c.texelCm))
                   .x > 0;
    };
    double calm = 0.0, windy = 60.0;
    if (!drifts(windy))
        return kInfinity;
    while (windy - calm > 1.0e-3) {
        const double mid = 0.5 * (calm + windy);
        (drifts(mid) ? windy : calm) = mid;
    }
    return windy;
}

std::variant<ExperimentResult, std::string> driftOnset(const ValidationCase& c) {
    if (std::string missing = missingColumn(c, {"liquid_water_share"}); !missing.empty())
        return missing;
    ExperimentResult result;
    for (const MeasuredRow& row : c.rows)
        result.model.push_back(driftOnsetMS(c, row.at("liquid_water_share")));
    ModelCurve curve{"model: drift onset", {}, {}, false};
    for (double share = 0.0; share <= 0.0501; share += 0.0005) {
        curve.x.push_back(share);
        curve.y.push_back(driftOnsetMS(c, share));
    }
    result.curves = {curve};
    result.note = fmt::format("a flat, open column of {:.0f} kg/m3 snow; the drift law's onset",
                              c.settings.sims.front().snowpack.densityKgM3);
    return result;
}

// ---- slump: the angle a heap comes to rest at -------------------------------------------------
// A heap (a quarter of the grid each way, 30 cm above 5 cm of snow) of snow of the row's density,
// slumped (the slump pass's law, SnowpackReference::slump) until nothing moves; the steepest
// surface step between neighbours then, as an angle (degrees).
double restAngleDeg(const ValidationCase& c, double density) {
    SnowpackSettings snowpack = c.settings.sims.front().snowpack;
    snowpack.densityKgM3 = density;
    snowpack.depthCm = 5.0;
    SnowpackReference reference = referenceFor(c, snowpack);
    SnowpackGrid& grid = reference.grid();
    const int n = grid.size;
    for (int y = 3 * n / 8; y < 5 * n / 8; ++y)
        for (int x = 3 * n / 8; x < 5 * n / 8; ++x) {
            SnowColumn& column = grid.at(x, y);
            column.depthCm = 35.0f;
            column.massKgM2 = columnMass(35.0f, static_cast<float>(density));
        }
    for (int i = 0; i < 20000; ++i) {
        const std::vector<SnowColumn> before = grid.columns;
        reference.slump();
        const bool moved = !std::equal(
            before.begin(), before.end(), grid.columns.begin(),
            [](const SnowColumn& a, const SnowColumn& b) { return a.depthCm == b.depthCm; });
        if (!moved)
            break;
    }
    float steepest = 0.0f;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x + 1 < n; ++x) {
            steepest = std::max(
                steepest, std::abs(surfaceTopCm(grid.at(x + 1, y)) - surfaceTopCm(grid.at(x, y))));
            steepest = std::max(
                steepest, std::abs(surfaceTopCm(grid.at(y, x + 1)) - surfaceTopCm(grid.at(y, x))));
        }
    return std::atan(steepest / c.texelCm) * 180.0 / 3.14159265358979;
}

std::variant<ExperimentResult, std::string> reposeAngle(const ValidationCase& c) {
    if (std::string missing = missingColumn(c, {"density_kg_m3"}); !missing.empty())
        return missing;
    ExperimentResult result;
    for (const MeasuredRow& row : c.rows)
        result.model.push_back(restAngleDeg(c, row.at("density_kg_m3")));
    ModelCurve curve{"model: heap at rest", {}, {}, false};
    for (double density = 60.0; density <= 500.0; density += 20.0) {
        curve.x.push_back(density);
        curve.y.push_back(restAngleDeg(c, density));
    }
    result.curves = {curve};
    result.note = "a 30 cm heap slumped until nothing moves; its steepest step";
    return result;
}

// ---- a season under its measured sky -----------------------------------------------------------
// The scenario's snowpack (its depth and density: the column measured at the start) under its
// sky, hour by hour ([[weather.key]] with time_scale = 3600: an hour of weather a second of
// the run), on the CPU reference of the snowpack's and the weather's passes: settling on the
// sky's clock at its air temperature (capped at 0 C), melt by the enhanced temperature-index law
// (air temperature and the measured shortwave), snowfall. Read every `everyDays` days up to
// `lastDay`: the column's depth (m) and its water equivalent (snow and the water it holds,
// kg/m2), the mean over the grid. `naturesClock`: settling as it ran before it followed the
// sky (on the run's own clock at the snowpack's temperature_c), for the plot's comparison.
struct SkyPoint {
    double day = 0.0, depthM = 0.0, sweKgM2 = 0.0;
};

std::vector<SkyPoint> underTheSky(const ValidationCase& c, double lastDay, double everyDays,
                                  bool naturesClock) {
    SnowpackSettings snowpack = c.settings.sims.front().snowpack;
    const WeatherSettings& weather = c.settings.weather;
    WeatheredSnowpack pack(c.resolution, snowpack, weather, c.settings.wind, {0.0f, 0.0f, 1.0f},
                           c.settings.snow.captureZCm, c.settings.capture.farCm, c.texelCm);
    if (naturesClock) {
        // The settling a sky-less snowpack runs: its own temperature_c, a tick of
        // settle_interval_s simulated seconds a second of the run, whatever the sky's time_scale.
        WeatherSettings none;
        pack.snowpack().setWeather(none);
    }
    const std::vector<float> nothing(static_cast<std::size_t>(c.resolution) * c.resolution, 1.0f);
    const double runSPerDay = 86400.0 / weather.timeScale;
    const double dt = 1.0 / 30.0;
    const auto read = [&](double day) {
        SkyPoint point{day};
        for (const SnowColumn& column : pack.snowpack().grid().columns) {
            point.depthM += column.depthCm / 100.0;
            point.sweKgM2 += column.massKgM2 + column.waterKgM2;
        }
        const double n = static_cast<double>(pack.snowpack().grid().columns.size());
        point.depthM /= n;
        point.sweKgM2 /= n;
        return point;
    };
    std::vector<SkyPoint> points{read(0.0)};
    const int stepsPerRead = static_cast<int>(std::lround(everyDays * runSPerDay / dt));
    const int reads = static_cast<int>(std::lround(lastDay / everyDays));
    for (int r = 1; r <= reads; ++r) {
        for (int i = 0; i < stepsPerRead; ++i)
            pack.step(nothing, dt);
        points.push_back(read(r * everyDays));
    }
    return points;
}

// The model at each measured row's day (`day` column, whole or a multiple of the curve's step)
// and along the run, for a quantity of the column (depth or water equivalent).
std::variant<ExperimentResult, std::string> seasonUnderSky(const ValidationCase& c, bool depth) {
    if (std::string missing = missingColumn(c, {"day"}); !missing.empty())
        return missing;
    if (!(c.settings.weather.timeScale > 0.0) || c.settings.weather.keys.empty())
        return fmt::format("{}/scenario.toml: experiment '{}' needs a sky given hour by hour "
                           "([[weather.key]] and weather.time_scale)",
                           c.folder.string(), c.experiment);
    constexpr double kEveryDays = 0.25;
    double lastDay = 0.0;
    for (const MeasuredRow& row : c.rows) {
        const double day = row.at("day");
        if (!(day >= 0.0) || std::abs(day / kEveryDays - std::round(day / kEveryDays)) > 1e-9)
            return fmt::format("{}/measured.csv: day {} is not a non-negative multiple of {}",
                               c.folder.string(), day, kEveryDays);
        lastDay = std::max(lastDay, day);
    }
    const auto value = [depth](const SkyPoint& p) {
        return depth ? p.depthM : p.sweKgM2;
    };
    const std::vector<SkyPoint> run = underTheSky(c, lastDay, kEveryDays, false);
    ExperimentResult result;
    for (const MeasuredRow& row : c.rows)
        result.model.push_back(
            value(run[static_cast<std::size_t>(std::lround(row.at("day") / kEveryDays))]));
    ModelCurve curve{"model: settling on the sky's clock and air temperature", {}, {}, false};
    for (const SkyPoint& p : run) {
        curve.x.push_back(p.day);
        curve.y.push_back(value(p));
    }
    result.curves = {curve};
    if (depth) {
        ModelCurve old{fmt::format("settling on the run's clock at {:.0f} C (before the fix)",
                                   c.settings.sims.front().snowpack.temperatureC),
                       {},
                       {},
                       true};
        for (const SkyPoint& p : underTheSky(c, lastDay, kEveryDays, true)) {
            old.x.push_back(p.day);
            old.y.push_back(value(p));
        }
        result.curves.push_back(std::move(old));
    } else {
        result.curves.front().label = "model: melt under the measured sky";
    }
    result.note = fmt::format(
        "{:.2f} m of {:.0f} kg/m3 snow under the measured hourly sky for {:.0f} days (albedo "
        "{:.2f})",
        c.settings.sims.front().snowpack.depthCm / 100.0,
        c.settings.sims.front().snowpack.densityKgM3, lastDay,
        c.settings.sims.front().snowpack.albedo);
    return result;
}

std::variant<ExperimentResult, std::string> settlementUnderSky(const ValidationCase& c) {
    return seasonUnderSky(c, true);
}

std::variant<ExperimentResult, std::string> meltOutUnderSky(const ValidationCase& c) {
    return seasonUnderSky(c, false);
}

const std::vector<std::pair<std::string_view, Experiment>>& experiments() {
    static const std::vector<std::pair<std::string_view, Experiment>> table = {
        {"compaction_density", compactionDensity},
        {"rut_sinkage", rutSinkage},
        {"drift_onset", driftOnset},
        {"repose_angle", reposeAngle},
        {"settlement_under_sky", settlementUnderSky},
        {"melt_out_under_sky", meltOutUnderSky},
    };
    return table;
}

} // namespace

std::vector<std::string_view> experimentNames() {
    std::vector<std::string_view> names;
    for (const auto& [name, run] : experiments())
        names.push_back(name);
    return names;
}

std::variant<ExperimentResult, std::string> runExperiment(const ValidationCase& c) {
    for (const auto& [name, run] : experiments()) {
        if (name == c.experiment) {
            auto result = run(c);
            if (auto* done = std::get_if<ExperimentResult>(&result);
                done && done->model.size() != c.rows.size())
                return fmt::format("{}: experiment '{}' gave {} values for {} rows",
                                   c.folder.string(), name, done->model.size(), c.rows.size());
            return result;
        }
    }
    return fmt::format("{}/case.toml: no experiment '{}' (one of: {})", c.folder.string(),
                       c.experiment, fmt::join(experimentNames(), ", "));
}

} // namespace snowcap
