#include "lab/lab.hpp"

#include "core/params.hpp"
#include "core/paths.hpp"
#include "core/support_law.hpp"
#include "scene/capture_proxy.hpp"
#include "scene/capture_subset.hpp"
#include "snow/snowpack_sim.hpp"
#include "snow/terrain_mesh.hpp"
#include "terrain/terrain.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <sstream>

namespace snowcap {

namespace {

// What the physics world is made from (the [physics] keys, the [[body]] and [[vehicle]] lists,
// the ground under the snow) as written, to tell whether an edit changed it.
// `base`, else base_2, base_3, ...: the first name `taken` says is free (the follow key, the
// visibility list and the physics world's poses go by name).
template <class Taken> std::string unusedName(const std::string& base, Taken taken) {
    std::string name = base;
    for (int n = 2; taken(name); ++n)
        name = base + "_" + std::to_string(n);
    return name;
}

std::string physicsText(const Settings& settings) {
    const toml::table all = params::toToml(settings);
    std::ostringstream text;
    if (const toml::table* physics = all.get_as<toml::table>("physics"))
        text << *physics << '\n';
    if (const toml::array* bodies = all.get_as<toml::array>("body"))
        text << *bodies << '\n';
    if (const toml::array* vehicles = all.get_as<toml::array>("vehicle"))
        text << *vehicles << '\n';
    text << settings.snow.surfaceZCm << ' ' << settings.snow.depthCm;
    // And what holds them up: a snowpack support's sim, column and region.
    const auto plan = supportPlan(settings);
    if (const SupportPlan* support = std::get_if<SupportPlan>(&plan))
        text << ' ' << support->sim << ' ' << support->groundZCm << ' ' << support->snowDepthCm
             << ' ' << support->finalDensityKgM3 << ' ' << support->initialBearingZCm << ' '
             << support->region.centreCm.x << ' ' << support->region.centreCm.y << ' '
             << support->region.widthCm << ' ' << support->region.resolution;
    return text.str();
}

} // namespace

std::variant<std::unique_ptr<Lab>, std::string>
Lab::create(const std::string& scenario, const std::vector<std::string>& overrides,
            const std::string& glRenderer) {
    auto loaded = loadScenarioSettings(scenario, overrides);
    if (auto* error = std::get_if<ConfigError>(&loaded))
        return error->message;
    return create(std::get<Settings>(loaded), scenario, overrides, glRenderer);
}

std::variant<std::unique_ptr<Lab>, std::string>
Lab::create(const Settings& settings, const std::string& scenario,
            const std::vector<std::string>& overrides, const std::string& glRenderer) {
    std::unique_ptr<Lab> lab(new Lab());
    lab->shaders_ = std::make_unique<gpu::ShaderLibrary>(gpu::defaultShaderRoot());
    const ScenarioSource source{scenario, overrides};
    auto created = createSession(settings, *lab->shaders_, &source);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    lab->session_ = std::move(std::get<Session>(created));
    lab->scenario_ = scenario;
    lab->overrides_ = overrides;
    lab->scenarioSettings_ = settings;
    lab->physicsSource_ = physicsText(settings);
    lab->timer_ = gpu::PassTimer(gpu::trustworthyTimingMethod(glRenderer));
    lab->visible_.assign(lab->deformers().size(), true);
    return lab;
}

double Lab::durationS() const {
    const RunSettings& run = settings().run;
    return run.durationS > 0.0 ? run.durationS : run.frames / run.fps;
}

void Lab::drivePlayer(glm::vec2 inputDir, double dtS) {
    session_.deformers.drivePlayer(inputDir, dtS);
}

void Lab::teleportPlayer(glm::dvec2 toCm) {
    const std::optional<glm::vec3> at = session_.deformers.playerPositionCm();
    const Deformer* player = nullptr;
    for (const Deformer& d : session_.deformers.deformers())
        if (d.player)
            player = &d;
    if (!at || !player)
        return;
    const glm::dvec2 jump = toCm - glm::dvec2(at->x, at->y);
    const double distance = std::hypot(jump.x, jump.y);
    if (distance < 1e-3)
        return;
    // drive() moves by input x speed x dt: the whole distance in one call, at full input.
    session_.deformers.drivePlayer(glm::vec2(jump / distance), distance / player->player->speedCmS);
}

std::optional<gpu::PassRecord> Lab::physicsPass(double endS) {
    PhysicsWorld* world = session_.physics.get();
    if (!world || world->poseCount() == 0)
        return std::nullopt;
    gpu::PassRecord pass;
    pass.name = "physics";
    pass.timers = {"physics"};
    pass.stateNote =
        world->vehicleCount() == 0
            ? fmt::format("no draw: Bullet steps {} bodies on the CPU, 1 / {} s a step",
                          world->bodyCount(), settings().physics.stepHz)
            : fmt::format("no draw: Bullet steps {} bodies and {} vehicle{} on the CPU, 1 / {} s "
                          "a step",
                          world->bodyCount(), world->vehicleCount(),
                          world->vehicleCount() == 1 ? "" : "s", settings().physics.stepHz);
    pass.reads = {{"bodies", true}};
    pass.writes = {"bodies"};
    pass.execute = [this, world, endS] {
        feedSupport(endS);
        world->stepTo(endS);
        applyBodyPoses();
    };
    return pass;
}

std::optional<PhysicsReport> Lab::physicsReport() const {
    if (!session_.physics || session_.physics->poseCount() == 0)
        return std::nullopt;
    PhysicsReport report = session_.physics->report();
    report.supportReads = supportReadback_.reads();
    report.supportReadsWaited = supportReadback_.waited();
    report.supportReadbackBytesMean =
        supportReadback_.reads() > 0
            ? double(supportReadback_.bytesRead()) / double(supportReadback_.reads())
            : 0.0;
    return report;
}

void Lab::feedSupport(double endS) {
    PhysicsWorld* world = session_.physics.get();
    if (!world || world->supportPlan().sim < 0)
        return;
    const SnowpackSim* pack = session_.field->snowpack(world->supportPlan().sim);
    if (!pack)
        return; // snow.quality = "off": the untouched snow's bearing surface stays
    // None queued (the first frame, after a restart or an edit), or one queued without every
    // texel these steps can reach (a frame longer than the last, a world starting over): the
    // state as it stands, which is still the last step's.
    const SupportWindow needed = world->supportWindow(pack->region(), endS);
    const SupportWindow queued{supportReadback_.origin(), supportReadback_.size()};
    if (!supportReadback_.pending() || !(supportReadback_.region() == pack->region()) ||
        !queued.contains(needed))
        supportReadback_.request(*pack, needed.origin, needed.size);
    SupportColumns columns;
    if (auto values = supportReadback_.take(&columns.region)) {
        columns.window = SupportWindow{supportReadback_.origin(), supportReadback_.size()};
        columns.depthMass = std::move(*values);
        columns.printCm = supportReadback_.printCm(); // empty where the ground takes no print
        world->setSupport(columns);
    }
}

void Lab::requestSupport(double dtS) {
    const PhysicsWorld* world = session_.physics.get();
    if (!world || world->supportPlan().sim < 0 || world->poseCount() == 0)
        return;
    if (const SnowpackSim* pack = session_.field->snowpack(world->supportPlan().sim)) {
        // The next frame's steps: up to dtS on from the last frame's end, which lies less than
        // a step past the world's time.
        const SupportWindow window =
            world->supportWindow(pack->region(), world->timeS() + world->stepS() + dtS);
        supportReadback_.request(*pack, window.origin, window.size);
    }
}

void Lab::applyBodyPoses() {
    if (!session_.physics)
        return;
    for (std::size_t i = 0; i < session_.physics->poseCount(); ++i)
        session_.deformers.setBodyPose(session_.firstPhysicsDeformer + i,
                                       session_.physics->poseOf(i));
}

void Lab::stepTo(double endS, double dtS, FrameDraw draw) {
    timeS_ = endS;
    if (std::optional<gpu::PassRecord> physics = physicsPass(endS))
        gpu::runPasses(std::span(&*physics, 1), timing_ ? &timer_ : nullptr);
    runFrame(*session_.field, *session_.renderer, {instances(), dtS, std::move(draw)},
             timing_ ? &timer_ : nullptr);
    requestSupport(dtS);
    ++steps_;
}

void Lab::step(double dtS, bool loop, FrameDraw draw) {
    const double start = loop && timeS_ + dtS > durationS() + 1e-9 ? 0.0 : timeS_;
    stepTo(start + dtS, dtS, std::move(draw));
}

void Lab::draw(FrameDraw draw) {
    runFrame(*session_.field, *session_.renderer, {instances(), 0.0, std::move(draw)},
             timing_ ? &timer_ : nullptr);
}

void Lab::restart(bool keepDrive) {
    session_.field->reset();
    supportReadback_.drop(); // queued before the reset
    session_.deformers.resetPlayer();
    if (session_.physics) {
        if (!keepDrive)
            session_.physics->setDriverLog({});
        session_.physics->reset();
        applyBodyPoses();
    }
    timeS_ = 0.0;
    steps_ = 0;
}

void Lab::simulateTo(double timeS) {
    restart(true); // a player vehicle drives as it was driven up to there
    const double dt = fixedDtS();
    const long long count = std::llround(std::max(timeS, 0.0) / dt);
    // Many steps in one viewer frame: not timed (their times would be one frame's).
    const bool timing = timing_;
    timing_ = false;
    for (long long i = 0; i < count; ++i)
        stepTo((i + 1) * dt, dt);
    timing_ = timing;
}

const std::vector<DeformerInstance>& Lab::instancesAt(double timeS) {
    // A hidden deformer keeps its slot without a mesh: the capture and the renderer skip it,
    // and the field still finds the followed deformer by its index in the scenario's list.
    visibleInstances_ = session_.deformers.instancesAt(timeS);
    for (std::size_t i = 0; i < visibleInstances_.size() && i < visible_.size(); ++i)
        if (!visible_[i])
            visibleInstances_[i].mesh = nullptr;
    // The plants after every deformer (the deformers' indices stay theirs); the visible
    // deformers are the wind's pushers.
    const std::size_t deformerCount = visibleInstances_.size();
    session_.foliage.appendInstances(timeS, std::span(visibleInstances_.data(), deformerCount),
                                     visibleInstances_);
    return visibleInstances_;
}

bool Lab::hasPlayerVehicle() const {
    return session_.physics && session_.physics->playerVehicle();
}

void Lab::driveVehicle(glm::vec2 steerThrottle) {
    if (hasPlayerVehicle())
        session_.physics->setDriverInput(steerThrottle);
}

std::optional<std::string> Lab::throwBody(BodySettings body) {
    Settings edited = settings();
    body.name = unusedName(body.name, [&](const std::string& name) { // among bodies and deformers
        return std::any_of(edited.bodies.begin(), edited.bodies.end(),
                           [&](const BodySettings& other) { return other.name == name; }) ||
               std::any_of(deformers().begin(), deformers().end(),
                           [&](const Deformer& other) { return other.name == name; });
    });
    body.count = 1;
    body.launchS = timeS_;
    edited.bodies.push_back(body);
    // A new physics world, stepped again from 0 to now at the next step (the bodies already
    // thrown fly as they flew, the player vehicle drives as it was driven).
    return apply(edited, true);
}

std::optional<glm::vec3> Lab::followedPositionCm() const {
    if (session_.deformers.hasPlayer())
        return session_.deformers.playerPositionCm();
    if (auto vehicle = session_.physics ? session_.physics->playerVehicle() : std::nullopt)
        return session_.physics->vehiclePositionCm(*vehicle);
    const auto& list = deformers();
    if (list.empty())
        return std::nullopt;
    // The first observer (snow.follow): the one the viewer's camera keeps in view.
    const std::vector<std::string>& follow = settings().snow.follow;
    for (const Deformer& deformer : list)
        if (!follow.empty() && deformer.name == follow.front())
            return deformer.positionAt(timeS_);
    return list.front().positionAt(timeS_);
}

std::optional<std::string> Lab::rebuildDeformers(const Settings& settings,
                                                 std::shared_ptr<const HeightField> terrain,
                                                 bool newGround) {
    if (!terrain)
        terrain = session_.field->terrain();
    // The bodies placed once, for their deformers and the physics world's hulls alike.
    std::optional<std::vector<BodySpec>> bodies;
    auto loaded = loadScenarioDeformers(settings, &bodies, terrain);
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    std::vector<Deformer> built = std::move(std::get<std::vector<Deformer>>(loaded));
    // Other bodies (or physics keys, or ground): a new physics world, made before anything
    // changes (a bad body is the edit's one line). The same bodies keep theirs, where they are.
    // Without bodies or vehicles there is no world at all.
    if (physicsText(settings) != physicsSource_ || newGround) {
        std::unique_ptr<PhysicsWorld> physics;
        if (needsPhysics(settings)) {
            auto made = PhysicsWorld::create(settings, std::move(*bodies), terrain);
            if (auto* error = std::get_if<std::string>(&made))
                return *error;
            physics = std::move(std::get<0>(made));
            if (session_.physics) // the drive so far, replayed as the new world steps to now
                physics->setDriverLog(session_.physics->driverLog());
        }
        session_.physics = std::move(physics);
        physicsSource_ = physicsText(settings);
    }
    session_.firstPhysicsDeformer =
        built.size() - (session_.physics ? session_.physics->poseCount() : 0);
    // Keep the visibility of the deformers that stay (by name).
    std::vector<bool> visible(built.size(), true);
    for (std::size_t i = 0; i < built.size(); ++i)
        for (std::size_t j = 0; j < deformers().size() && j < visible_.size(); ++j)
            if (deformers()[j].name == built[i].name)
                visible[i] = visible_[j];
    session_.field->setInstanceNames(deformerNames(built)); // for the applySettings that follows
    session_.deformers =
        DeformerSet(std::move(built), captureProxyErrorCm(settings), captureSubsetBandCm(settings));
    visible_ = std::move(visible);
    applyBodyPoses(); // the bodies stay where the physics world has them
    return std::nullopt;
}

std::optional<std::string> Lab::apply(const Settings& edited, bool deformersChanged) {
    // Another [terrain]: read before anything changes, so a bad file keeps the terrain there was.
    std::shared_ptr<const HeightField> terrain;
    const auto terrainKeys = [](const Settings& settings) {
        return *params::toToml(settings)["terrain"].as_table();
    };
    if (terrainKeys(edited) != terrainKeys(settings())) {
        auto loaded = loadTerrainWithMesh(edited, resourceRoot(), *shaders_);
        if (auto* error = std::get_if<std::string>(&loaded))
            return *error;
        terrain = std::make_shared<const HeightField>(std::move(std::get<0>(loaded)));
    }
    // Draped deformers and the physics world's ground stand on the new terrain.
    auto error = applyEdit(edited, deformersChanged || terrain, terrain);
    if (!error && terrain) {
        session_.foliage.standOn(terrain.get()); // and the plants grow on it
        error = session_.field->setTerrain(std::move(terrain));
    }
    return error;
}

std::optional<std::string> Lab::applyEdit(const Settings& edited, bool deformersChanged,
                                          std::shared_ptr<const HeightField> terrain) {
    // A finer capture (or another proxy key) needs proxies built for it: rebuild the set too.
    deformersChanged |= captureProxyErrorCm(edited) != captureProxyErrorCm(settings()) ||
                        captureSubsetBandCm(edited) != captureSubsetBandCm(settings()) ||
                        physicsText(edited) != physicsText(settings());
    if (deformersChanged) {
        // Build the new set before touching anything; the field takes the rest.
        const Settings before = settings();
        supportReadback_.drop(); // the field may change under it
        if (auto error = rebuildDeformers(edited, terrain, terrain != nullptr))
            return error;
        if (auto error = session_.field->applySettings(edited)) {
            rebuildDeformers(before, nullptr, terrain != nullptr); // back on the field's terrain
            return error;
        }
        session_.foliage.setWind(edited.wind);
        return std::nullopt;
    }
    supportReadback_.drop();
    auto error = session_.field->applySettings(edited);
    if (!error)
        session_.foliage.setWind(edited.wind); // the plants stay; the air they sway in changes
    return error;
}

std::optional<std::string> Lab::addDeformer(const std::string& pathOrShape) {
    if (pathOrShape.empty())
        return std::string("add deformer: type a mesh path or sphere / box / capsule");
    Settings edited = settings();
    DeformerSettings deformer;
    const std::filesystem::path path(pathOrShape);
    if (pathOrShape == "sphere" || pathOrShape == "box" || pathOrShape == "capsule") {
        deformer.shape = pathOrShape == "sphere" ? DeformerShape::Sphere
                         : pathOrShape == "box"  ? DeformerShape::Box
                                                 : DeformerShape::Capsule;
        deformer.name = pathOrShape;
    } else {
        deformer.mesh = pathOrShape;
        deformer.name = path.stem().string();
        deformer.fitHeightCm = 0.0;
    }
    deformer.name = unusedName(deformer.name, [&](const std::string& name) {
        return std::any_of(edited.deformers.begin(), edited.deformers.end(),
                           [&](const DeformerSettings& other) { return other.name == name; });
    });
    // At the region centre, its lowest point half way down the snow: a print half as deep as
    // the snow (path z is the height above the ground with the default ground placement).
    const auto& centre = edited.snow.regionCentreCm;
    deformer.path = {{0.0, glm::vec3(static_cast<float>(centre[0]), static_cast<float>(centre[1]),
                                     static_cast<float>(edited.snow.depthCm * 0.5))}};
    edited.deformers.push_back(deformer);
    if (auto error = apply(edited, true))
        return pathOrShape + ": " + *error;
    return std::nullopt;
}

void Lab::removeDeformer(int index) {
    Settings edited = settings();
    if (index < 0 || index >= static_cast<int>(edited.deformers.size()))
        return;
    edited.deformers.erase(edited.deformers.begin() + index);
    apply(edited, true); // removing cannot fail: the rest were built before
}

std::optional<std::string> Lab::loadScenario(const std::string& scenario) {
    auto loaded = loadScenarioSettings(scenario, overrides_);
    if (auto* error = std::get_if<ConfigError>(&loaded))
        return error->message;
    const ScenarioSource source{scenario, overrides_};
    auto created = createSession(std::get<Settings>(loaded), *shaders_, &source);
    if (auto* error = std::get_if<std::string>(&created))
        return *error;
    session_ = std::move(std::get<Session>(created));
    supportReadback_.drop();
    scenario_ = scenario;
    scenarioSettings_ = std::get<Settings>(loaded);
    physicsSource_ = physicsText(scenarioSettings_);
    visible_.assign(deformers().size(), true);
    timeS_ = 0.0;
    steps_ = 0;
    return std::nullopt;
}

} // namespace snowcap
