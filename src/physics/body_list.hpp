#pragma once
// The [[body]] list as the bodies it places (docs/physics.md): each entry's count made into
// members in a crowd's formation about its position (forward along its horizontal velocity),
// each member's rotation and velocity spread drawn from the entry's seed; and each body as the
// deformer that presses the snow for it. No GL, no Bullet.

#include "core/settings.hpp"
#include "scene/deformer.hpp"

#include <glm/vec3.hpp>
#include <span>
#include <string>
#include <vector>

namespace snowcap {

// One body as the physics world builds it: everything in cm, degrees and seconds.
struct BodySpec {
    std::string name;      // the entry's, or "NAME.k" for count > 1
    std::size_t entry = 0; // its [[body]] table, for messages: body[entry]
    DeformerShape shape = DeformerShape::Sphere;
    glm::vec3 sizeCm{0.0f};
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
std::vector<BodySpec> expandBodies(std::span<const BodySettings> bodies);

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
