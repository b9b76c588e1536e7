#pragma once
// What the physics tests share: snow whose top is at z = 0 over 30 cm of it (the ground under
// it at z = -30), a sphere body, and a small vehicle driving a straight line along +X.

#include "core/settings.hpp"

#include <string>
#include <vector>

namespace snowcap::test {

// Default settings but for the snow: its top at z = 0, 30 cm deep.
inline Settings physicsSnow() {
    Settings settings;
    settings.snow.surfaceZCm = 0.0;
    settings.snow.depthCm = 30.0;
    return settings;
}

inline BodySettings sphereBody(const std::string& name, glm::vec3 at, float radiusCm = 10.0f) {
    BodySettings body;
    body.name = name;
    body.shape = BodyShape::Sphere;
    body.sizeCm = glm::vec3(radiusCm);
    body.positionCm = at;
    return body;
}

// A small car: a 120 x 80 x 30 cm chassis on wheels 40 cm across and 20 cm wide, 60 cm apart
// (centre to centre) on an 80 cm wheelbase, driving from x = fromX to x = toX along y = 0.
inline VehicleSettings straightCar(const std::string& name, float fromX, float toX,
                                   double speedCmS = 200.0) {
    VehicleSettings car;
    car.name = name;
    car.chassisSizeCm = {60.0f, 40.0f, 15.0f};
    car.massKg = 300.0;
    car.wheelRadiusCm = 20.0;
    car.wheelWidthCm = 20.0;
    car.trackCm = 60.0;
    car.wheelbaseCm = 80.0;
    car.suspensionRestCm = 15.0;
    car.suspensionTravelCm = 10.0;
    car.waypointsCm = {{fromX, 0.0f, 0.0f}, {toX, 0.0f, 0.0f}};
    car.speedCmS = speedCmS;
    car.lookaheadCm = 150.0;
    return car;
}

} // namespace snowcap::test
