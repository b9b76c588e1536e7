#include "core/weather_laws.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace snowcap {

namespace {

constexpr double kTwoPi = 6.283185307179586;
// [weather]'s keys as the timeline's channels, in the order of WeatherSettings::Key::values.
constexpr std::array<double WeatherSettings::*, 7> kChannels{
    &WeatherSettings::snowfallCmH, &WeatherSettings::snowfallDensityKgM3,
    &WeatherSettings::windMS,      &WeatherSettings::windTowardDeg,
    &WeatherSettings::airTempC,    &WeatherSettings::sunWM2,
    &WeatherSettings::timeScale};

double channelAt(const WeatherSettings& weather, std::size_t channel, double timeS) {
    double beforeT = 0.0, before = weather.*kChannels[channel];
    for (const WeatherSettings::Key& key : weather.keys) {
        const auto& value = key.values[channel];
        if (!value)
            continue;
        if (key.atS <= timeS) {
            beforeT = key.atS;
            before = *value;
            continue;
        }
        // The first entry after timeS that gives the channel: linear from the one before.
        const double span = key.atS - beforeT;
        const double t = span > 0.0 ? (timeS - beforeT) / span : 1.0;
        return before + (*value - before) * t;
    }
    return before;
}

} // namespace

Sky skyAt(const WeatherSettings& weather, double timeS) {
    std::array<double, 7> v{};
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = channelAt(weather, i, timeS);
    return {v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
}

bool weatherActive(const WeatherSettings& weather) {
    const auto acts = [](double snowfall, double wind, double temperature) {
        return snowfall > 0.0 || wind > 0.0 || temperature > 0.0;
    };
    if (acts(weather.snowfallCmH, weather.windMS, weather.airTempC))
        return true;
    for (const WeatherSettings::Key& key : weather.keys)
        if (acts(key.values[0].value_or(0.0), key.values[2].value_or(0.0),
                 key.values[4].value_or(-1.0)))
            return true;
    return false;
}

bool weatherGiven(const WeatherSettings& weather) {
    // Asked every step (the frozen mud, the idle clock): the table's defaults are built once.
    static const WeatherSettings none;
    return !(weather == none);
}

SettleClimate settleClimate(const SnowpackSettings& snowpack, const WeatherSettings& weather,
                            double timeS, int settleTicks) {
    SettleClimate climate;
    if (!weatherGiven(weather)) {
        climate.dtS =
            static_cast<float>(settleTicks * snowpack.settleIntervalS * snowpack.settleTimeScale);
        climate.temperatureC = static_cast<float>(snowpack.temperatureC);
        return climate;
    }
    const Sky sky = skyAt(weather, timeS);
    climate.dtS = static_cast<float>(settleTicks * snowpack.settleIntervalS *
                                     snowpack.settleTimeScale * sky.timeScale);
    climate.temperatureC = static_cast<float>(std::min(sky.airTempC, 0.0));
    return climate;
}

WeatheredColumn weatherColumn(const SnowColumn& column, const WeatherTick& tick, bool exposed,
                              glm::vec3 normal) {
    WeatheredColumn out{column};
    if (exposed) {
        out.column = snowfallOnto(out.column, tick.snowfallQuanta, tick.snowfallDensity);
        out.inQuanta = tick.snowfallQuanta;
    }
    std::uint32_t melt = tick.meltQuanta;
    if (tick.sunMeltPerCos > 0.0f)
        melt += sunMeltQuanta(normal, tick);
    out.column = meltColumn(out.column, melt);
    const float drained = drainedWater(out.column.waterKgM2, tick.drainFraction,
                                       printHoldsKgM2(out.column.groundPrintCm));
    if (drained > 0.0f) {
        out.column.waterKgM2 = out.column.waterKgM2 - drained;
        // Whole quanta (the last sliver of a column's water is below one).
        out.outQuanta = static_cast<std::uint32_t>(std::floor(drained * kWeatherQuanta + 0.5f));
    }
    return out;
}

glm::dvec3 solarDirection(double latitudeDeg, double dayOfYear, double solarHour) {
    constexpr double kDeg = kTwoPi / 360.0;
    // Spencer's day angle, 0 on 1 January, and his series for the declination (radians).
    const double g = kTwoPi * (dayOfYear - 1.0) / 365.0;
    const double declination = 0.006918 - 0.399912 * std::cos(g) + 0.070257 * std::sin(g) -
                               0.006758 * std::cos(2.0 * g) + 0.000907 * std::sin(2.0 * g) -
                               0.002697 * std::cos(3.0 * g) + 0.00148 * std::sin(3.0 * g);
    const double hourAngle = 15.0 * (solarHour - 12.0) * kDeg; // negative in the morning
    const double phi = latitudeDeg * kDeg;
    // The equatorial frame turned into the horizon's: the sun rises in the east (hour angle
    // < 0, x > 0) and, north of the tropics, stands in the south at noon (y < 0).
    const double east = -std::cos(declination) * std::sin(hourAngle);
    const double north = std::cos(phi) * std::sin(declination) -
                         std::sin(phi) * std::cos(declination) * std::cos(hourAngle);
    const double up = std::sin(phi) * std::sin(declination) +
                      std::cos(phi) * std::cos(declination) * std::cos(hourAngle);
    return {east, north, up};
}

glm::vec3 weatherSunDirection(const WeatherSettings& weather, glm::vec3 lookSun) {
    if (weather.sunHour >= 0.0)
        return glm::vec3(solarDirection(weather.latitudeDeg, weather.dayOfYear, weather.sunHour));
    const float length = glm::length(lookSun);
    return length > 0.0f ? lookSun / length : glm::vec3(0.0f, 0.0f, 1.0f);
}

WeatherClock::WeatherClock(const WeatherSettings& weather, const SnowpackSettings& snowpack,
                           const WindSettings& wind, glm::vec3 sunDirection) {
    configure(weather, snowpack, wind, sunDirection);
}

void WeatherClock::configure(const WeatherSettings& weather, const SnowpackSettings& snowpack,
                             const WindSettings& wind, glm::vec3 sunDirection) {
    weather_ = weather;
    snowpack_ = snowpack;
    wind_ = wind;
    sunDirection_ = weatherSunDirection(weather, sunDirection);
}

WeatherTick WeatherClock::tickAt(double timeS) {
    const Sky sky = skyAt(weather_, timeS);
    WeatherTick tick;
    tick.timeS = timeS;
    const double dtW = kWeatherTickS * sky.timeScale;
    tick.weatherDtS = static_cast<float>(dtW);
    // Snowfall: cm/h of fresh snow at its density, kg/m2 = cm x 0.01 x density.
    const double fallKgM2 = sky.snowfallCmH / 3600.0 * dtW * 0.01 * sky.snowfallDensityKgM3;
    snowfallCarry_ += fallKgM2 * kWeatherQuanta;
    const double fall = std::min(std::floor(snowfallCarry_), double(kMaxSnowfallQuantaPerTick));
    snowfallCarry_ = std::min(snowfallCarry_ - fall, 1.0);
    tick.snowfallQuanta = static_cast<std::uint32_t>(fall);
    tick.snowfallDensity = static_cast<float>(sky.snowfallDensityKgM3);
    // Melt (the enhanced temperature-index model): above 0 C, TF T + SRF (1 - albedo) G, in
    // mm w.e. (= kg/m2) per hour; the temperature part is uniform, the sun's per texel.
    if (sky.airTempC > 0.0) {
        const double meltKgM2 = snowpack_.meltTemperatureFactor * sky.airTempC * dtW / 3600.0;
        meltCarry_ += meltKgM2 * kWeatherQuanta;
        const double melt = std::min(std::floor(meltCarry_), double(kMaxSnowfallQuantaPerTick));
        meltCarry_ -= melt;
        tick.meltQuanta = static_cast<std::uint32_t>(melt);
        // A sun placed by the time of day below the horizon melts nothing.
        const bool risen = weather_.sunHour < 0.0 || sunDirection_.z > 0.0f;
        tick.sunMeltPerCos =
            risen ? static_cast<float>(snowpack_.meltRadiationFactor * (1.0 - snowpack_.albedo) *
                                       sky.sunWM2 * dtW / 3600.0)
                  : 0.0f;
    } else {
        meltCarry_ = 0.0;
    }
    tick.sunDirection = sunDirection_;
    tick.drainFraction = static_cast<float>(1.0 - std::exp(-snowpack_.drainPerH * dtW / 3600.0));
    tick.windMS = static_cast<float>(sky.windMS);
    const double toward = sky.windTowardDeg * kTwoPi / 360.0;
    tick.windDirection = {static_cast<float>(std::cos(toward)),
                          static_cast<float>(std::sin(toward))};
    tick.gustPhase = static_cast<float>(std::fmod(kTwoPi * wind_.gustHz * timeS, kTwoPi));
    tick.gustAmount = static_cast<float>(wind_.gustAmount);
    tick.gustWaveNumber = static_cast<float>(kTwoPi / wind_.gustWavelengthCm);
    tick.driftThresholdMS = static_cast<float>(snowpack_.driftThresholdMS);
    return tick;
}

std::vector<WeatherTick> WeatherClock::advance(double dtS) {
    const double before = timeS_;
    timeS_ += std::max(dtS, 0.0);
    // The same millionth of a tick of slack as SnowpackClock: summed 1/30 s steps land a hair
    // below the tick they reach.
    const auto tickOf = [](double t) {
        return std::floor(t / kWeatherTickS + 1e-6);
    };
    std::vector<WeatherTick> ticks;
    for (double k = tickOf(before) + 1.0; k <= tickOf(timeS_); k += 1.0)
        ticks.push_back(tickAt(k * kWeatherTickS));
    return ticks;
}

// ---- per texel (the operations of shaders/weather/weather_laws.glsl) -------------------------

SnowColumn snowfallOnto(const SnowColumn& column, std::uint32_t quanta, float density) {
    if (quanta == 0)
        return column;
    const float mass = static_cast<float>(quanta) * kWeatherQuantum;
    SnowColumn out = column;
    out.depthCm = column.depthCm + mass / (0.01f * density);
    out.massKgM2 = column.massKgM2 + mass;
    return out;
}

glm::vec3 surfaceNormal(float left, float right, float down, float up, float texelCm) {
    const float dx = (right - left) / (2.0f * texelCm);
    const float dy = (up - down) / (2.0f * texelCm);
    const float length = std::sqrt(dx * dx + dy * dy + 1.0f);
    return {-dx / length, -dy / length, 1.0f / length};
}

std::uint32_t sunMeltQuanta(glm::vec3 normal, const WeatherTick& tick) {
    if (!(tick.sunMeltPerCos > 0.0f))
        return 0;
    const float facing = normal.x * tick.sunDirection.x + normal.y * tick.sunDirection.y +
                         normal.z * tick.sunDirection.z;
    const float quanta =
        std::floor(tick.sunMeltPerCos * std::max(facing, 0.0f) * kWeatherQuanta + 0.5f);
    return static_cast<std::uint32_t>(std::min(quanta, float(kMaxSnowfallQuantaPerTick)));
}

SnowColumn meltColumn(const SnowColumn& column, std::uint32_t quanta) {
    if (quanta == 0 || !(column.massKgM2 > 0.0f))
        return column;
    const float melt = static_cast<float>(quanta) * kWeatherQuantum;
    SnowColumn out = column;
    if (melt >= column.massKgM2) {
        out.waterKgM2 = column.waterKgM2 + column.massKgM2;
        out.massKgM2 = 0.0f;
        out.depthCm = 0.0f;
        return out;
    }
    out.depthCm = column.depthCm - column.depthCm * (melt / column.massKgM2);
    out.massKgM2 = column.massKgM2 - melt;
    out.waterKgM2 = column.waterKgM2 + melt;
    return out;
}

float printHoldsKgM2(float printCm) {
    return std::floor(printCm * (10.0f * kWeatherQuanta)) * kWeatherQuantum;
}

float drainedWater(float water, float drainFraction, float heldKgM2) {
    // Held 0 (flat ground): free is the water, to the bit.
    const float free = water - heldKgM2;
    if (!(free > 0.0f) || !(drainFraction > 0.0f))
        return 0.0f;
    if (free < kWeatherQuantum)
        return free;
    const float quanta = std::max(std::floor(free * drainFraction * kWeatherQuanta), 1.0f);
    return std::min(quanta * kWeatherQuantum, free);
}

float frictionVelocity(float windAt10mMS) {
    // u* = kappa U / ln(z / z0): kappa 0.4, z 10 m, z0 1e-4 m (ln 1e5 = 11.5129).
    return 0.4f * windAt10mMS / 11.512925f;
}

float thresholdFrictionVelocity(float density) {
    return density < 300.0f ? 0.10f * std::exp(0.003f * density)
                            : 0.005f * std::exp(0.013f * density);
}

float saltationFlux(float uStar, float uStarT) {
    if (!(uStar > uStarT))
        return 0.0f;
    // 0.68 m/s x air density 1.29 kg/m3 / g 9.81 m/s2.
    const float c = 0.68f * 1.29f / 9.81f;
    return c * uStarT * (uStar * uStar - uStarT * uStarT) / uStar;
}

float bagnoldFlux(float uStar, float uStarT) {
    if (!(uStar > uStarT))
        return 0.0f;
    // C 1 x air density 1.29 kg/m3 / g 9.81 m/s2, sqrt(d / D) = 1.
    const float c = 1.29f / 9.81f;
    return c * uStar * uStar * uStar;
}

float substanceFlux(float uStar, float density, const WeatherTick& tick) {
    return tick.driftThresholdMS > 0.0f ? bagnoldFlux(uStar, tick.driftThresholdMS)
                                        : saltationFlux(uStar, thresholdFrictionVelocity(density));
}

float microMetCurvature(float z, const std::array<float, 8>& a, float etaCm) {
    // a: west, east, south, north, south-west, north-east, north-west, south-east.
    const float straight = 2.0f * etaCm;
    const float diagonal = 2.0f * 1.41421356f * etaCm;
    const float sum = (z - 0.5f * (a[0] + a[1])) / straight +
                      (z - 0.5f * (a[2] + a[3])) / straight +
                      (z - 0.5f * (a[4] + a[5])) / diagonal + (z - 0.5f * (a[6] + a[7])) / diagonal;
    return 0.25f * sum;
}

float terrainWindFactor(float slopeAlong, float curvature) {
    // Each term scaled to [-0.5, 0.5]: a slope of 1 (45 degrees) and a curvature of 0.25 reach
    // the ends (lab scales for centimetre texels; MicroMet scales by the domain's largest).
    const float omegaS = std::clamp(0.5f * slopeAlong, -0.5f, 0.5f);
    const float omegaC = std::clamp(2.0f * curvature, -0.5f, 0.5f);
    return 1.0f + 0.5f * omegaS + 0.5f * omegaC;
}

float slopeAlongWind(float snowSlopeAlong, const WindTerrain& terms, glm::vec2 direction) {
    const float ground = terms.slopeX * direction.x + terms.slopeY * direction.y;
    return snowSlopeAlong + ground;
}

float gustedWind(glm::vec2 xyCm, const WeatherTick& tick) {
    const float along = xyCm.x * tick.windDirection.x + xyCm.y * tick.windDirection.y;
    const float gust = std::sin(tick.gustPhase - tick.gustWaveNumber * along);
    return tick.windMS * std::max(1.0f + tick.gustAmount * gust, 0.0f);
}

DriftOut driftOut(const SnowColumn& column, bool underContact, float windMS, float slopeAlong,
                  float curvature, const WeatherTick& tick, float texelCm) {
    DriftOut out;
    if (underContact || !(column.massKgM2 > 0.0f) || column.depthCm < kBareDepthCm ||
        column.waterKgM2 > kDriftDryWaterShare * column.massKgM2)
        return out;
    const float uStar = frictionVelocity(windMS * terrainWindFactor(slopeAlong, curvature));
    const float flux = substanceFlux(uStar, densityOf(column), tick);
    if (!(flux > 0.0f))
        return out;
    // kg/m per s through a face of the texel -> kg/m2 of the texel per tick.
    const float perTexel = flux * tick.weatherDtS / (0.01f * texelCm);
    float x = std::floor(perTexel * std::abs(tick.windDirection.x) * kWeatherQuanta);
    float y = std::floor(perTexel * std::abs(tick.windDirection.y) * kWeatherQuanta);
    const float cap = std::floor(column.massKgM2 * kDriftMaxShare * kWeatherQuanta);
    if (x + y > cap) {
        const float share = cap / (x + y);
        x = std::floor(x * share);
        y = std::floor(y * share);
    }
    out.x = static_cast<std::uint32_t>(x);
    out.y = static_cast<std::uint32_t>(y);
    return out;
}

SnowColumn driftColumn(const SnowColumn& column, std::uint32_t outQuanta, std::uint32_t inQuanta,
                       const SnowpackConstants& c) {
    SnowColumn out = column;
    if (outQuanta > 0) {
        const float gone = static_cast<float>(outQuanta) * kWeatherQuantum;
        out.depthCm = column.depthCm - column.depthCm * (gone / column.massKgM2);
        out.massKgM2 = column.massKgM2 - gone;
        if (!(out.massKgM2 > 0.0f)) {
            out.massKgM2 = 0.0f;
            out.depthCm = 0.0f;
        }
    }
    if (inQuanta > 0) {
        // Drifted snow lands loose, at the initial (settled fresh) density, and mixes by mass.
        const float arriving = static_cast<float>(inQuanta) * kWeatherQuantum;
        out = withMass(out, out.depthCm + arriving / (0.01f * c.initialDensity),
                       out.massKgM2 + arriving, c);
    }
    return out;
}

SnowColumn driftInPlace(const SnowColumn& column, const WeatherTick& tick,
                        const SnowpackConstants& c) {
    if (!(tick.windMS > 0.0f))
        return column;
    const DriftOut sent = driftOut(column, false, tick.windMS, 0.0f, 0.0f, tick, c.texelCm);
    const std::uint32_t quanta = sent.x + sent.y;
    return quanta > 0 ? driftColumn(column, quanta, quanta, c) : column;
}

WeatheredColumn weatherAwayColumn(const SnowColumn& column, const WeatherTick& tick,
                                  const SnowpackConstants& c) {
    WeatheredColumn out = weatherColumn(column, tick, true, {0.0f, 0.0f, 1.0f});
    out.column = driftInPlace(out.column, tick, c);
    return out;
}

} // namespace snowcap
