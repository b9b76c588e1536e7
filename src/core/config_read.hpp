#pragma once
// The pieces the parameter table's readers are built from: enum spellings, the walker that
// reports the first error as "FILE:LINE:COL: key 'a.b': problem", typed readers with range
// checks (core/param_range.hpp), and table/list readers that refuse unknown keys. Internal to
// src/core/config*.cpp and params*.cpp.

#include "core/config.hpp"
#include "core/param_range.hpp"
#include "core/suggest.hpp"
#include "core/untrusted_file.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <toml++/toml.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace snowcap::config_read {

// ---- enum spellings: one table per enum serves toString, parse* and the validator ---------

template <class E> struct Spelling {
    E value;
    std::string_view name;
};

inline constexpr std::array<Spelling<DecayTiming>, 2> kDecayTimings{{
    {DecayTiming::PerFrame, "per_frame"},
    {DecayTiming::DeltaTime, "delta_time"},
}};
inline constexpr std::array<Spelling<ContactTiming>, 2> kContactTimings{{
    {ContactTiming::PerFrame, "per_frame"},
    {ContactTiming::DeltaTime, "delta_time"},
}};
inline constexpr std::array<Spelling<AccumulateMode>, 2> kAccumulateModes{{
    {AccumulateMode::Add, "add"},
    {AccumulateMode::Max, "max"},
}};
inline constexpr std::array<Spelling<DeformerShape>, 3> kDeformerShapes{{
    {DeformerShape::Sphere, "sphere"},
    {DeformerShape::Box, "box"},
    {DeformerShape::Capsule, "capsule"},
}};
inline constexpr std::array<Spelling<BodyShape>, 4> kBodyShapes{{
    {BodyShape::Sphere, "sphere"},
    {BodyShape::Box, "box"},
    {BodyShape::Capsule, "capsule"},
    {BodyShape::Mesh, "mesh"},
}};

inline constexpr std::array<Spelling<NormalMode>, 2> kNormalModes{{
    {NormalMode::HeightToNormal, "height_to_normal"},
    {NormalMode::Sobel, "sobel"},
}};
inline constexpr std::array<Spelling<SurfaceGeometry>, 2> kSurfaceGeometries{{
    {SurfaceGeometry::VertexGrid, "vertex"},
    {SurfaceGeometry::Tessellation, "tessellation"},
}};
inline constexpr std::array<Spelling<BlurMode>, 3> kBlurModes{{
    {BlurMode::PerPixel, "per_pixel"},
    {BlurMode::Prepass, "prepass"},
    {BlurMode::Separable, "separable"},
}};
inline constexpr std::array<Spelling<BufferFormat>, 2> kBufferFormats{{
    {BufferFormat::R16F, "r16f"},
    {BufferFormat::RGBA16F, "rgba16f"},
}};
inline constexpr std::array<Spelling<RefillMode>, 2> kRefillModes{{
    {RefillMode::Multiply, "multiply"},
    {RefillMode::Linear, "linear"},
}};
inline constexpr std::array<Spelling<CaptureSubsetMode>, 2> kCaptureSubsetModes{{
    {CaptureSubsetMode::Auto, "auto"},
    {CaptureSubsetMode::Off, "off"},
}};
inline constexpr std::array<Spelling<CaptureProxyMode>, 2> kCaptureProxyModes{{
    {CaptureProxyMode::Auto, "auto"},
    {CaptureProxyMode::Off, "off"},
}};
inline constexpr std::array<Spelling<CaptureDepth>, 3> kCaptureDepths{{
    {CaptureDepth::Auto, "auto"},
    {CaptureDepth::D32F, "d32f"},
    {CaptureDepth::D16, "d16"},
}};
inline constexpr std::array<Spelling<RimMode>, 2> kRimModes{{
    {RimMode::Off, "off"},
    {RimMode::On, "on"},
}};
inline constexpr std::array<Spelling<SimModel>, 2> kSimModels{{
    {SimModel::Decay, "decay"},
    {SimModel::Snowpack, "snowpack"},
}};
inline constexpr std::array<Spelling<Substance>, 3> kSubstances{{
    {Substance::Snow, "snow"},
    {Substance::Mud, "mud"},
    {Substance::Sand, "sand"},
}};
inline constexpr std::array<Spelling<GroundKind>, 5> kGroundKinds{{
    {GroundKind::Colour, "colour"},
    {GroundKind::Grass, "grass"},
    {GroundKind::Mud, "mud"},
    {GroundKind::Rock, "rock"},
    {GroundKind::Texture, "texture"},
}};
inline constexpr std::array<Spelling<TerrainKind>, 5> kTerrainKinds{{
    {TerrainKind::Flat, "flat"},
    {TerrainKind::Heightmap, "heightmap"},
    {TerrainKind::Noise, "noise"},
    {TerrainKind::Dem, "dem"},
    {TerrainKind::Mesh, "mesh"},
}};
inline constexpr std::array<Spelling<TerrainFirstRow>, 2> kTerrainFirstRows{{
    {TerrainFirstRow::North, "north"},
    {TerrainFirstRow::South, "south"},
}};
inline constexpr std::array<Spelling<CaptureReference>, 2> kCaptureReferences{{
    {CaptureReference::Terrain, "terrain"},
    {CaptureReference::Plane, "plane"},
}};
inline constexpr std::array<Spelling<RegionMode>, 3> kRegionModes{{
    {RegionMode::Fixed, "fixed"},
    {RegionMode::FollowNaive, "follow_naive"},
    {RegionMode::FollowSnapped, "follow_snapped"},
}};
inline constexpr std::array<Spelling<Persistence>, 2> kPersistenceModes{{
    {Persistence::Window, "window"},
    {Persistence::World, "world"},
}};
inline constexpr std::array<Spelling<WorldCompression>, 3> kWorldCompressions{{
    {WorldCompression::Off, "off"},
    {WorldCompression::Lz4, "lz4"},
    {WorldCompression::Zstd, "zstd"},
}};
inline constexpr std::array<Spelling<NetMode>, 3> kNetModes{{
    {NetMode::Inputs, "inputs"},
    {NetMode::State, "state"},
    {NetMode::Hybrid, "hybrid"},
}};
inline constexpr std::array<Spelling<Quality>, 6> kQualities{{
    {Quality::Custom, "custom"},
    {Quality::Off, "off"},
    {Quality::Low, "low"},
    {Quality::Medium, "medium"},
    {Quality::High, "high"},
    {Quality::Ultra, "ultra"},
}};
inline constexpr std::array<Spelling<ContactType>, 4> kContactTypes{{
    {ContactType::Foot, "foot"},
    {ContactType::Vehicle, "vehicle"},
    {ContactType::Animal, "animal"},
    {ContactType::Other, "other"},
}};
inline constexpr std::array<Spelling<CrowdSettings::Formation>, 3> kFormations{{
    {CrowdSettings::Formation::Column, "column"},
    {CrowdSettings::Formation::Grid, "grid"},
    {CrowdSettings::Formation::Scatter, "scatter"},
}};
inline constexpr std::array<Spelling<UpAxis>, 3> kUpAxes{{
    {UpAxis::Auto, "auto"},
    {UpAxis::Y, "y"},
    {UpAxis::Z, "z"},
}};
inline constexpr std::array<Spelling<ViewMode>, 2> kViewModes{{
    {ViewMode::Perspective, "perspective"},
    {ViewMode::Top, "top"},
}};

// The [[deformer]] entry's own enums.
inline constexpr std::array<Spelling<DeformerSettings::PathKind>, 3> kPathKinds{{
    {DeformerSettings::PathKind::Keys, "keys"},
    {DeformerSettings::PathKind::Polyline, "polyline"},
    {DeformerSettings::PathKind::Circle, "circle"},
}};
inline constexpr std::array<Spelling<DeformerSettings::PathMode>, 3> kPathModes{{
    {DeformerSettings::PathMode::Once, "once"},
    {DeformerSettings::PathMode::Loop, "loop"},
    {DeformerSettings::PathMode::PingPong, "ping_pong"},
}};
inline constexpr std::array<Spelling<DeformerSettings::Placement>, 3> kPlacements{{
    {DeformerSettings::Placement::Ground, "ground"},
    {DeformerSettings::Placement::Absolute, "absolute"},
    {DeformerSettings::Placement::Draped, "draped"},
}};
inline constexpr std::array<Spelling<DeformerSettings::RootMotion>, 2> kRootMotions{{
    {DeformerSettings::RootMotion::Path, "path"},
    {DeformerSettings::RootMotion::InPlace, "in_place"},
}};
inline constexpr std::array<Spelling<DeformerSettings::CircleDirection>, 2> kCircleDirections{{
    {DeformerSettings::CircleDirection::Ccw, "ccw"},
    {DeformerSettings::CircleDirection::Cw, "cw"},
}};

template <class E, std::size_t N>
inline std::string_view nameOf(const std::array<Spelling<E>, N>& spellings, E value) {
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
inline std::string allowedNames(const std::array<Spelling<E>, N>& spellings) {
    std::string list;
    for (std::size_t i = 0; i < N; ++i) {
        if (i > 0)
            list += i + 1 == N ? " or " : ", ";
        list += "'" + std::string(spellings[i].name) + "'";
    }
    return list;
}

// ---- how values appear in messages ---------------------------------------------------------

inline std::string plural(std::size_t count, std::string_view noun) {
    return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

// Indexed by toml::node_type, whose order (none, table, array, string, integer, floating_point,
// boolean, date, time, date_time) is part of toml++'s stable API.
inline constexpr std::array<std::string_view, 10> kTypeNames{
    "nothing", "table",   "array", "string", "integer",
    "float",   "boolean", "date",  "time",   "date-time"};

inline std::string_view typeName(const toml::node& node) {
    return kTypeNames.at(static_cast<std::size_t>(node.type()));
}

// ---- the walker: turns the merged table into Settings, stopping at the first error ---------

class Walker {
public:
    // `flagOrigins` are the source names given to `--set` layers: they have no line:column
    // worth printing, the flag text itself is the location.
    // `limits`: the import.max_* caps the lists are held to (read before the walk).
    explicit Walker(const std::set<std::string>& flagOrigins, ImportSettings limits = {})
        : flagOrigins_(flagOrigins), limits_(limits) {}
    const ImportSettings& limits() const { return limits_; }

    // A list longer than its cap: refused before any entry is read, naming the table and key.
    bool overCap(const toml::node& node, const std::string& key, std::size_t count,
                 std::string_view what, int cap, std::string_view capKey) {
        if (count <= std::size_t(cap))
            return false;
        failKey(node, key,
                std::to_string(count) + " " + std::string(what) + ", more than " +
                    std::to_string(cap) + " (limit " + std::string(capKey) + ")");
        return true;
    }

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
            return clipForMessage(*where.path);
        return *where.path + ":" + std::to_string(where.begin.line) + ":" +
               std::to_string(where.begin.column);
    }

    const std::set<std::string>& flagOrigins_;
    ImportSettings limits_;
    std::optional<ConfigError> error_;
};

// Reads the node at `key` (its full dotted path, for messages) into `out`. False after an error.
template <class T>
using Read = std::function<bool(Walker&, const toml::node&, const std::string& key, T& out)>;

// Integers are accepted where a float is expected: nobody should have to write `fps = 60.0`.
inline Read<double> number(Range check = anyNumber()) {
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
            return walker.failKey(node, key, check.rule() + ", got " + written);
        out = value;
        return true;
    };
}

// Floats are refused where an integer is expected: `resolution = 1024.5` is a mistake.
inline Read<int> integer(Range check) {
    return [check](Walker& walker, const toml::node& node, const std::string& key, int& out) {
        if (!node.is_integer())
            return walker.expected(node, key, "an integer");
        const std::int64_t value = node.as_integer()->get();
        const std::string written = std::to_string(value);
        if (!check.holds(static_cast<double>(value)))
            return walker.failKey(node, key, check.rule() + ", got " + written);
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
                              "must be " + allowedNames(spellings) + ", got '" +
                                  clipForMessage(written) + "'");
    };
}

// A fixed-length array of numbers, e.g. [x, y]; `shape` is how the message describes it.
template <std::size_t N>
inline Read<std::array<double, N>> numbers(std::string shape, Range check = anyNumber()) {
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

inline glm::vec3 toVec3(double x, double y, double z) {
    return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
}

inline Read<glm::vec3> vec3(Range check) {
    return [read = numbers<3>("[x, y, z]", check)](Walker& walker, const toml::node& node,
                                                   const std::string& key, glm::vec3& out) {
        std::array<double, 3> value{};
        if (!read(walker, node, key, value))
            return false;
        out = toVec3(value[0], value[1], value[2]);
        return true;
    };
}

// ---- schemas: (name, how it is read into its place); built from the parameter table --------

enum class Presence { Optional, Required };

template <class S> struct Field {
    std::string_view name;
    Read<S> read; // reads the key's node into its place inside S
    Presence presence = Presence::Optional;
};
template <class S> using Schema = std::vector<Field<S>>;

template <class S, class M>
inline Field<S> field(std::string_view name, M S::*member, Read<M> read,
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
        for (auto&& entry : *entries) {
            // Not a structured binding: clang before 16 cannot capture one in the lambda below
            // (the fuzz build uses Debian's clang 14).
            const toml::key& entryName = entry.first;
            const toml::node& value = entry.second;
            const std::string at = (key.empty() ? "" : key + ".") + clipForMessage(entryName.str());
            const auto known = std::find_if(schema.begin(), schema.end(), [&](const Field<S>& f) {
                return f.name == entryName.str();
            });
            if (known == schema.end()) {
                std::vector<std::string_view> names;
                for (const Field<S>& candidate : schema)
                    names.push_back(candidate.name);
                return walker.fail(entryName.source(),
                                   "unknown key '" + at + "'" + didYouMean(entryName.str(), names));
            }
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
// Names must be unique: one hash look-up an entry (a list of 40,000 probes took 5.3 s with the
// pairwise check this replaced). `cap` (a member of ImportSettings) bounds the entries.
template <class S>
Read<std::vector<S>> listOf(Read<S> readEntry, int ImportSettings::*cap, std::string_view capKey) {
    return [readEntry, cap, capKey](Walker& walker, const toml::node& node, const std::string& key,
                                    std::vector<S>& out) {
        const toml::array* items = node.as_array();
        if (!items)
            return walker.expected(node, key, "an array of tables");
        if (walker.overCap(node, key, items->size(), "tables", walker.limits().*cap, capKey))
            return false;
        std::vector<S> list;
        list.reserve(items->size());
        std::unordered_map<std::string, std::size_t> seen;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const std::string at = key + "[" + std::to_string(i) + "]";
            S entry{};
            if (!readEntry(walker, *items->get(i), at, entry))
                return false;
            const toml::node& nameNode = *items->get(i)->as_table()->get("name");
            if (entry.name.empty())
                return walker.failKey(nameNode, at + ".name", "must not be empty");
            const auto [where, added] = seen.emplace(entry.name, i);
            if (!added)
                return walker.failKey(nameNode, at + ".name",
                                      "'" + clipForMessage(entry.name) + "' is already used by " +
                                          key + "[" + std::to_string(where->second) + "]");
            list.push_back(std::move(entry));
        }
        out = std::move(list);
        return true;
    };
}

} // namespace snowcap::config_read
