#pragma once
// The [[body]] list as the bodies it places (docs/physics.md): each entry's count made into
// members in a crowd's formation about its position (forward along its horizontal velocity),
// each member's rotation and velocity spread drawn from the entry's seed; and each body as the
// deformer that presses the snow for it. No GL, no Bullet.

#include "core/settings.hpp"
#include "scene/deformer.hpp"

#include <filesystem>
#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// A shape = "mesh" body's mesh (physics/body_mesh.cpp): the file imported as a deformer's mesh
// is (the same bounded importer), then moved so that the centroid of its vertices' convex hull,
// taken as the centre of mass of a solid of uniform density, is at the origin. The drawn mesh
// and the hull are in that one frame, in cm, so what Bullet moves is what the snow sees.
struct BodyMesh {
    Mesh mesh;                     // drawn and captured
    std::string meshKey;           // the file and its load options: members share one upload
    std::vector<glm::vec3> hullCm; // the convex hull's vertices (a subset of the mesh's)
    double volumeCm3 = 0.0;        // the hull's
    glm::vec3 centroidInFileCm{0}; // where the origin lies in the imported mesh (lowest point at
                                   // z = 0, centred in x and y): the shift applied
};

// One body as the physics world builds it: everything in cm, degrees and seconds.
struct BodySpec {
    std::string name;      // the entry's, or "NAME.k" for count > 1
    std::size_t entry = 0; // its [[body]] table, for messages: body[entry]
    BodyShape shape = BodyShape::Sphere;
    glm::vec3 sizeCm{0.0f};
    std::shared_ptr<const BodyMesh> mesh; // shape = "mesh": shared by the entry's members
    double massKg = 1.0;
    glm::vec3 positionCm{0.0f};
    glm::vec3 rotationDeg{0.0f};
    glm::vec3 velocityCmS{0.0f};
    glm::vec3 spinDegS{0.0f};
    double restitution = 0.0, friction = 0.5;
    ContactType contact = ContactType::Other;
    double launchS = 0.0; // enters the world at the first step starting at or after this
};

// Every body the list places, entry by entry. The same list gives the same bodies everywhere
// (the spreads come from mt19937, whose sequence the standard fixes).
// A mesh body's spec has no mesh yet: placeBodies loads them.
std::vector<BodySpec> expandBodies(std::span<const BodySettings> bodies);

// expandBodies with each entry's rules checked (core/body_rules.hpp) and each shape = "mesh"
// entry's file loaded once (relative paths from `root`, within `limits`) for all its members.
// The first failure as one line naming the key ("key 'body[0].mesh': FILE: REASON"), and
// nothing kept.
std::variant<std::vector<BodySpec>, std::string> placeBodies(std::span<const BodySettings> bodies,
                                                             const std::filesystem::path& root,
                                                             const ImportSettings& limits);

// The deformer a body presses the snow with: its shape's mesh centred on its centre of mass,
// its pose the body's start (Deformer::bodyPose). Bodies of the same shape and size share one
// mesh key, so every pass draws them as instances of one mesh.
Deformer bodyDeformer(const BodySpec& body);

// A snowball thrown from `fromCm` at `speedCmS` to land on `toCm` under gravity (no drag in the
// air): the flatter of the two ballistic arcs through the target, or 45 degrees towards it when
// the speed cannot reach it. A sphere of `radiusCm` at the density of snow packed to 450 kg/m3
// (the snowpack's max_density_kg_m3 default: a hand-packed ball, a lab choice), launched at
// `launchS`.
BodySettings snowballToward(glm::vec3 fromCm, glm::vec3 toCm, double speedCmS, double radiusCm,
                            double gravityCmS2, double launchS);

// The body's model matrix at rest at its start: translation and the Euler X Y Z rotation.
glm::mat4 bodyStartModel(const BodySpec& body);

} // namespace snowcap
