#pragma once
// Things that press into the snow: a mesh and how it moves over time. No GL.

#include "core/settings.hpp"
#include "scene/deformer_path.hpp"
#include "scene/mesh.hpp"
#include "scene/skeleton.hpp"
#include "terrain/height_field.hpp"

#include <filesystem>
#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec4.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// A skinned mesh's animation: up to four joints per vertex, played on the GPU in every pass.
struct DeformerSkin {
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
    Skeleton skeleton;
    AnimationClip clip;
    double speed = 1.0;
    double phaseS = 0.0; // clip_phase x the clip's duration: where in the clip t = 0 falls
};

// The player deformer's state: where input has taken it (it starts where its path starts).
struct PlayerState {
    double speedCmS = 100.0; // at full input
    glm::vec3 startCm{0.0f};
    float startHeadingRad = 0.0f;
    glm::vec3 positionCm{0.0f};
    float headingRad = 0.0f;
    double clipTimeS = 0.0; // its clip advances only while it moves, so it stands when idle
};

// What placement = "draped" stands a deformer on: the undisturbed snow top under it, the flat
// top plus the terrain's height at the deformer's x, y, taken where it is at each moment.
struct DeformerDrape {
    std::shared_ptr<const HeightField> terrain; // null: flat
    double snowTopZCm = 0.0;                    // snow.surface_z_cm
    double topZCm(double xCm, double yCm) const {
        return snowTopZCm + (terrain ? terrain->heightCm(xCm, yCm) : 0.0);
    }
    glm::dvec3 normalAt(double xCm, double yCm) const {
        return terrain ? terrain->normal(xCm, yCm) : glm::dvec3(0.0, 0.0, 1.0);
    }
};

// Where the placements stand deformers. "ground" is the flat ground under the snow
// (snow.surface_z_cm - snow.depth_cm) whatever the terrain, so a scenario written for flat snow
// keeps its heights; "draped" follows the terrain (docs/terrain.md, section 3).
struct DeformerGround {
    double groundZCm = 0.0;
    DeformerDrape drape;
    DeformerGround(double groundZCm) : groundZCm(groundZCm), drape{nullptr, groundZCm} {} // NOLINT
    DeformerGround(const SnowSettings& snow, std::shared_ptr<const HeightField> terrain);
};

// How fast the player turns towards its motion: a half turn in a third of a second.
inline constexpr double kPlayerTurnRadPerS = 3.0 * 3.14159265358979323846;

struct Deformer {
    std::string name;
    Mesh mesh; // its placement point (lowest point, or a procedural shape's centre) at the origin
    // What made the mesh: the file and its load options, or the shape and its size. Deformers
    // with the same key have the same mesh (and skin), uploaded once (render/deformer_set.hpp).
    std::string meshKey;
    DeformerPath path;     // world positions, the ground already added
    bool facePath = false; // turn +X along the motion
    bool inPlace = false;  // root_motion = "in_place": stays at the path's start
    ContactType contact = ContactType::Other;
    std::optional<DeformerSkin> skin;
    std::optional<PlayerState> player; // set for the one `player = true` deformer
    // A [[body]]'s: where the physics world has put it (model matrix, cm). Set, it is the
    // deformer's pose at any time; its path is unused.
    std::optional<glm::mat4> bodyPose;
    // placement = "draped": the path's z (and the player's) is above this snow top, and a
    // rigid deformer (no skin) lies on the slope: its up is the terrain's normal under it, turned
    // about its placement point. A skinned one stands upright, as people on a hill do, sheared
    // so that the plane of its root follows the slope: each foot keeps its height above the
    // slope's tangent plane, uphill or downhill of the root.
    std::optional<DeformerDrape> drape;

    PathPose poseAt(double timeS) const;
    glm::vec3 positionAt(double timeS) const { return poseAt(timeS).positionCm; }
    glm::mat4 modelAt(double timeS) const;
    // Joint matrices (global x inverse bind) at `timeS`; empty for a rigid deformer.
    std::vector<glm::mat4> skinningAt(double timeS) const;

    // Player only (no-op otherwise): moves it by `inputDir` (world XY; length clamped to 1, so
    // a stick's half tilt walks at half speed) at its speed for `dtS` seconds, turning it
    // towards the motion at kPlayerTurnRadPerS.
    void drive(glm::vec2 inputDir, double dtS);
    void resetPlayer(); // back to the start of its path
};

// The ground under the snow, where placement = "ground" stands deformers.
double groundZCm(const SnowSettings& snow);

// Builds the procedural deformer a scenario describes (its `mesh` is ignored), standing on
// `ground` as its placement says.
Deformer makeDeformer(const DeformerSettings& settings, const DeformerGround& ground);

// Builds the deformer a scenario describes, importing its mesh file if it names one (relative
// paths from `root`) within the import caps. Fails with one line naming the deformer. A mesh
// that loads but is probably not what was meant (scene/mesh_sanity.hpp: out of human scale, a
// clip below the ground) adds one line to `warnings`, naming the deformer, the file and the key
// that fixes it.
std::variant<Deformer, std::string> loadDeformer(const DeformerSettings& settings,
                                                 const std::filesystem::path& root,
                                                 const DeformerGround& ground,
                                                 const ImportSettings& limits = {},
                                                 std::vector<std::string>* warnings = nullptr);

// The same for a list: a mesh file that several name with the same load options (a crowd) is
// imported once (and warned about once). Fails with the first deformer's line.
std::variant<std::vector<Deformer>, std::string>
loadDeformers(std::span<const DeformerSettings> settings, const std::filesystem::path& root,
              const DeformerGround& ground, const ImportSettings& limits = {},
              std::vector<std::string>* warnings = nullptr);

} // namespace snowcap
