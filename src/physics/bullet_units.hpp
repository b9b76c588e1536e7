#pragma once
// Inside the physics module only (Bullet's headers): the world runs in metres inside and in cm
// at its edges. Bullet is tuned for bodies of 0.05 to 10 units (its margins, sleeping
// thresholds and contact breaking distance are in units).

#include <btBulletDynamicsCommon.h>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace snowcap::bullet {

constexpr double kCmToM = 0.01;
constexpr double kMToCm = 100.0;

inline btVector3 toMetres(const glm::vec3& cm) {
    return btVector3(btScalar(cm.x * kCmToM), btScalar(cm.y * kCmToM), btScalar(cm.z * kCmToM));
}

// A rigid model matrix (cm) as Bullet's transform (m).
inline btTransform toTransform(const glm::mat4& model) {
    // glm is column-major (model[column][row]); btMatrix3x3 takes rows.
    const btMatrix3x3 basis(model[0][0], model[1][0], model[2][0], model[0][1], model[1][1],
                            model[2][1], model[0][2], model[1][2], model[2][2]);
    return btTransform(basis, toMetres(glm::vec3(model[3])));
}

// Bullet's transform (m) as a deformer's model matrix (cm).
inline glm::mat4 toModelCm(const btTransform& transform) {
    btScalar m[16];
    transform.getOpenGLMatrix(m);
    glm::mat4 model(1.0f);
    for (int column = 0; column < 4; ++column)
        for (int row = 0; row < 4; ++row)
            model[column][row] = float(m[column * 4 + row]);
    model[3] = glm::vec4(glm::vec3(model[3]) * float(kMToCm), 1.0f);
    return model;
}

} // namespace snowcap::bullet
