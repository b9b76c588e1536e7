#include "core/config.hpp"

#include "core/config_layers.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <system_error>
#include <toml++/toml.h>
#include <utility>

namespace snowcap {
namespace {

// ---- enum spellings: one table per enum serves toString, parse* and the validator ---------

template <class E> struct Spelling {
    E value;
    std::string_view name;
};

constexpr std::array<Spelling<DecayTiming>, 2> kDecayTimings{{
    {DecayTiming::PerFrame, "per_frame"},
    {DecayTiming::DeltaTime, "delta_time"},
}};
constexpr std::array<Spelling<AccumulateMode>, 2> kAccumulateModes{{
    {AccumulateMode::Add, "add"},
    {AccumulateMode::Max, "max"},
}};
constexpr std::array<Spelling<DeformerShape>, 3> kDeformerShapes{{
    {DeformerShape::Sphere, "sphere"},
    {DeformerShape::Box, "box"},
    {DeformerShape::Capsule, "capsule"},
}};

constexpr std::array<Spelling<NormalMode>, 2> kNormalModes{{
    {NormalMode::HeightToNormal, "height_to_normal"},
    {NormalMode::Sobel, "sobel"},
}};
constexpr std::array<Spelling<SurfaceGeometry>, 2> kSurfaceGeometries{{
    {SurfaceGeometry::VertexGrid, "vertex"},
    {SurfaceGeometry::Tessellation, "tessellation"},
}};
constexpr std::array<Spelling<BlurMode>, 2> kBlurModes{{
    {BlurMode::PerPixel, "per_pixel"},
    {BlurMode::Prepass, "prepass"},
}};
constexpr std::array<Spelling<ViewMode>, 2> kViewModes{{
    {ViewMode::Perspective, "perspective"},
    {ViewMode::Top, "top"},
}};

template <class E, std::size_t N>
std::string_view nameOf(const std::array<Spelling<E>, N>& spellings, E value) {
    for (const auto& spelling : spellings)
        if (spelling.value == value)
            return spelling.name;
    return "unknown";
}

template <class E, std::size_t N>
std::optional<E> valueOf(const std::array<Spelling<E>, N>& spellings, std::string_view name) {
    for (const auto& spelling : spellings)
        if (spelling.name == name)
            return spelling.value;
    return std::nullopt;
}

// "'sphere', 'box' or 'capsule'": the error tells the user every word that would have worked.
template <class E, std::size_t N>
std::string allowedNames(const std::array<Spelling<E>, N>& spellings) {
    std::string list;
    for (std::size_t i = 0; i < N; ++i) {
        if (i > 0)
            list += i + 1 == N ? " or " : ", ";
        list += "'" + std::string(spellings[i].name) + "'";
    }
    return list;
}

// ---- how values appear in messages ---------------------------------------------------------

// Shortest text that reads back as the same double: "1.5", not "1.500000".
std::string show(double value) {
    std::array<char, 32> text{};
    const auto end = std::to_chars(text.data(), text.data() + text.size(), value).ptr;
    return std::string(text.data(), end);
}

std::string plural(std::size_t count, std::string_view noun) {
    return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

// Indexed by toml::node_type, whose order (none, table, array, string, integer, floating_point,
// boolean, date, time, date_time) is part of toml++'s stable API.
constexpr std::array<std::string_view, 10> kTypeNames{"nothing", "table",    "array",   "string",
                                                      "integer", "float",    "boolean", "date",
                                                      "time",    "date-time"};

std::string_view typeName(const toml::node& node) {
    return kTypeNames.at(static_cast<std::size_t>(node.type()));
}

// ---- the walker: turns the merged table into Settings, stopping at the first error ---------

class Walker {
public:
    // `flagOrigins` are the source names given to `--set` layers: they have no line:column
    // worth printing, the flag text itself is the location.
    explicit Walker(const std::set<std::string>& flagOrigins) : flagOrigins_(flagOrigins) {}

    bool fail(const toml::source_region& where, const std::string& problem) {
        if (!error_)
            error_ = ConfigError{locate(where) + ": " + problem};
        return false;
    }
    bool failKey(const toml::node& node, const std::string& key, const std::string& problem) {
        return fail(node.source(), "key '" + key + "': " + problem);
    }
    bool expected(const toml::node& node, const std::string& key, std::string_view what) {
        return failKey(node, key,
                       "expected " + std::string(what) + ", got " + std::string(typeName(node)));
    }
    ConfigError error() const { return error_.value_or(ConfigError{"unknown error"}); }

private:
    std::string locate(const toml::source_region& where) const {
        if (!where.path)
            return "<config>";
        if (flagOrigins_.contains(*where.path))
            return *where.path;
        return *where.path + ":" + std::to_string(where.begin.line) + ":" +
               std::to_string(where.begin.column);
    }

    const std::set<std::string>& flagOrigins_;
    std::optional<ConfigError> error_;
};

// Reads the node at `key` (its full dotted path, for messages) into `out`. False after an error.
template <class T>
using Read = std::function<bool(Walker&, const toml::node&, const std::string& key, T& out)>;

// A bound on a value already of the right type: whether it holds, and the rule to quote when
// it does not ("must be ...").
template <class T> struct Check {
    std::function<bool(T)> holds;
    std::string rule;
};

Check<double> anyNumber() {
    return {[](double) { return true; }, ""};
}
Check<double> positive() {
    return {[](double value) { return value > 0.0; }, "must be greater than 0"};
}
Check<double> nonNegative() {
    return {[](double value) { return value >= 0.0; }, "must be at least 0"};
}
Check<double> between(double low, double high) {
    return {[=](double value) { return value >= low && value <= high; },
            "must be in [" + show(low) + ", " + show(high) + "]"};
}
Check<std::int64_t> integerBetween(std::int64_t low, std::int64_t high) {
    return {[=](std::int64_t value) { return value >= low && value <= high; },
            "must be between " + std::to_string(low) + " and " + std::to_string(high)};
}
Check<double> aboveUpTo(double low, double high) {
    return {[=](double value) { return value > low && value <= high; },
            "must be in (" + show(low) + ", " + show(high) + "]"};
}
Check<std::int64_t> atLeast(std::int64_t low) {
    return {[=](std::int64_t value) { return value >= low; },
            "must be at least " + std::to_string(low)};
}
Check<std::int64_t> powerOfTwoBetween(std::int64_t low, std::int64_t high) {
    return {[=](std::int64_t value) {
                return value >= low && value <= high && (value & (value - 1)) == 0;
            },
            "must be a power of two between " + std::to_string(low) + " and " +
                std::to_string(high)};
}

// A per-sim override of a shared setting: 0 means "use the shared one".
Check<std::int64_t> zeroOrPowerOfTwoBetween(std::int64_t low, std::int64_t high) {
    const Check<std::int64_t> power = powerOfTwoBetween(low, high);
    return {[=](std::int64_t value) { return value == 0 || power.holds(value); },
            "must be 0 (use snow.resolution) or a power of two between " + std::to_string(low) +
                " and " + std::to_string(high)};
}

// Integers are accepted where a float is expected: nobody should have to write `fps = 60.0`.
Read<double> number(Check<double> check = anyNumber()) {
    return [check](Walker& walker, const toml::node& node, const std::string& key, double& out) {
        if (!node.is_number())
            return walker.expected(node, key, "a number");
        const bool integral = node.is_integer();
        const double value = integral ? static_cast<double>(node.as_integer()->get())
                                      : node.as_floating_point()->get();
        const std::string written =
            integral ? std::to_string(node.as_integer()->get()) : show(value);
        if (!std::isfinite(value))
            return walker.failKey(node, key, "must be a finite number, got " + written);
        if (!check.holds(value))
            return walker.failKey(node, key, check.rule + ", got " + written);
        out = value;
        return true;
    };
}

// Floats are refused where an integer is expected: `resolution = 1024.5` is a mistake.
Read<int> integer(Check<std::int64_t> check) {
    return [check](Walker& walker, const toml::node& node, const std::string& key, int& out) {
        if (!node.is_integer())
            return walker.expected(node, key, "an integer");
        const std::int64_t value = node.as_integer()->get();
        const std::string written = std::to_string(value);
        if (!check.holds(value))
            return walker.failKey(node, key, check.rule + ", got " + written);
        if (value > std::numeric_limits<int>::max())
            return walker.failKey(node, key, "must be at most 2147483647, got " + written);
        out = static_cast<int>(value);
        return true;
    };
}

// Booleans and strings are taken as they are; only their type is checked.
template <class T> Read<T> exactly(std::string_view what) {
    return [what](Walker& walker, const toml::node& node, const std::string& key, T& out) {
        const std::optional<T> value = node.value_exact<T>();
        if (!value)
            return walker.expected(node, key, what);
        out = *value;
        return true;
    };
}

template <class E, std::size_t N> Read<E> choice(const std::array<Spelling<E>, N>& spellings) {
    return [&spellings](Walker& walker, const toml::node& node, const std::string& key, E& out) {
        if (!node.is_string())
            return walker.expected(node, key, "a string");
        const std::string& written = node.as_string()->get();
        if (const auto value = valueOf(spellings, written)) {
            out = *value;
            return true;
        }
        return walker.failKey(node, key,
                              "must be " + allowedNames(spellings) + ", got '" + written + "'");
    };
}

// A fixed-length array of numbers, e.g. [x, y]; `shape` is how the message describes it.
template <std::size_t N>
Read<std::array<double, N>> numbers(std::string shape, Check<double> check = anyNumber()) {
    return [=](Walker& walker, const toml::node& node, const std::string& key,
               std::array<double, N>& out) {
        const toml::array* items = node.as_array();
        if (!items)
            return walker.expected(node, key, shape);
        if (items->size() != N)
            return walker.failKey(node, key,
                                  "expected " + shape + ", got " + plural(items->size(), "value"));
        const Read<double> element = number(check);
        for (std::size_t i = 0; i < N; ++i)
            if (!element(walker, *items->get(i), key + "[" + std::to_string(i) + "]", out[i]))
                return false;
        return true;
    };
}

glm::vec3 toVec3(double x, double y, double z) {
    return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
}

Read<glm::vec3> vec3(Check<double> check) {
    return [read = numbers<3>("[x, y, z]", check)](Walker& walker, const toml::node& node,
                                                   const std::string& key, glm::vec3& out) {
        std::array<double, 3> value{};
        if (!read(walker, node, key, value))
            return false;
        out = toVec3(value[0], value[1], value[2]);
        return true;
    };
}

// path = [[t, x, y, z], ...]. Times start at 0 or later and never decrease, so playback can
// find its segment with a forward scan; two keys with the same time make an instant jump.
Read<std::vector<DeformerSettings::Key>> keyframes() {
    return [](Walker& walker, const toml::node& node, const std::string& key,
              std::vector<DeformerSettings::Key>& out) {
        const toml::array* keys = node.as_array();
        if (!keys)
            return walker.expected(node, key, "an array of [t, x, y, z] keys");
        if (keys->empty())
            return walker.failKey(node, key, "needs at least one [t, x, y, z] key");
        const auto readKey = numbers<4>("[t, x, y, z]");
        std::vector<DeformerSettings::Key> path;
        for (std::size_t i = 0; i < keys->size(); ++i) {
            const std::string at = key + "[" + std::to_string(i) + "]";
            std::array<double, 4> value{};
            if (!readKey(walker, *keys->get(i), at, value))
                return false;
            const toml::node& time = *keys->get(i)->as_array()->get(0);
            if (value[0] < 0.0)
                return walker.failKey(time, at + "[0]",
                                      "time must be at least 0, got " + show(value[0]));
            if (!path.empty() && value[0] < path.back().timeS)
                return walker.failKey(time, at + "[0]",
                                      "time must not decrease, got " + show(value[0]) + " after " +
                                          show(path.back().timeS));
            path.push_back({value[0], toVec3(value[1], value[2], value[3])});
        }
        out = std::move(path);
        return true;
    };
}

// ---- schemas: each key declared once, as (name, where it goes, how it is read) -------------

enum class Presence { Optional, Required };

template <class S> struct Field {
    std::string_view name;
    Read<S> read; // reads the key's node into its place inside S
    Presence presence = Presence::Optional;
};
template <class S> using Schema = std::vector<Field<S>>;

template <class S, class M>
Field<S> field(std::string_view name, M S::*member, Read<M> read,
               Presence presence = Presence::Optional) {
    return {name,
            [member, read](Walker& walker, const toml::node& node, const std::string& key,
                           S& owner) { return read(walker, node, key, owner.*member); },
            presence};
}

// Every key of the table must be in the schema: a misspelt key silently keeping its default
// would make a comparison run measure the wrong thing.
template <class S> Read<S> table(Schema<S> schema) {
    return [schema = std::move(schema)](Walker& walker, const toml::node& node,
                                        const std::string& key, S& out) {
        const toml::table* entries = node.as_table();
        if (!entries)
            return walker.expected(node, key, "a table");
        for (auto&& [entryName, value] : *entries) {
            const std::string at = (key.empty() ? "" : key + ".") + std::string(entryName.str());
            const auto known = std::find_if(schema.begin(), schema.end(), [&](const Field<S>& f) {
                return f.name == entryName.str();
            });
            if (known == schema.end())
                return walker.fail(entryName.source(), "unknown key '" + at + "'");
            if (!known->read(walker, value, at, out))
                return false;
        }
        for (const Field<S>& expectedField : schema)
            if (expectedField.presence == Presence::Required &&
                !entries->contains(expectedField.name))
                return walker.failKey(
                    node, key, "missing required key '" + std::string(expectedField.name) + "'");
        return true;
    };
}

// [[deformer]] / [[probe]]: each entry starts from the struct's defaults and needs a `name`,
// non-empty and unique, because stats.json and the UI tell the entries apart by name.
template <class S> Read<std::vector<S>> listOf(Read<S> readEntry) {
    return [readEntry](Walker& walker, const toml::node& node, const std::string& key,
                       std::vector<S>& out) {
        const toml::array* items = node.as_array();
        if (!items)
            return walker.expected(node, key, "an array of tables");
        std::vector<S> list;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const std::string at = key + "[" + std::to_string(i) + "]";
            S entry{};
            if (!readEntry(walker, *items->get(i), at, entry))
                return false;
            const toml::node& nameNode = *items->get(i)->as_table()->get("name");
            if (entry.name.empty())
                return walker.failKey(nameNode, at + ".name", "must not be empty");
            for (std::size_t j = 0; j < list.size(); ++j)
                if (list[j].name == entry.name)
                    return walker.failKey(nameNode, at + ".name",
                                          "'" + entry.name + "' is already used by " + key + "[" +
                                              std::to_string(j) + "]");
            list.push_back(std::move(entry));
        }
        out = std::move(list);
        return true;
    };
}

using SimPair = std::array<SimSettings, 2>;

Field<SimPair> simField(std::string_view name, std::size_t index, Read<SimSettings> read) {
    return {name, [index, read](Walker& walker, const toml::node& node, const std::string& key,
                                SimPair& sims) {
                return read(walker, node, key, sims[index]);
            }};
}

Read<Settings> makeSettingsReader() {
    using R = RunSettings;
    using N = SnowSettings;
    using C = CaptureSettings;
    using S = SimSettings;
    using D = DeformerSettings;
    using P = ProbeSettings;
    constexpr auto required = Presence::Required;
    using M = MaterialSettings;
    using L = LookSettings;
    using V = ViewSettings;
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
        field("normals", &M::normals, choice(kNormalModes)),
        field("geometry", &M::geometry, choice(kSurfaceGeometries)),
        field("blur", &M::blur, choice(kBlurModes)),
    });
    const Read<SimSettings> sim = table<S>({
        field("decay", &S::decay, number(aboveUpTo(0.0, 1.0))),
        field("decay_timing", &S::decayTiming, choice(kDecayTimings)),
        field("accumulate", &S::accumulate, choice(kAccumulateModes)),
        field("half_safe", &S::halfSafe, exactly<bool>("a boolean")),
        field("resolution", &S::resolution, integer(zeroOrPowerOfTwoBetween(64, 8192))),
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
        field("deformer", &Settings::deformers,
              listOf(table<D>({
                  field("name", &D::name, exactly<std::string>("a string"), required),
                  field("shape", &D::shape, choice(kDeformerShapes)),
                  field("size_cm", &D::sizeCm, vec3(positive())),
                  field("path", &D::path, keyframes(), required),
                  field("mesh", &D::mesh, exactly<std::string>("a string")),
                  field("fit_height_cm", &D::fitHeightCm, number(nonNegative())),
                  field("rotation_deg", &D::rotationDeg, vec3(anyNumber())),
                  field("clip", &D::clip, exactly<std::string>("a string")),
                  field("clip_speed", &D::clipSpeed, number(between(0.0, 100.0))),
                  field("face_path", &D::facePath, exactly<bool>("a boolean")),
              }))),
        field("probe", &Settings::probes,
              listOf(table<P>({
                  field("name", &P::name, exactly<std::string>("a string"), required),
                  field("at_cm", &P::worldCm, numbers<2>("[x, y]"), required),
              }))),
    });
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
        static const Read<Settings> readSettings = makeSettingsReader();
        Walker walker(flagOrigins);
        Settings settings;
        if (!readSettings(walker, merged, "", settings))
            return walker.error();
        return settings;
    } catch (const std::exception& error) {
        // Only allocation failures can get here; the caller still gets a value, not a throw.
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
