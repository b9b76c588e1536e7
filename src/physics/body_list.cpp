#include "physics/body_list.hpp"

#include "scene/crowd.hpp"

#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <iomanip>
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
            out.push_back(std::move(spec));
        }
    }
    return out;
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
    switch (body.shape) {
    case DeformerShape::Sphere:
        deformer.mesh = makeSphere(body.sizeCm.x);
        break;
    case DeformerShape::Box:
        deformer.mesh = makeBox(body.sizeCm);
        break;
    case DeformerShape::Capsule:
        deformer.mesh = makeCapsule(body.sizeCm.x, body.sizeCm.y);
        break;
    }
    std::ostringstream key;
    key << std::setprecision(17) << "body shape " << int(body.shape) << " size " << body.sizeCm.x
        << ',' << body.sizeCm.y << ',' << body.sizeCm.z;
    deformer.meshKey = key.str();
    deformer.contact = body.contact;
    deformer.bodyPose = bodyStartModel(body);
    return deformer;
}

} // namespace snowcap
