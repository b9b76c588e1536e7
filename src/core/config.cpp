#include "core/config.hpp"

#include "core/config_files.hpp"
#include "core/config_layers.hpp"
#include "core/config_read.hpp"
#include "core/config_scene.hpp"
#include "core/params.hpp"
#include "core/paths.hpp"
#include "core/substance.hpp"

#include <set>
#include <toml++/toml.h>

namespace snowcap {
namespace {

using namespace config_read;

// [sim]: one table per sim, sim.a .. sim.h. Giving a sim's table makes it exist, and with it
// every sim before it (with its defaults): [sim.d] alone means four sims.
Read<std::vector<SimSettings>> simsReader(Read<SimSettings> readSim) {
    return [readSim](Walker& walker, const toml::node& node, const std::string& key,
                     std::vector<SimSettings>& sims) {
        const toml::table* entries = node.as_table();
        if (!entries)
            return walker.expected(node, key, "a table");
        for (auto&& entry : *entries) {
            const std::string_view name = entry.first.str();
            int index = -1;
            for (int i = 0; i < kMaxSims; ++i)
                if (name == simName(i))
                    index = i;
            const std::string at = key + "." + std::string(name);
            if (index < 0)
                return walker.fail(entry.first.source(),
                                   "unknown key '" + at + "' (the sims are sim.a .. sim." +
                                       std::string(simName(kMaxSims - 1)) + ")");
            while (static_cast<int>(sims.size()) <= index)
                sims.push_back(defaultSim(static_cast<int>(sims.size())));
            if (!readSim(walker, entry.second, at, sims[index]))
                return false;
        }
        return true;
    };
}

// sim.X.snowpack: the substance first (its preset stands where the table's defaults stood), then
// the keys. With a substance other than snow, a key whose value comes from config/default.toml
// is the table's (snow's) default, not a key given: it is left out, so the preset stays; a key
// from a scenario or a --set overrides the preset.
Read<SnowpackSettings> snowpackReader() {
    return
        [read = table<SnowpackSettings>(params::schema(params::snowpackParams())),
         readSubstance = config_read::choice(kSubstances)](
            Walker& walker, const toml::node& node, const std::string& key, SnowpackSettings& out) {
            const toml::table* entries = node.as_table();
            if (!entries)
                return walker.expected(node, key, "a table");
            Substance substance = out.substance;
            if (const toml::node* given = entries->get("substance"))
                if (!readSubstance(walker, *given, key + ".substance", substance))
                    return false;
            if (substance == Substance::Snow)
                return read(walker, node, key, out);
            applySubstance(out, substance);
            toml::table given = *entries;
            for (auto&& entry : *entries)
                if (entry.first.str() != "substance" &&
                    config_layers::isDefaultsFile(entry.second.source()))
                    given.erase(entry.first.str());
            return read(walker, given, key, out);
        };
}

// The reader of every key, built from the parameter table: each section's rows, nested as the
// TOML tables are (sim.a.material inside sim.a), with the deformer and probe lists.
Read<Settings> makeSettingsReader() {
    using params::schema;
    Schema<SimSettings> sim = schema(params::simParams());
    sim.push_back(field("material", &SimSettings::material,
                        table<MaterialSettings>(schema(params::materialParams()))));
    sim.push_back(field("snowpack", &SimSettings::snowpack, snowpackReader()));
    const Read<SimSettings> readSim = table<SimSettings>(std::move(sim));
    return table<Settings>({
        field("run", &Settings::run, table<RunSettings>(schema(params::runParams()))),
        field("snow", &Settings::snow, table<SnowSettings>(schema(params::snowParams()))),
        field("capture", &Settings::capture,
              table<CaptureSettings>(schema(params::captureParams()))),
        field("sim", &Settings::sims, simsReader(readSim)),
        field("look", &Settings::look, table<LookSettings>(schema(params::lookParams()))),
        field("view", &Settings::view, table<ViewSettings>(schema(params::viewParams()))),
        field("deformer", &Settings::deformers, deformerListReader()),
        field("crowd", &Settings::crowds, crowdListReader()),
        field("probe", &Settings::probes, probeListReader()),
        field("wind", &Settings::wind, table<WindSettings>(schema(params::windParams()))),
        field("weather", &Settings::weather,
              table<WeatherSettings>(schema(params::weatherParams()))),
        field("ground", &Settings::ground, table<GroundSettings>(schema(params::groundParams()))),
        field("terrain", &Settings::terrain,
              table<TerrainSettings>(schema(params::terrainParams()))),
        field("foliage", &Settings::foliage, foliageListReader()),
        field("physics", &Settings::physics,
              table<PhysicsSettings>(schema(params::physicsParams()))),
        field("body", &Settings::bodies, bodyListReader()),
        field("vehicle", &Settings::vehicles, vehicleListReader()),
        field("soak", &Settings::soak, table<SoakSettings>(schema(params::soakParams()))),
        field("import", &Settings::import, table<ImportSettings>(schema(params::importParams()))),
        field("net", &Settings::net, table<NetSettings>(schema(params::netParams()))),
    });
}

// The merged table to Settings; the first error, one line.
std::variant<Settings, ConfigError> validate(const toml::table& merged,
                                             const std::set<std::string>& flagOrigins) {
    static const Read<Settings> readSettings = makeSettingsReader();
    static const Read<ImportSettings> readLimits =
        table<ImportSettings>(params::schema(params::importParams()));
    // The caps first ([import] sorts after [[crowd]] and [[deformer]]): the lists are held to
    // them before any entry is read.
    ImportSettings limits;
    if (const toml::node* section = merged.get("import")) {
        Walker first(flagOrigins);
        if (!readLimits(first, *section, "import", limits))
            return ConfigError{clipForMessage(config_layers::oneLine(first.error().message), 400)};
    }
    Walker walker(flagOrigins, limits);
    Settings settings;
    if (!readSettings(walker, merged, "", settings)) // keys may hold any character
        return ConfigError{clipForMessage(config_layers::oneLine(walker.error().message), 400)};
    return settings;
}

// import.max_config_mib as the flags give it, else as the layers read so far give it, else the
// table's default; a value out of the key's range counts as not given (validation says why).
std::uint64_t configFileCap(const toml::table& merged, const toml::table& flags) {
    for (const toml::table* layer : {&flags, &merged})
        if (const auto value = (*layer)["import"]["max_config_mib"].value<double>())
            if (*value >= 0.0625 && *value <= 65536.0)
                return std::uint64_t(*value * 1024.0 * 1024.0);
    return std::uint64_t(ImportSettings{}.maxConfigMiB * 1024.0 * 1024.0);
}

} // namespace

using config_layers::mergeInto;
using config_layers::parseFile;
using config_layers::parseOverride;

namespace {

// The layers read and merged as loadSettings reads them; `flagOrigins` gets the --set layers'
// source names. Throws only on allocation failure.
std::optional<ConfigError> mergeLayers(const std::vector<std::filesystem::path>& files,
                                       const std::vector<std::string>& overrides,
                                       toml::table& merged, std::set<std::string>& flagOrigins) {
    // The overrides are parsed first: a --set import.max_config_mib raises the cap of the
    // files too. A file's own value applies only to the files after it, so no file can
    // raise the cap it is read under.
    std::vector<std::pair<std::string, toml::table>> flags;
    toml::table fromFlags;
    for (const auto& assignment : overrides) {
        const std::string flag = "--set " + assignment;
        auto layer = parseOverride(assignment, flag);
        if (const auto* error = std::get_if<ConfigError>(&layer))
            return *error;
        toml::table copy = std::get<toml::table>(layer);
        mergeInto(fromFlags, copy);
        flags.emplace_back(flag, std::move(std::get<toml::table>(layer)));
    }
    for (const auto& file : files) {
        auto layer = parseFile(file, configFileCap(merged, fromFlags));
        if (const auto* error = std::get_if<ConfigError>(&layer))
            return *error;
        mergeInto(merged, std::get<toml::table>(layer));
    }
    for (auto& [flag, layer] : flags) {
        mergeInto(merged, layer);
        flagOrigins.insert(flag);
    }
    return std::nullopt;
}

} // namespace

std::variant<Settings, ConfigError> loadSettings(const std::vector<std::filesystem::path>& files,
                                                 const std::vector<std::string>& overrides) {
    try {
        toml::table merged;
        std::set<std::string> flagOrigins;
        if (auto error = mergeLayers(files, overrides, merged, flagOrigins))
            return *error;
        // A file in neither place is said after every other key's error: the rules of a key
        // come before whether the file it names is there.
        const auto missing = config_files::resolveFileKeys(merged, flagOrigins, resourceRoot());
        auto settings = validate(merged, flagOrigins);
        if (missing && std::holds_alternative<Settings>(settings))
            return *missing;
        return settings;
    } catch (const std::exception& error) {
        // Only allocation failures can get here; the caller still gets a value, not a throw.
        return ConfigError{std::string("cannot load settings: ") + error.what()};
    }
}

std::string keyOrigin(const std::vector<std::filesystem::path>& files,
                      const std::vector<std::string>& overrides, std::string_view key) {
    try {
        toml::table merged;
        std::set<std::string> flagOrigins;
        if (mergeLayers(files, overrides, merged, flagOrigins))
            return "";
        // The key itself, else the nearest table or list entry that holds it (a key left at
        // its default has no place of its own).
        for (toml::path path(key); !path.empty(); path = path.parent()) {
            const toml::node* node = merged.at_path(path).node();
            if (!node || !node->source().path)
                continue;
            const toml::source_region& where = node->source();
            if (flagOrigins.contains(*where.path))
                return clipForMessage(*where.path);
            return *where.path + ":" + std::to_string(where.begin.line) + ":" +
                   std::to_string(where.begin.column);
        }
    } catch (const std::exception&) {
        // Allocation failure: the caller's line goes out without a place.
    }
    return "";
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
std::string_view toString(ContactTiming timing) {
    return nameOf(kContactTimings, timing);
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
std::string_view toString(CaptureSubsetMode mode) {
    return nameOf(kCaptureSubsetModes, mode);
}

std::string_view toString(CaptureProxyMode mode) {
    return nameOf(kCaptureProxyModes, mode);
}
std::string_view toString(CaptureDepth depth) {
    return nameOf(kCaptureDepths, depth);
}
std::string_view toString(RimMode mode) {
    return nameOf(kRimModes, mode);
}
std::string_view toString(SimModel model) {
    return nameOf(kSimModels, model);
}
std::string_view toString(GroundKind kind) {
    return nameOf(kGroundKinds, kind);
}
std::string_view toString(TerrainKind kind) {
    return nameOf(kTerrainKinds, kind);
}
std::string_view toString(CaptureReference reference) {
    return nameOf(kCaptureReferences, reference);
}
std::string_view toString(Substance substance) {
    return nameOf(kSubstances, substance);
}
std::string_view toString(RegionMode mode) {
    return nameOf(kRegionModes, mode);
}
std::string_view toString(Persistence mode) {
    return nameOf(kPersistenceModes, mode);
}
std::string_view toString(WorldCompression compression) {
    return nameOf(kWorldCompressions, compression);
}
std::string_view toString(NetMode mode) {
    return nameOf(kNetModes, mode);
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
