#include "physics/body_list.hpp"

#include "scene/crowd.hpp"

#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <iomanip>
#include <numbers>
#include <random>
#include <sstream>

namespace snowcap {

namespace {

// As the crowd's draws: mt19937's top 24 bits, a uniform draw in [0, 1).
class Draw {
public:
    explicit Draw(std::uint32_t seed) : engine_(seed) {}
    double uniform() { return double(engine_() >> 8) * (1.0 / 16777216.0); }
    double signedUnit() { return 2.0 * uniform() - 1.0; } // in [-1, 1)

private:
    std::mt19937 engine_;
};

} // namespace

std::vector<BodySpec> expandBodies(std::span<const BodySettings> bodies) {
    std::vector<BodySpec> out;
    for (std::size_t e = 0; e < bodies.size(); ++e) {
        const BodySettings& body = bodies[e];
        std::vector<glm::vec2> offsets(1, glm::vec2(0.0f));
        if (body.count > 1) {
            CrowdSettings crowd;
            crowd.count = body.count;
            crowd.formation = body.formation;
            crowd.spacingCm = body.spacingCm;
            crowd.width = body.width;
            crowd.seed = body.seed;
            offsets = formationOffsets(crowd);
        }
        // The formation's frame: forward along the horizontal velocity, else +X.
        glm::vec2 forward(1.0f, 0.0f);
        const glm::vec2 horizontal(body.velocityCmS.x, body.velocityCmS.y);
        if (glm::length(horizontal) > 1e-6f)
            forward = glm::normalize(horizontal);
        const glm::vec2 left(-forward.y, forward.x);
        Draw draw(std::uint32_t(body.seed));
        for (std::size_t k = 0; k < offsets.size(); ++k) {
            BodySpec spec;
            spec.name = body.count > 1 ? body.name + "." + std::to_string(k) : body.name;
            spec.entry = e;
            spec.shape = body.shape;
            spec.sizeCm = body.sizeCm;
            spec.massKg = body.massKg;
            const glm::vec2 shift = forward * offsets[k].x + left * offsets[k].y;
            spec.positionCm = body.positionCm + glm::vec3(shift, 0.0f);
            // Six draws per member whatever the spreads, so one member's never shift another's.
            glm::vec3 turn, push;
            for (int axis = 0; axis < 3; ++axis)
                turn[axis] = float(body.rotationSpreadDeg * draw.signedUnit());
            for (int axis = 0; axis < 3; ++axis)
                push[axis] = float(body.velocitySpreadCmS * draw.signedUnit());
            spec.rotationDeg = body.rotationDeg + turn;
            spec.velocityCmS = body.velocityCmS + push;
            spec.spinDegS = body.spinDegS;
            spec.restitution = body.restitution;
            spec.friction = body.friction;
            spec.contact = body.contact;
            spec.launchS = body.launchS;
            out.push_back(std::move(spec));
        }
    }
    return out;
}

BodySettings snowballToward(glm::vec3 fromCm, glm::vec3 toCm, double speedCmS, double radiusCm,
                            double gravityCmS2, double launchS) {
    constexpr double kPackedSnowKgCm3 = 450.0e-6; // 450 kg/m3
    BodySettings ball;
    ball.name = "snowball";
    ball.shape = BodyShape::Sphere;
    ball.sizeCm = glm::vec3(float(radiusCm));
    ball.massKg = kPackedSnowKgCm3 * 4.0 / 3.0 * std::numbers::pi * std::pow(radiusCm, 3.0);
    ball.positionCm = fromCm;
    ball.restitution = 0.05; // snow on snow barely bounces
    ball.launchS = launchS;
    const glm::dvec3 gap = glm::dvec3(toCm) - glm::dvec3(fromCm);
    const double d = glm::length(glm::dvec2(gap));
    const double v2 = speedCmS * speedCmS, g = gravityCmS2;
    // tan(theta) = (v^2 - sqrt(v^4 - g (g d^2 + 2 dz v^2))) / (g d): the flatter arc.
    const double discriminant = v2 * v2 - g * (g * d * d + 2.0 * gap.z * v2);
    double elevation = std::numbers::pi / 4.0;
    if (d < 1e-6)
        elevation = gap.z >= 0.0 ? std::numbers::pi / 2.0 : -std::numbers::pi / 2.0;
    else if (g <= 0.0)
        elevation = std::atan2(gap.z, d);
    else if (discriminant >= 0.0)
        elevation = std::atan((v2 - std::sqrt(discriminant)) / (g * d));
    const glm::dvec2 heading = d < 1e-6 ? glm::dvec2(1.0, 0.0) : glm::dvec2(gap) / d;
    ball.velocityCmS =
        glm::vec3(glm::dvec3(heading * std::cos(elevation), std::sin(elevation)) * speedCmS);
    return ball;
}

glm::mat4 bodyStartModel(const BodySpec& body) {
    const glm::vec3 r = glm::radians(body.rotationDeg);
    glm::mat4 model = glm::translate(glm::mat4(1.0f), body.positionCm);
    model = glm::rotate(model, r.z, glm::vec3(0, 0, 1));
    model = glm::rotate(model, r.y, glm::vec3(0, 1, 0));
    return glm::rotate(model, r.x, glm::vec3(1, 0, 0));
}

Deformer bodyDeformer(const BodySpec& body) {
    Deformer deformer;
    deformer.name = body.name;
    std::ostringstream key;
    key << std::setprecision(17) << "body shape " << int(body.shape) << " size " << body.sizeCm.x
        << ',' << body.sizeCm.y << ',' << body.sizeCm.z;
    deformer.meshKey = key.str();
    switch (body.shape) {
    case BodyShape::Sphere:
        deformer.mesh = makeSphere(body.sizeCm.x);
        break;
    case BodyShape::Box:
        deformer.mesh = makeBox(body.sizeCm);
        break;
    case BodyShape::Capsule:
        deformer.mesh = makeCapsule(body.sizeCm.x, body.sizeCm.y);
        break;
    case BodyShape::Mesh:
        // placeBodies loaded it; a spec without one (expandBodies alone) draws nothing.
        if (body.mesh) {
            deformer.mesh = body.mesh->mesh;
            deformer.meshKey = body.mesh->meshKey;
        }
        break;
    }
    deformer.contact = body.contact;
    deformer.bodyPose = bodyStartModel(body);
    return deformer;
}

} // namespace snowcap
