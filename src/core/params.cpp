// What the parameter table drives inside core: the readers (with the table's ranges), the
// defaults of every settings struct, and the settings as TOML (stats.json's params).
#include "core/params.hpp"

#include <type_traits>

namespace snowcap {
namespace params {
namespace {

template <class... F> struct Overloaded : F... { using F::operator()...; };

double asNumber(const Value& value) {
    if (const auto* i = std::get_if<std::int64_t>(&value))
        return static_cast<double>(*i);
    return std::get<double>(value);
}

const std::vector<double>& asList(const Value& value, std::size_t size) {
    const auto& list = std::get<std::vector<double>>(value);
    if (list.size() != size)
        throw std::logic_error("parameter table: a default has the wrong number of values");
    return list;
}

} // namespace

template <class S> Value valueOf(const Param<S>& param, const S& owner) {
    return std::visit(
        Overloaded{
            [&](double S::*m) -> Value { return owner.*m; },
            [&](int S::*m) -> Value { return std::int64_t{owner.*m}; },
            [&](bool S::*m) -> Value { return owner.*m; },
            [&](std::string S::*m) -> Value { return owner.*m; },
            [&](glm::vec3 S::*m) -> Value {
                const glm::vec3& v = owner.*m;
                return std::vector<double>{asWritten(v.x), asWritten(v.y), asWritten(v.z)};
            },
            [&](std::array<double, 2> S::*m) -> Value {
                return std::vector<double>((owner.*m).begin(), (owner.*m).end());
            },
            [&](std::array<double, 3> S::*m) -> Value {
                return std::vector<double>((owner.*m).begin(), (owner.*m).end());
            },
            [&](const Choice<S>& c) -> Value {
                const int i = c.index(owner);
                return i < 0 ? Value{} : Value{std::string(c.names[i])};
            },
            [&](const Custom<S>&) -> Value { return {}; },
        },
        param.member);
}

namespace {

template <class S> void assign(const Param<S>& param, S& owner, const Value& value) {
    std::visit(Overloaded{
                   [&](double S::*m) { owner.*m = asNumber(value); },
                   [&](int S::*m) { owner.*m = static_cast<int>(std::get<std::int64_t>(value)); },
                   [&](bool S::*m) { owner.*m = std::get<bool>(value); },
                   [&](std::string S::*m) { owner.*m = std::get<std::string>(value); },
                   [&](glm::vec3 S::*m) {
                       const auto& v = asList(value, 3);
                       owner.*m = config_read::toVec3(v[0], v[1], v[2]);
                   },
                   [&](std::array<double, 2> S::*m) {
                       const auto& v = asList(value, 2);
                       owner.*m = {v[0], v[1]};
                   },
                   [&](std::array<double, 3> S::*m) {
                       const auto& v = asList(value, 3);
                       owner.*m = {v[0], v[1], v[2]};
                   },
                   [&](const Choice<S>& c) {
                       const std::string& name = std::get<std::string>(value);
                       for (std::size_t i = 0; i < c.names.size(); ++i)
                           if (c.names[i] == name)
                               return c.set(owner, int(i));
                       throw std::logic_error("parameter table: a default is not a spelling");
                   },
                   [&](const Custom<S>&) {}, // lists start empty, and that is their default
               },
               param.member);
}

toml::array tomlList(const std::vector<double>& values) {
    toml::array out;
    for (double v : values)
        out.push_back(v);
    return out;
}

template <class S> toml::table sectionTable(const Section<S>& section, const S& owner) {
    toml::table out;
    for (const Param<S>& param : section.params) {
        if (const auto* custom = std::get_if<Custom<S>>(&param.member)) {
            out.insert(param.key, custom->write(owner));
            continue;
        }
        std::visit(
            Overloaded{
                [](std::monostate) {},
                [&](const std::vector<double>& list) { out.insert(param.key, tomlList(list)); },
                [&](const auto& scalar) { out.insert(param.key, scalar); },
            },
            valueOf(param, owner));
    }
    return out;
}

template <class S> bool sameValue(const Param<S>& param, const S& one, const S& other) {
    if (const auto* custom = std::get_if<Custom<S>>(&param.member))
        return custom->write(one) == custom->write(other);
    return valueOf(param, one) == valueOf(param, other);
}

// A list entry as a scenario would write it: its required keys and those not at their default.
// Writing every key would not read back: an entry refuses keys its path kind does not use.
template <class S> toml::array listTable(const Section<S>& section, const std::vector<S>& list) {
    const S defaults{};
    toml::array out;
    for (const S& entry : list) {
        toml::table written = sectionTable(section, entry);
        for (const Param<S>& param : section.params)
            if (param.presence == Presence::Optional && sameValue(param, entry, defaults))
                written.erase(param.key);
        out.push_back(std::move(written));
    }
    return out;
}

// A crowd entry: its own keys and its members' deformer keys, each left out at its default.
toml::array crowdList(const std::vector<CrowdSettings>& crowds) {
    std::vector<DeformerSettings> members;
    for (const CrowdSettings& crowd : crowds)
        members.push_back(crowd.member);
    toml::array out = listTable(crowdParams(), crowds);
    const toml::array shared = listTable(deformerParams(), members);
    for (std::size_t i = 0; i < out.size(); ++i)
        for (auto&& [key, value] : *shared.get(i)->as_table())
            out.get(i)->as_table()->insert(key, value);
    return out;
}

} // namespace

template <class S> void applyDefaults(const Section<S>& section, S& owner, char letter) {
    for (const Param<S>& param : section.params) {
        const Value& value = letter ? param.def.of(letter) : param.def.value;
        if (!std::holds_alternative<std::monostate>(value))
            assign(param, owner, value);
    }
}

template <class S> config_read::Schema<S> schema(const Section<S>& section) {
    using namespace config_read;
    Schema<S> fields;
    for (const Param<S>& param : section.params) {
        const Range range = param.range;
        Field<S> f = std::visit(
            Overloaded{
                [&](double S::*m) { return field(param.key, m, number(range)); },
                [&](int S::*m) { return field(param.key, m, integer(range)); },
                [&](bool S::*m) { return field(param.key, m, exactly<bool>("a boolean")); },
                [&](std::string S::*m) {
                    return field(param.key, m, exactly<std::string>("a string"));
                },
                [&](glm::vec3 S::*m) { return field(param.key, m, vec3(range)); },
                [&](std::array<double, 2> S::*m) {
                    return field(param.key, m, numbers<2>("[x, y]", range));
                },
                [&](std::array<double, 3> S::*m) {
                    return field(param.key, m, numbers<3>("[x, y, z]", range));
                },
                [&](const Choice<S>& c) {
                    return Field<S>{param.key, c.read};
                },
                [&](const Custom<S>& c) {
                    return Field<S>{param.key, c.read};
                },
            },
            param.member);
        f.presence = param.presence;
        fields.push_back(std::move(f));
    }
    return fields;
}

toml::table toToml(const SimSettings& sim) {
    toml::table out = sectionTable(simParams(), sim);
    out.insert("material", sectionTable(materialParams(), sim.material));
    out.insert("snowpack", sectionTable(snowpackParams(), sim.snowpack));
    return out;
}

toml::table toToml(const Settings& settings) {
    toml::table sims;
    for (std::size_t i = 0; i < settings.sims.size(); ++i)
        sims.insert(std::string(1, simLetter(i)), toToml(settings.sims[i]));
    return toml::table{
        {"run", sectionTable(runParams(), settings.run)},
        {"snow", sectionTable(snowParams(), settings.snow)},
        {"capture", sectionTable(captureParams(), settings.capture)},
        {"sim", sims},
        {"look", sectionTable(lookParams(), settings.look)},
        {"view", sectionTable(viewParams(), settings.view)},
        {"deformer", listTable(deformerParams(), settings.deformers)},
        {"crowd", crowdList(settings.crowds)},
        {"probe", listTable(probeParams(), settings.probes)},
        {"wind", sectionTable(windParams(), settings.wind)},
        {"weather", sectionTable(weatherParams(), settings.weather)},
        {"ground", sectionTable(groundParams(), settings.ground)},
        {"terrain", sectionTable(terrainParams(), settings.terrain)},
        {"foliage", listTable(foliageParams(), settings.foliage)},
        {"physics", sectionTable(physicsParams(), settings.physics)},
        {"body", listTable(bodyParams(), settings.bodies)},
        {"vehicle", listTable(vehicleParams(), settings.vehicles)},
        {"soak", sectionTable(soakParams(), settings.soak)},
        {"import", sectionTable(importParams(), settings.import)},
        {"net", sectionTable(netParams(), settings.net)},
    };
}

std::string deformerToml(const DeformerSettings& deformer) {
    return readableToml(toml::table{{"deformer", listTable(deformerParams(), {deformer})}});
}

#define SNOWCAP_PARAMS_INSTANTIATE(S)                                                              \
    template void applyDefaults<S>(const Section<S>&, S&, char);                                   \
    template config_read::Schema<S> schema<S>(const Section<S>&);                                  \
    template Value valueOf<S>(const Param<S>&, const S&);
SNOWCAP_PARAMS_INSTANTIATE(RunSettings)
SNOWCAP_PARAMS_INSTANTIATE(SnowSettings)
SNOWCAP_PARAMS_INSTANTIATE(CaptureSettings)
SNOWCAP_PARAMS_INSTANTIATE(SimSettings)
SNOWCAP_PARAMS_INSTANTIATE(MaterialSettings)
SNOWCAP_PARAMS_INSTANTIATE(SnowpackSettings)
SNOWCAP_PARAMS_INSTANTIATE(LookSettings)
SNOWCAP_PARAMS_INSTANTIATE(ViewSettings)
SNOWCAP_PARAMS_INSTANTIATE(DeformerSettings)
SNOWCAP_PARAMS_INSTANTIATE(ProbeSettings)
SNOWCAP_PARAMS_INSTANTIATE(CrowdSettings)
SNOWCAP_PARAMS_INSTANTIATE(WindSettings)
SNOWCAP_PARAMS_INSTANTIATE(WeatherSettings)
SNOWCAP_PARAMS_INSTANTIATE(GroundSettings)
SNOWCAP_PARAMS_INSTANTIATE(TerrainSettings)
SNOWCAP_PARAMS_INSTANTIATE(FoliageSettings)
SNOWCAP_PARAMS_INSTANTIATE(PhysicsSettings)
SNOWCAP_PARAMS_INSTANTIATE(BodySettings)
SNOWCAP_PARAMS_INSTANTIATE(VehicleSettings)
SNOWCAP_PARAMS_INSTANTIATE(SoakSettings)
SNOWCAP_PARAMS_INSTANTIATE(NetSettings)
SNOWCAP_PARAMS_INSTANTIATE(ImportSettings)
#undef SNOWCAP_PARAMS_INSTANTIATE

} // namespace params

// ---- every settings struct starts from the table's defaults ---------------------------------

RunSettings::RunSettings() {
    params::applyDefaults(params::runParams(), *this);
}
SnowSettings::SnowSettings() {
    params::applyDefaults(params::snowParams(), *this);
}
CaptureSettings::CaptureSettings() {
    params::applyDefaults(params::captureParams(), *this);
}
MaterialSettings::MaterialSettings() {
    params::applyDefaults(params::materialParams(), *this);
}
SnowpackSettings::SnowpackSettings() {
    params::applyDefaults(params::snowpackParams(), *this);
}
// A sim on its own takes the common default; Settings gives each sim its own (sim.a decays fast).
SimSettings::SimSettings() {
    params::applyDefaults(params::simParams(), *this);
}
LookSettings::LookSettings() {
    params::applyDefaults(params::lookParams(), *this);
}
ViewSettings::ViewSettings() {
    params::applyDefaults(params::viewParams(), *this);
}
DeformerSettings::DeformerSettings() {
    params::applyDefaults(params::deformerParams(), *this);
}
CrowdSettings::CrowdSettings() {
    params::applyDefaults(params::crowdParams(), *this);
}
ProbeSettings::ProbeSettings() {
    params::applyDefaults(params::probeParams(), *this);
}
WindSettings::WindSettings() {
    params::applyDefaults(params::windParams(), *this);
}
WeatherSettings::WeatherSettings() {
    params::applyDefaults(params::weatherParams(), *this);
}
GroundSettings::GroundSettings() {
    params::applyDefaults(params::groundParams(), *this);
}
TerrainSettings::TerrainSettings() {
    params::applyDefaults(params::terrainParams(), *this);
}
FoliageSettings::FoliageSettings() {
    params::applyDefaults(params::foliageParams(), *this);
}
PhysicsSettings::PhysicsSettings() {
    params::applyDefaults(params::physicsParams(), *this);
}
BodySettings::BodySettings() {
    params::applyDefaults(params::bodyParams(), *this);
}
VehicleSettings::VehicleSettings() {
    params::applyDefaults(params::vehicleParams(), *this);
}
SoakSettings::SoakSettings() {
    params::applyDefaults(params::soakParams(), *this);
}
ImportSettings::ImportSettings() {
    params::applyDefaults(params::importParams(), *this);
}
NetSettings::NetSettings() {
    params::applyDefaults(params::netParams(), *this);
}
SimSettings defaultSim(int index) {
    SimSettings sim;
    params::applyDefaults(params::simParams(), sim, params::simLetter(index));
    return sim;
}
Settings::Settings() {
    for (int i = 0; i < 2; ++i)
        sims.push_back(defaultSim(i));
}

} // namespace snowcap
