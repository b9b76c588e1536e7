#pragma once
// [[foliage]]: plants of one mesh scattered over a rectangle (seeded, optionally no two closer
// than a spacing), each turned, scaled and given a phase of its own, rooted on the ground under
// the snow. No GL: render/ draws them as instances of one mesh with sway set, and
// scene/foliage_wind.hpp bends them.

#include "core/settings.hpp"
#include "scene/mesh.hpp"
#include "terrain/height_field.hpp"

#include <filesystem>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec4.hpp>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

struct FoliagePlant {
    glm::vec2 rootCm{0.0f}; // world X, Y
    float yawRad = 0.0f;
    float scale = 1.0f;
    float phaseRad = 0.0f;  // its own flutter, so neighbours do not sway in step
    float terrainCm = 0.0f; // the terrain's height at its root: it grows on the hill
};

// Why a [[foliage]] entry cannot grow: the key whose value is at fault ("foliage[0].mesh") and
// the reason. The scenario's loader puts the file and line of that key in front
// (lab/session.hpp), as the config reader's own lines begin.
struct FoliageError {
    std::string key;
    std::string reason;
    std::string line() const { return "key '" + key + "': " + reason; }
};

// Where the plants of `settings` grow: `count` (or density_per_m2 x the area) roots drawn
// uniformly over the rectangle from the seed; with min_spacing_cm, a candidate closer than that
// to a root already placed is thrown away and another drawn (at most 30 draws per plant).
// Fails with one line naming the key when the spacing leaves no room for them all, or when
// there would be more than `maxPlants` (import.max_plants; the config reader refuses that
// already, naming the file, so this holds only for settings made in code).
std::variant<std::vector<FoliagePlant>, FoliageError>
scatterFoliage(const FoliageSettings& settings, const std::string& key, long maxPlants = 100000);

struct Foliage {
    std::string name;
    Mesh mesh;             // the plant, its root (lowest point, centred) at the origin
    float heightCm = 0.0f; // the mesh's height, what a sway's h is a fraction of
    float stiffness = 1.0f;
    float maxLean = 0.85f;
    ContactType contact = ContactType::Other;
    float groundZCm = 0.0f; // the flat ground under the snow; a plant roots terrainCm above it
    std::vector<FoliagePlant> plants;

    glm::mat4 modelOf(const FoliagePlant& plant) const;
    glm::vec4 swayOf(const FoliagePlant& plant) const; // wind.glsl's sway record
    // How far a plant can reach from its root, sideways (its own half width + its max lean).
    float reachCm(const FoliagePlant& plant) const;
    glm::vec3 rootOf(const FoliagePlant& plant) const {
        return {plant.rootCm, groundZCm + plant.terrainCm};
    }
    // Roots every plant on `terrain` (its height under each root; 0 when null or flat).
    void standOn(const HeightField* terrain);
};

// The file a `mesh` names: "grass_tuft" and "bush" are the bundled plants
// (assets/meshes/NAME.glb under `root`); anything else a path (relative to `root`).
std::filesystem::path foliageMeshFile(const std::string& mesh, const std::filesystem::path& root);

// Imports the mesh (within the import caps) and scatters the plants. `key` names the entry in
// errors ("foliage[0]"); a mesh that does not import is foliage[0].mesh's fault.
std::variant<Foliage, FoliageError> loadFoliage(const FoliageSettings& settings,
                                                const std::string& key,
                                                const std::filesystem::path& root, double groundZCm,
                                                const ImportSettings& limits = {});

} // namespace snowcap
