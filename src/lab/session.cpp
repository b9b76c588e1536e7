#include "lab/session.hpp"

#include "core/paths.hpp"
#include "core/suggest.hpp"
#include "core/support_law.hpp"
#include "core/vehicle_rules.hpp"
#include "scene/capture_proxy.hpp"
#include "scene/capture_subset.hpp"
#include "scene/crowd.hpp"
#include "snow/terrain_mesh.hpp"
#include "terrain/terrain.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <spdlog/spdlog.h>

namespace snowcap {

namespace {

// A bare scenario name that names no file: the line lists the names there are, nearest first.
std::optional<ConfigError> unknownScenario(const std::string& scenario,
                                           const std::filesystem::path& file,
                                           const std::filesystem::path& root) {
    const bool bareName = file.parent_path() == root / "config" / "scenarios";
    std::error_code ec;
    if (!bareName || std::filesystem::exists(file, ec))
        return std::nullopt;
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(file.parent_path(), ec))
        if (entry.path().extension() == ".toml")
            names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    const std::vector<std::string_view> candidates(names.begin(), names.end());
    std::string list;
    for (const std::string& name : names)
        list += (list.empty() ? "" : ", ") + name;
    return ConfigError{"unknown scenario '" + scenario + "'" + didYouMean(scenario, candidates) +
                       "; the scenarios are " + list + ", or give a path to a .toml file"};
}

} // namespace

std::variant<Settings, ConfigError>
loadScenarioSettings(const std::string& scenario, const std::vector<std::string>& overrides) {
    const std::filesystem::path root = resourceRoot();
    const std::filesystem::path file = resolveScenario(scenario, root);
    if (auto error = unknownScenario(scenario, file, root))
        return *error;
    return loadSettings({root / "config/default.toml", file}, overrides);
}

std::string scenarioKeyOrigin(const ScenarioSource& source, std::string_view key) {
    const std::filesystem::path root = resourceRoot();
    return keyOrigin({root / "config/default.toml", resolveScenario(source.scenario, root)},
                     source.overrides, key);
}

std::variant<std::vector<BodySpec>, std::string> placeScenarioBodies(const Settings& settings) {
    return placeBodies(settings.bodies, resourceRoot(), settings.import);
}

std::variant<std::vector<Deformer>, std::string>
loadScenarioDeformers(const Settings& settings, std::optional<std::vector<BodySpec>>* bodies,
                      std::shared_ptr<const HeightField> terrain) {
    auto placed = scenarioDeformers(settings); // the [[deformer]] list, then the crowds
    if (auto* error = std::get_if<std::string>(&placed))
        return *error;
    const auto& list = std::get<std::vector<DeformerSettings>>(placed);
    const double ground = groundZCm(settings.snow);
    std::vector<std::string> warnings;
    auto loaded = loadDeformers(list, resourceRoot(), DeformerGround(settings.snow, terrain),
                                settings.import, &warnings);
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    for (const std::string& warning : warnings) // what inspect-mesh would say of the file
        spdlog::warn("{}", warning);
    auto& deformers = std::get<std::vector<Deformer>>(loaded);
    // The bodies and the vehicles after every deformer, in the physics world's pose order (the
    // follow and the visibility go by name: no clashes).
    std::set<std::string> names;
    for (const DeformerSettings& d : list)
        names.insert(d.name);
    // A mesh body's file is imported once: its drawn mesh here and the physics world's hull
    // come from the same import (the caller's placed list, or the one placed here for it).
    std::optional<std::vector<BodySpec>> own;
    std::optional<std::vector<BodySpec>>& bodyList = bodies ? *bodies : own;
    if (!bodyList) {
        auto made = placeScenarioBodies(settings);
        if (auto* error = std::get_if<std::string>(&made))
            return *error;
        bodyList = std::move(std::get<std::vector<BodySpec>>(made));
    }
    for (const BodySpec& body : *bodyList) {
        if (!names.insert(body.name).second)
            return "key 'body[" + std::to_string(body.entry) + "].name': body '" + body.name +
                   "' is already a deformer's name";
        deformers.push_back(bodyDeformer(body));
    }
    // The vehicles start with their wheels on what holds them up (the ground, or a snowpack's
    // bearing surface).
    const auto support = supportPlan(settings);
    if (auto* error = std::get_if<std::string>(&support))
        return *error;
    const double wheelsOn = std::get<SupportPlan>(support).startZCm();
    // The controls drive one thing: a deformer or a vehicle.
    std::string player;
    for (const DeformerSettings& d : list)
        if (d.player)
            player = "deformer '" + d.name + "'";
    for (std::size_t v = 0; v < settings.vehicles.size(); ++v) {
        const VehicleSettings& vehicle = settings.vehicles[v];
        if (const std::optional<VehicleProblem> problem = vehicleProblem(vehicle))
            return problem->line(v);
        if (vehicle.player) {
            if (!player.empty())
                return "key 'vehicle[" + std::to_string(v) + "].player': only one player, and " +
                       player + " already is";
            player = "vehicle '" + vehicle.name + "'";
        }
        const std::string key = "key 'vehicle[" + std::to_string(v) + "]";
        std::vector<Deformer> parts =
            vehicleDeformers(vehicle, wheelsOn, settings.physics.gravityCmS2, terrain.get());
        for (const Deformer& part : parts)
            if (!names.insert(part.name).second)
                return key + ".name': vehicle part '" + part.name +
                       "' is already a deformer's or a body's name";
        if (!vehicle.chassisMesh.empty()) {
            // Imported as a deformer's mesh is (the same bounded importer), then fit in the box.
            DeformerSettings chassis;
            chassis.name = vehicle.name;
            chassis.mesh = vehicle.chassisMesh;
            chassis.placement = DeformerSettings::Placement::Absolute;
            chassis.path = {DeformerSettings::Key{}};
            auto mesh = loadDeformer(chassis, resourceRoot(), ground, settings.import);
            if (auto* error = std::get_if<std::string>(&mesh)) {
                // The importer's line without its "deformer 'NAME': " (the key names it).
                const std::string who = "deformer '" + vehicle.name + "': ";
                const bool named = error->rfind(who, 0) == 0;
                return key + ".chassis_mesh': " + (named ? error->substr(who.size()) : *error);
            }
            Deformer& imported = std::get<Deformer>(mesh);
            parts[0].mesh = fitInsideBox(std::move(imported.mesh), vehicle.chassisSizeCm);
            parts[0].meshKey = imported.meshKey + " fit in chassis " + parts[0].meshKey;
        }
        for (Deformer& part : parts)
            deformers.push_back(std::move(part));
    }
    return std::move(deformers);
}

std::vector<std::string> deformerNames(const std::vector<Deformer>& deformers) {
    std::vector<std::string> names;
    names.reserve(deformers.size());
    for (const Deformer& deformer : deformers)
        names.push_back(deformer.name);
    return names;
}

bool needsPhysics(const Settings& settings) {
    return !settings.bodies.empty() || !settings.vehicles.empty();
}

std::variant<std::vector<Foliage>, std::string> loadScenarioFoliage(const Settings& settings,
                                                                    const ScenarioSource* source,
                                                                    const HeightField* terrain) {
    std::vector<Foliage> foliage;
    for (std::size_t i = 0; i < settings.foliage.size(); ++i) {
        auto loaded = loadFoliage(settings.foliage[i], "foliage[" + std::to_string(i) + "]",
                                  resourceRoot(), groundZCm(settings.snow), settings.import);
        if (auto* error = std::get_if<FoliageError>(&loaded)) {
            // The scatter and the import run after the reader: the file and line of the key
            // at fault go in front here, as the reader's own lines begin.
            const std::string origin = source ? scenarioKeyOrigin(*source, error->key) : "";
            return origin.empty() ? error->line() : origin + ": " + error->line();
        }
        Foliage& grown = std::get<Foliage>(loaded);
        if (terrain && !terrain->flat())
            grown.standOn(terrain);
        foliage.push_back(std::move(grown));
    }
    return foliage;
}

std::variant<Session, std::string>
createSession(const Settings& settings, gpu::ShaderLibrary& shaders, const ScenarioSource* source) {
    Session session;
    // The plants and the bodies first: scattering and importing plants and placing bodies
    // need no GL, so a scenario whose foliage cannot grow or whose bodies overlap is refused in
    // one line before the field allocates anything.
    // The ground's shape ([terrain]) first: the plants, the deformers and the bodies stand on
    // it, and a bad file is one line before the field allocates.
    auto terrain = loadTerrainWithMesh(settings, resourceRoot(), shaders);
    if (auto* error = std::get_if<std::string>(&terrain))
        return *error;
    auto ground = std::make_shared<const HeightField>(std::move(std::get<0>(terrain)));
    auto foliage = loadScenarioFoliage(settings, source, ground.get());
    if (auto* error = std::get_if<std::string>(&foliage))
        return *error;
    // physics.support_sim names a sim there is (checked with or without bodies).
    if (auto support = supportPlan(settings); auto* error = std::get_if<std::string>(&support))
        return *error;
    // The bodies placed once (a mesh body's file imported once): the physics world's hulls and
    // the deformers' drawn meshes below both come from them.
    std::optional<std::vector<BodySpec>> bodies;
    if (needsPhysics(settings)) {
        auto placed = placeScenarioBodies(settings);
        if (auto* error = std::get_if<std::string>(&placed))
            return *error;
        bodies = std::move(std::get<std::vector<BodySpec>>(placed));
        auto physics = PhysicsWorld::create(settings, *bodies, ground);
        if (auto* error = std::get_if<std::string>(&physics))
            return *error;
        session.physics = std::move(std::get<0>(physics));
    }
    // The deformers before the field: snow.follow may name any of them, a body or a vehicle.
    auto deformers = loadScenarioDeformers(settings, &bodies, ground);
    if (auto* error = std::get_if<std::string>(&deformers))
        return *error;
    auto& built = std::get<std::vector<Deformer>>(deformers);
    auto field = SnowField::create(settings, shaders, deformerNames(built));
    if (auto* error = std::get_if<std::string>(&field))
        return *error;
    session.field = std::move(std::get<0>(field));
    if (auto error = session.field->setTerrain(std::move(ground)))
        return *error;
    auto renderer = SceneRenderer::create(shaders);
    if (auto* error = std::get_if<std::string>(&renderer))
        return *error;
    session.renderer = std::move(std::get<0>(renderer));
    session.firstPhysicsDeformer =
        built.size() - (session.physics ? session.physics->poseCount() : 0);
    session.deformers =
        DeformerSet(std::move(built), captureProxyErrorCm(settings), captureSubsetBandCm(settings));
    session.foliage = FoliageSet(std::move(std::get<std::vector<Foliage>>(foliage)), settings.wind);
    return session;
}

} // namespace snowcap
