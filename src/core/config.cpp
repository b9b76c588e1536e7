#include "core/config.hpp"

#include "core/config_layers.hpp"
#include "core/config_read.hpp"
#include "core/config_scene.hpp"

#include <array>
#include <set>
#include <toml++/toml.h>

namespace snowcap {
namespace {

using namespace config_read;

using SimPair = std::array<SimSettings, 2>;

Field<SimPair> simField(std::string_view name, std::size_t index, Read<SimSettings> read) {
    return {name, [index, read](Walker& walker, const toml::node& node, const std::string& key,
                                SimPair& sims) {
                return read(walker, node, key, sims[index]);
            }};
}

// sim.X.decay_keys = [[t, decay], ...]: times non-decreasing from 0, decays in (0, 1].
Read<std::vector<SimSettings::DecayKey>> decayKeyframes() {
    return [](Walker& walker, const toml::node& node, const std::string& key,
              std::vector<SimSettings::DecayKey>& out) {
        const toml::array* keys = node.as_array();
        if (!keys)
            return walker.expected(node, key, "an array of [t, decay] keys");
        const auto readKey = numbers<2>("[t, decay]");
        std::vector<SimSettings::DecayKey> read;
        for (std::size_t i = 0; i < keys->size(); ++i) {
            const std::string at = key + "[" + std::to_string(i) + "]";
            std::array<double, 2> value{};
            if (!readKey(walker, *keys->get(i), at, value))
                return false;
            const toml::array& pair = *keys->get(i)->as_array();
            if (value[0] < 0.0 || (!read.empty() && value[0] < read.back().timeS))
                return walker.failKey(*pair.get(0), at + "[0]",
                                      "time must be at least 0 and not decrease, got " +
                                          show(value[0]));
            if (!(value[1] > 0.0 && value[1] <= 1.0))
                return walker.failKey(*pair.get(1), at + "[1]",
                                      "decay must be in (0, 1], got " + show(value[1]));
            read.push_back({value[0], value[1]});
        }
        out = std::move(read);
        return true;
    };
}

Read<Settings> makeSettingsReader() {
    using R = RunSettings;
    using N = SnowSettings;
    using C = CaptureSettings;
    using S = SimSettings;
    using M = MaterialSettings;
    using L = LookSettings;
    using V = ViewSettings;
    using K = SoakSettings;
    const Read<MaterialSettings> material = table<M>({
        field("mask_multi", &M::maskMulti, number(positive())),
        field("tgl", &M::tgl, number(between(0.0, 1.0))),
        field("tgh", &M::tgh, number(between(0.0, 1.0))),
        field("displacement_magnitude_cm", &M::displacementMagnitudeCm, number(nonNegative())),
        field("distance_steps", &M::distanceSteps, integer(integerBetween(1, 64))),
        field("radial_steps", &M::radialSteps, integer(integerBetween(1, 32))),
        field("rt_blur_distance", &M::rtBlurDistance, number(between(0.0, 0.25))),
        field("edge_control", &M::edgeControl, number(between(0.0, 0.5))),
        field("normal_intensity", &M::normalIntensity, number(between(0.0, 100.0))),
        field("rim_height_cm", &M::rimHeightCm, number(between(0.0, 100.0))),
        field("rim_width_cm", &M::rimWidthCm, number(between(0.0, 1000.0))),
    });
    const Read<SimSettings> sim = table<S>({
        field("decay", &S::decay, number(aboveUpTo(0.0, 1.0))),
        field("decay_timing", &S::decayTiming, choice(kDecayTimings)),
        field("accumulate", &S::accumulate, choice(kAccumulateModes)),
        field("half_safe", &S::halfSafe, exactly<bool>("a boolean")),
        field("resolution", &S::resolution, integer(zeroOrPowerOfTwoBetween(64, 8192))),
        field("format", &S::format, choice(kBufferFormats)),
        field("normals", &S::normals, choice(kNormalModes)),
        field("region", &S::region, choice(kRegionModes)),
        field("rims", &S::rims, choice(kRimModes)),
        field("refill", &S::refill, choice(kRefillModes)),
        field("refill_rate", &S::refillRatePerS, number(aboveUpTo(0.0, 1000.0))),
        field("decay_keys", &S::decayKeys, decayKeyframes()),
        field("blur", &S::blur, choice(kBlurModes)),
        field("displacement", &S::displacement, choice(kSurfaceGeometries)),
        field("material", &S::material, material),
    });
    return table<Settings>({
        field("run", &Settings::run,
              table<R>({
                  field("fps", &R::fps, number(aboveUpTo(0.0, 1000.0))),
                  field("frames", &R::frames, integer(atLeast(1))),
                  field("duration_s", &R::durationS, number(between(0.0, 1e6))),
              })),
        field("snow", &Settings::snow,
              table<N>({
                  field("resolution", &N::resolution, integer(powerOfTwoBetween(64, 8192))),
                  field("ortho_width_cm", &N::orthoWidthCm, number(positive())),
                  field("surface_z_cm", &N::surfaceZCm, number()),
                  field("capture_z_cm", &N::captureZCm, number()),
                  field("depth_cm", &N::depthCm, number(positive())),
                  field("region_centre_cm", &N::regionCentreCm, numbers<2>("[x, y]")),
                  field("follow", &N::follow, exactly<std::string>("a string")),
                  field("quality", &N::quality, choice(kQualities)),
                  field("idle_skip", &N::idleSkip, exactly<bool>("a boolean")),
              })),
        field("capture", &Settings::capture,
              table<C>({
                  field("offset_cm", &C::offsetCm, number()),
                  field("distance_cm", &C::distanceCm, number(positive())),
                  field("far_cm", &C::farCm, number(positive())),
              })),
        field("sim", &Settings::sims,
              table<SimPair>({simField("a", 0, sim), simField("b", 1, sim)})),
        field("look", &Settings::look,
              table<L>({
                  field("snow_colour", &L::snowColour, vec3(between(0.0, 1.0))),
                  field("packed_colour", &L::packedColour, vec3(between(0.0, 1.0))),
                  field("ground_colour", &L::groundColour, vec3(between(0.0, 1.0))),
                  field("ss_snow", &L::ssSnow, vec3(between(0.0, 1.0))),
                  field("ss_ground", &L::ssGround, vec3(between(0.0, 1.0))),
                  field("wrap", &L::wrap, number(between(0.0, 1.0))),
                  field("ground_reveal", &L::groundReveal, number(between(0.0, 1.0))),
                  field("detail_normal", &L::detailNormal, number(between(0.0, 4.0))),
                  field("sun_direction", &L::sunDirection, vec3(anyNumber())),
                  field("sun_colour", &L::sunColour, vec3(between(0.0, 100.0))),
                  field("sky_colour", &L::skyColour, vec3(between(0.0, 100.0))),
                  field("snow_or", &L::snowOr,
                        numbers<2>("[occlusion, roughness]", between(0.0, 1.0))),
                  field("packed_or", &L::packedOr,
                        numbers<2>("[occlusion, roughness]", between(0.0, 1.0))),
                  field("ground_or", &L::groundOr,
                        numbers<2>("[occlusion, roughness]", between(0.0, 1.0))),
                  field("crevice_occlusion", &L::creviceOcclusion, number(between(0.0, 1.0))),
                  field("specular", &L::specular, exactly<bool>("a boolean")),
                  field("sparkle", &L::sparkle, exactly<bool>("a boolean")),
                  field("deformer_shadows", &L::deformerShadows, exactly<bool>("a boolean")),
              })),
        field("view", &Settings::view,
              table<V>({
                  field("width", &V::width, integer(integerBetween(16, 8192))),
                  field("height", &V::height, integer(integerBetween(16, 8192))),
                  field("mode", &V::mode, choice(kViewModes)),
                  field("target_cm", &V::targetCm, numbers<3>("[x, y, z]")),
                  field("distance_cm", &V::distanceCm, number(nonNegative())),
                  field("yaw_deg", &V::yawDeg, number()),
                  field("pitch_deg", &V::pitchDeg, number(between(-89.0, 89.0))),
                  field("fov_deg", &V::fovDeg, number(between(5.0, 150.0))),
              })),
        field("deformer", &Settings::deformers, deformerListReader()),
        field("probe", &Settings::probes, probeListReader()),
        field(
            "soak", &Settings::soak,
            table<K>({
                field("enabled", &K::enabled, exactly<bool>("a boolean")),
                field("seed", &K::seed, integer(integerBetween(0, 2147483647))),
                field("reset_every", &K::resetEvery, integer(integerBetween(0, 1000000000))),
                field("resize_every", &K::resizeEvery, integer(integerBetween(0, 1000000000))),
                field("params_every", &K::paramsEvery, integer(integerBetween(0, 1000000000))),
                field("teleport_every", &K::teleportEvery, integer(integerBetween(0, 1000000000))),
                field("check_every", &K::checkEvery, integer(integerBetween(1, 1000000))),
                field("warmup_steps", &K::warmupSteps, integer(integerBetween(0, 1000000000))),
                field("rss_slack_mib", &K::rssSlackMiB, number(between(0.0, 65536.0))),
            })),
    });
}

// The merged table to Settings; the first error, one line.
std::variant<Settings, ConfigError> validate(const toml::table& merged,
                                             const std::set<std::string>& flagOrigins) {
    static const Read<Settings> readSettings = makeSettingsReader();
    Walker walker(flagOrigins);
    Settings settings;
    if (!readSettings(walker, merged, "", settings)) // keys may hold any character
        return ConfigError{config_layers::oneLine(walker.error().message)};
    return settings;
}

} // namespace

using config_layers::mergeInto;
using config_layers::parseFile;
using config_layers::parseOverride;

std::variant<Settings, ConfigError> loadSettings(const std::vector<std::filesystem::path>& files,
                                                 const std::vector<std::string>& overrides) {
    try {
        toml::table merged;
        for (const auto& file : files) {
            auto layer = parseFile(file);
            if (const auto* error = std::get_if<ConfigError>(&layer))
                return *error;
            mergeInto(merged, std::get<toml::table>(layer));
        }
        std::set<std::string> flagOrigins;
        for (const auto& assignment : overrides) {
            const std::string flag = "--set " + assignment;
            auto layer = parseOverride(assignment, flag);
            if (const auto* error = std::get_if<ConfigError>(&layer))
                return *error;
            mergeInto(merged, std::get<toml::table>(layer));
            flagOrigins.insert(flag);
        }
        return validate(merged, flagOrigins);
    } catch (const std::exception& error) {
        // Only allocation failures can get here; the caller still gets a value, not a throw.
        return ConfigError{std::string("cannot load settings: ") + error.what()};
    }
}

std::variant<Settings, ConfigError> loadSettingsFromText(std::string_view text,
                                                         const std::string& origin) {
    try {
        auto layer = config_layers::parseText(text, origin, true);
        if (const auto* error = std::get_if<ConfigError>(&layer))
            return *error;
        return validate(std::get<toml::table>(layer), {});
    } catch (const std::exception& error) {
        return ConfigError{std::string("cannot load settings: ") + error.what()};
    }
}

std::filesystem::path resolveScenario(const std::string& nameOrPath,
                                      const std::filesystem::path& root) {
    const bool isPath = nameOrPath.find('/') != std::string::npos ||
                        std::string_view(nameOrPath).ends_with(".toml");
    if (isPath)
        return nameOrPath;
    return root / "config" / "scenarios" / (nameOrPath + ".toml");
}

std::string_view toString(DecayTiming timing) {
    return nameOf(kDecayTimings, timing);
}
std::string_view toString(AccumulateMode mode) {
    return nameOf(kAccumulateModes, mode);
}
std::string_view toString(DeformerShape shape) {
    return nameOf(kDeformerShapes, shape);
}

std::string_view toString(NormalMode mode) {
    return nameOf(kNormalModes, mode);
}
std::string_view toString(SurfaceGeometry geometry) {
    return nameOf(kSurfaceGeometries, geometry);
}
std::string_view toString(BlurMode mode) {
    return nameOf(kBlurModes, mode);
}
std::string_view toString(BufferFormat format) {
    return nameOf(kBufferFormats, format);
}
std::string_view toString(RefillMode mode) {
    return nameOf(kRefillModes, mode);
}
std::string_view toString(RimMode mode) {
    return nameOf(kRimModes, mode);
}
std::string_view toString(RegionMode mode) {
    return nameOf(kRegionModes, mode);
}
std::string_view toString(Quality quality) {
    return nameOf(kQualities, quality);
}
std::string_view toString(ContactType type) {
    return nameOf(kContactTypes, type);
}
std::string_view toString(ViewMode mode) {
    return nameOf(kViewModes, mode);
}

std::optional<DecayTiming> parseDecayTiming(std::string_view name) {
    return valueOf(kDecayTimings, name);
}
std::optional<AccumulateMode> parseAccumulateMode(std::string_view name) {
    return valueOf(kAccumulateModes, name);
}
std::optional<DeformerShape> parseDeformerShape(std::string_view name) {
    return valueOf(kDeformerShapes, name);
}

} // namespace snowcap
