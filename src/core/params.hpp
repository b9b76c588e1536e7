#pragma once
// The parameter table: every config key declared once, as one row (key, member, default, range,
// unit, widget, doc). The rows are in params_table.cpp and params_table_scene.cpp; from them
// come the TOML reader and its messages (config.cpp), the defaults a default-constructed
// Settings holds, the viewer's widgets and their limits, the `params` of stats.json,
// config/default.toml (`snowcap params --toml`) and docs/parameters.md (`--markdown`).

#include "core/config_read.hpp"
#include "core/param_range.hpp"
#include "core/settings.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <toml++/toml.h>
#include <utility>
#include <variant>
#include <vector>

namespace snowcap::params {

using config_read::Presence;
using config_read::Read;
using config_read::Spelling;

// How the viewer edits a key; its limits are always the key's range.
enum class Widget {
    Slider,    // a bounded number: drag across the whole range
    LogSlider, // the same on a logarithmic scale (rates spanning decades)
    Drag,      // an unbounded or wide number: drag by small steps, clamped to the range
    Checkbox,  // a boolean
    Combo,     // an enum (its spellings) or a power of two (every one in range)
    Colour,    // three numbers in [0, 1] (or more: HDR)
    None,      // not edited in the viewer (keyframes, file names, run length)
};

// A value as TOML writes it: nothing (the key is left out), a boolean, an integer, a number, a
// string (also an enum's spelling), or a list of numbers.
using Value =
    std::variant<std::monostate, bool, std::int64_t, double, std::string, std::vector<double>>;

// A float member written as the shortest decimal that reads back as the same float: 0.9, not
// 0.8999999761581421 (the reader's float of 0.9 is the same float).
inline double asWritten(float value) {
    std::array<char, 32> text{};
    const auto end = std::to_chars(text.data(), text.data() + text.size(), value).ptr;
    double wide = 0.0;
    std::from_chars(text.data(), end, wide);
    return wide;
}

inline Value xy(double x, double y) {
    return std::vector<double>{x, y};
}
inline Value xyz(double x, double y, double z) {
    return std::vector<double>{x, y, z};
}
inline Value emptyList() {
    return std::vector<double>{};
}
inline const Value kUnset{}; // no default: the key is required, or its absence means something

// A default, and where the sims differ by default the value for each one that does.
struct Default {
    Value value;
    std::vector<std::pair<char, Value>> sims; // sim letter, its own default

    template <class T>
    requires std::is_constructible_v<Value, T> Default(T v) : value(std::move(v)) {}
    Default(Value common, std::vector<std::pair<char, Value>> bySim)
        : value(std::move(common)), sims(std::move(bySim)) {}
    // The default of sim `letter` ('a', 'b', ...); value for every sim not named.
    const Value& of(char letter) const {
        for (const auto& [sim, v] : sims)
            if (sim == letter)
                return v;
        return value;
    }
};
// "0.999, except sim.a: 0.95".
inline Default perSim(Value common, std::vector<std::pair<char, Value>> bySim) {
    return {std::move(common), std::move(bySim)};
}

// An enum member through its spelling table (config_read.hpp): the reader, the viewer's combo
// and the reference list the same words in the same order.
template <class S> struct Choice {
    std::vector<std::string_view> names;
    std::function<int(const S&)> index; // into names; -1: a value with no spelling (automatic)
    std::function<void(S&, int)> set;
    Read<S> read;
};
template <class S, class E, std::size_t N>
Choice<S> choice(E S::*member, const std::array<Spelling<E>, N>& spellings) {
    Choice<S> c;
    for (const auto& spelling : spellings)
        c.names.push_back(spelling.name);
    c.index = [member, &spellings](const S& owner) {
        for (std::size_t i = 0; i < N; ++i)
            if (spellings[i].value == owner.*member)
                return int(i);
        return -1;
    };
    c.set = [member, &spellings](S& owner, int i) {
        owner.*member = spellings.at(i).value;
    };
    c.read = [member, read = config_read::choice(spellings)](config_read::Walker& walker,
                                                             const toml::node& node,
                                                             const std::string& key, S& owner) {
        return read(walker, node, key, owner.*member);
    };
    return c;
}

// A key whose value has a structure of its own (keyframes, waypoints): its reader, its writer
// and how the reference describes it.
template <class S> struct Custom {
    std::string_view shape; // e.g. "[[t, decay], ...]"
    Read<S> read;
    std::function<toml::array(const S&)> write;
};

template <class S>
using Member =
    std::variant<double S::*, int S::*, bool S::*, std::string S::*, glm::vec3 S::*,
                 std::array<double, 2> S::*, std::array<double, 3> S::*, Choice<S>, Custom<S>>;

// One key: one row of the table. Its C++ type is its member's.
template <class S> struct Param {
    std::string_view key; // the last part of the dotted key: "decay" in sim.a.decay
    Member<S> member;
    Default def;
    Range range;           // numbers, and every number of a list
    std::string_view unit; // "cm", "s", "1/s", "" (a ratio or a count)
    Widget widget;
    std::string_view doc; // one line, for the reference, default.toml and the viewer's tooltip
    Presence presence = Presence::Optional;
};

// The keys of one TOML table ([run], [sim.X], one [[deformer]] entry...), in reference order.
template <class S> struct Section {
    std::string_view name; // "run", "sim.X", "sim.X.material", "deformer" (a list of tables)
    std::string_view doc;  // a paragraph for the reference and default.toml
    std::vector<Param<S>> params;
    bool list = false; // [[name]]: an array of tables, none by default
};

// ---- the tables (params_table.cpp, params_table_scene.cpp) ---------------------------------
const Section<RunSettings>& runParams();
const Section<SnowSettings>& snowParams();
const Section<CaptureSettings>& captureParams();
const Section<SimSettings>& simParams();
const Section<MaterialSettings>& materialParams();
const Section<SnowpackSettings>& snowpackParams();
const Section<LookSettings>& lookParams();
const Section<ViewSettings>& viewParams();
const Section<DeformerSettings>& deformerParams();
const Section<ProbeSettings>& probeParams();
// [[crowd]]'s own keys; a crowd entry also takes every deformerParams() key (for its members).
const Section<CrowdSettings>& crowdParams();
const Section<WindSettings>& windParams();
const Section<WeatherSettings>& weatherParams(); // params_table_weather.cpp
const Section<GroundSettings>& groundParams();   // params_table_ground.cpp
const Section<TerrainSettings>& terrainParams(); // params_table_terrain.cpp
const Section<FoliageSettings>& foliageParams();
const Section<PhysicsSettings>& physicsParams();
const Section<BodySettings>& bodyParams();
const Section<VehicleSettings>& vehicleParams();
const Section<SoakSettings>& soakParams();
const Section<ImportSettings>& importParams();
const Section<NetSettings>& netParams(); // params_table_net.cpp

// The sims' keys: sim.a is Settings::sims[0], sim.b sims[1] (up to sim.h, kMaxSims).
inline std::string_view simKey(std::size_t index) {
    return simName(static_cast<int>(index));
}
inline char simLetter(std::size_t index) {
    return simKey(index)[0];
}

// ---- what the table drives (params.cpp) ----------------------------------------------------

// Sets every key of `owner` to its default (for sim `letter` where the sims differ).
template <class S> void applyDefaults(const Section<S>& section, S& owner, char letter = 0);

// A key's current value in `owner` as TOML writes it (nothing for a keyframe list).
template <class S> Value valueOf(const Param<S>& param, const S& owner);

// The reader of one section's keys, with the table's ranges in its messages (config_read.hpp).
template <class S> config_read::Schema<S> schema(const Section<S>& section);

// Every key of `settings` with its value, as TOML tables (sim.a, sim.b...); the deformer and
// probe lists as arrays of tables whose entries hold the keys not at their defaults, as a
// scenario writes them. Reads back as the same settings. stats.json's `params` is this.
toml::table toToml(const Settings& settings);
toml::table toToml(const SimSettings& sim); // one sim's keys, material included

// One [[deformer]] entry as a scenario writes it (its keys not at their defaults): what the
// viewer's Scene panel copies out after its placement was edited.
std::string deformerToml(const DeformerSettings& deformer);

// config/default.toml: every key of the scalar sections with its default and its doc line.
std::string defaultToml();
// docs/parameters.md: the reference, one table per section.
std::string parameterMarkdown();

// How a value reads in TOML: 0.95, 2048, "delta_time", [0.9, 0.93, 0.97].
std::string tomlText(const Value& value);

// A table as TOML text whose floats are the shortest text that reads back as the same double
// (0.6, not toml++'s 0.59999999999999998): what `snowcap params --scenario` prints.
std::string readableToml(const toml::table& table);

} // namespace snowcap::params
