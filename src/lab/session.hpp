#pragma once
// What every front end (headless render, viewer) sets up the same way: the scenario's settings
// and, in a current GL context, the snow field, the scene renderer and the deformers.

#include "core/config.hpp"
#include "physics/physics_world.hpp"
#include "render/deformer_set.hpp"
#include "render/foliage_set.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace snowcap {

// What every front end takes from the command line to set a session up.
struct CommonOptions {
    std::vector<std::string> overrides; // --set key=value
    bool debugGl = false;
};

// config/default.toml, then the scenario (a name under config/scenarios/ or a path), then the
// `--set` overrides.
std::variant<Settings, ConfigError> loadScenarioSettings(const std::string& scenario,
                                                         const std::vector<std::string>& overrides);

// Where settings were loaded from (loadScenarioSettings' scenario and --set overrides), so a
// line about what is found wrong after loading can name the file and line of the key at fault.
struct ScenarioSource {
    std::string scenario;
    std::vector<std::string> overrides;
};
// "FILE:LINE:COL" (or the --set flag) of `key` among `source`'s layers (core/config.hpp's
// keyOrigin); "" when it cannot be found.
std::string scenarioKeyOrigin(const ScenarioSource& source, std::string_view key);

struct Session {
    std::unique_ptr<SnowField> field;
    std::unique_ptr<SceneRenderer> renderer;
    DeformerSet deformers;
    FoliageSet foliage; // [[foliage]]: appended to the frame's instances after the deformers
    // [[body]] and [[vehicle]]: the physics world (none without either: needsPhysics); its
    // pose k (PhysicsWorld::poseOf: each body, then each vehicle's chassis and wheels) is the
    // deformer at firstPhysicsDeformer + k.
    std::unique_ptr<PhysicsWorld> physics;
    std::size_t firstPhysicsDeformer = 0;
};

// Whether the settings place anything the physics world moves ([[body]], [[vehicle]]).
bool needsPhysics(const Settings& settings);

// Every [[foliage]] entry, its mesh imported and its plants scattered, each rooted on the ground
// under the snow on `terrain` (null: flat); one line on failure,
// "FILE:LINE:COL: key 'foliage[0].mesh': ..." when `source` says where the settings came from.
std::variant<std::vector<Foliage>, std::string>
loadScenarioFoliage(const Settings& settings, const ScenarioSource* source = nullptr,
                    const HeightField* terrain = nullptr);

// The [[body]] list as the bodies it places (physics/body_list.hpp's placeBodies), a mesh
// body's file imported once for all its members; one line on failure.
std::variant<std::vector<BodySpec>, std::string> placeScenarioBodies(const Settings& settings);

// Every deformer the settings place ([[deformer]], then each [[crowd]]'s members, then each
// [[body]], then each [[vehicle]]'s chassis and wheels, at their start), a mesh file several
// share imported once; one line on failure. `bodies`, when given, is where the [[body]] list
// is placed, once for the drawn meshes and the physics world's hulls alike: a list it holds
// already (placeScenarioBodies') gives the bodies' deformers; an empty one is placed here, in
// the order of the checks, and left in it for PhysicsWorld::create. placement = "draped" stands
// deformers on `terrain` (null: flat).
std::variant<std::vector<Deformer>, std::string>
loadScenarioDeformers(const Settings& settings,
                      std::optional<std::vector<BodySpec>>* bodies = nullptr,
                      std::shared_ptr<const HeightField> terrain = nullptr);

// The deformers' names in their order: the instances a step hands the field, which
// snow.follow names (SnowField::setInstanceNames).
std::vector<std::string> deformerNames(const std::vector<Deformer>& deformers);

// Builds the field, the renderer and the deformers (meshes imported); one line on failure.
std::variant<Session, std::string> createSession(const Settings& settings,
                                                 gpu::ShaderLibrary& shaders,
                                                 const ScenarioSource* source = nullptr);

} // namespace snowcap
