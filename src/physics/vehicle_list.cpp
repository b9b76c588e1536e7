#include "physics/vehicle_list.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <iomanip>
#include <limits>
#include <sstream>

namespace snowcap {

glm::vec3 wheelMountCm(const VehicleSettings& vehicle, int wheel) {
    const float forward = (wheel < 2 ? 0.5f : -0.5f) * float(vehicle.wheelbaseCm);
    const float left = (wheel % 2 == 0 ? 0.5f : -0.5f) * float(vehicle.trackCm);
    return {forward, left, -vehicle.chassisSizeCm.z};
}

double staticSagCm(const VehicleSettings& vehicle, double gravityCmS2) {
    // Bullet's spring force is stiffness x compression (m) x chassis mass per wheel: four
    // wheels carry m g when 4 k x = g.
    const double sagM = gravityCmS2 * 0.01 / (4.0 * vehicle.suspensionStiffness);
    return std::min(sagM * 100.0, vehicle.suspensionTravelCm);
}

glm::mat4 vehicleStartModel(const VehicleSettings& vehicle, double groundZCm, double gravityCmS2,
                            const HeightField* terrain) {
    const glm::vec3 first = vehicle.waypointsCm.front(), second = vehicle.waypointsCm[1];
    const float heading = std::atan2(second.y - first.y, second.x - first.x);
    const double lift = vehicle.wheelRadiusCm + vehicle.suspensionRestCm -
                        staticSagCm(vehicle, gravityCmS2) + vehicle.chassisSizeCm.z;
    if (terrain && !terrain->flat()) {
        const glm::dvec3 up = terrain->normal(first.x, first.y);
        const glm::dvec3 towards(std::cos(double(heading)), std::sin(double(heading)), 0.0);
        const glm::dvec3 forward = glm::normalize(towards - up * glm::dot(towards, up));
        const glm::dvec3 left = glm::cross(up, forward);
        const glm::dvec3 ground(first.x, first.y, groundZCm + terrain->heightCm(first.x, first.y));
        return glm::mat4(glm::vec4(glm::vec3(forward), 0.0f), glm::vec4(glm::vec3(left), 0.0f),
                         glm::vec4(glm::vec3(up), 0.0f),
                         glm::vec4(glm::vec3(ground + up * lift), 1.0f));
    }
    const double centreZ = groundZCm + lift;
    const glm::mat4 at =
        glm::translate(glm::mat4(1.0f), glm::vec3(first.x, first.y, float(centreZ)));
    return glm::rotate(at, heading, glm::vec3(0, 0, 1));
}

std::vector<Deformer> vehicleDeformers(const VehicleSettings& vehicle, double groundZCm,
                                       double gravityCmS2, const HeightField* terrain) {
    std::vector<Deformer> out;
    const glm::mat4 start = vehicleStartModel(vehicle, groundZCm, gravityCmS2, terrain);
    Deformer chassis;
    chassis.name = vehicle.name;
    chassis.mesh = makeBox(vehicle.chassisSizeCm);
    std::ostringstream chassisKey;
    chassisKey << std::setprecision(17) << "vehicle chassis box " << vehicle.chassisSizeCm.x << ','
               << vehicle.chassisSizeCm.y << ',' << vehicle.chassisSizeCm.z;
    chassis.meshKey = chassisKey.str();
    chassis.contact = vehicle.contact;
    chassis.bodyPose = start;
    out.push_back(std::move(chassis));
    std::ostringstream wheelKey;
    wheelKey << std::setprecision(17) << "vehicle wheel " << vehicle.wheelRadiusCm << ','
             << vehicle.wheelWidthCm;
    const Mesh wheelMesh =
        makeCylinder(float(vehicle.wheelRadiusCm), float(0.5 * vehicle.wheelWidthCm));
    const double sag = staticSagCm(vehicle, gravityCmS2);
    for (int w = 0; w < kVehicleWheels; ++w) {
        Deformer wheel;
        wheel.name = vehicle.name + "." + std::string(kWheelNames[std::size_t(w)]);
        wheel.mesh = wheelMesh;
        wheel.meshKey = wheelKey.str();
        wheel.contact = vehicle.contact;
        const glm::vec3 hub =
            wheelMountCm(vehicle, w) - glm::vec3(0.0f, 0.0f, float(vehicle.suspensionRestCm - sag));
        wheel.bodyPose = glm::translate(start, hub);
        out.push_back(std::move(wheel));
    }
    return out;
}

Mesh fitInsideBox(Mesh mesh, glm::vec3 halfExtentsCm) {
    const Aabb bounds = mesh.bounds();
    if (!bounds.valid())
        return mesh;
    const glm::vec3 centre = 0.5f * (bounds.min + bounds.max);
    const glm::vec3 half = 0.5f * (bounds.max - bounds.min);
    float scale = std::numeric_limits<float>::infinity();
    for (int axis = 0; axis < 3; ++axis)
        if (half[axis] > 0.0f)
            scale = std::min(scale, halfExtentsCm[axis] / half[axis]);
    if (!std::isfinite(scale))
        scale = 1.0f;
    for (glm::vec3& p : mesh.positions)
        p = (p - centre) * scale;
    return mesh;
}

// ---- the path ---------------------------------------------------------------------------------

DrivePath::DrivePath(std::span<const glm::vec3> waypointsCm, int laps) {
    for (const glm::vec3& p : waypointsCm)
        points_.push_back(glm::dvec2(p.x, p.y));
    if (laps > 0)
        points_.push_back(points_.front());
    startCm_.assign(points_.size(), 0.0);
    for (std::size_t i = 1; i < points_.size(); ++i)
        startCm_[i] = startCm_[i - 1] + glm::length(points_[i] - points_[i - 1]);
    lapCm_ = startCm_.back();
    passes_ = std::max(laps, 1);
    totalCm_ = lapCm_ * double(passes_);
}

void DrivePath::segment(long long k, glm::dvec2& a, glm::dvec2& b, double& startS) const {
    const long long perLap = segmentsPerLap();
    const long long lap = k / perLap, j = k % perLap;
    a = points_[std::size_t(j)];
    b = points_[std::size_t(j + 1)];
    startS = double(lap) * lapCm_ + startCm_[std::size_t(j)];
}

long long DrivePath::segmentAt(double s) const {
    if (!(s > 0.0) || !(lapCm_ > 0.0))
        return 0;
    const long long perLap = segmentsPerLap();
    const long long lap = std::min((long long)(s / lapCm_), passes_ - 1);
    const double inLap = s - double(lap) * lapCm_;
    const long long j =
        (long long)(std::upper_bound(startCm_.begin(), startCm_.end(), inLap) - startCm_.begin()) -
        1;
    return lap * perLap + std::clamp(j, 0LL, perLap - 1);
}

glm::dvec2 DrivePath::pointAt(double s) const {
    glm::dvec2 a, b;
    double startS = 0.0;
    segment(segmentAt(s), a, b, startS);
    const double length = glm::length(b - a);
    if (length <= 0.0)
        return a;
    return a + (b - a) * ((s - startS) / length);
}

double DrivePath::nearest(glm::dvec2 p, double fromS, double windowCm) const {
    const long long segments = segmentsPerLap() * passes_;
    const double toS = fromS + windowCm;
    double bestS = fromS, bestDistance = glm::length(pointAt(fromS) - p);
    for (long long k = segmentAt(fromS); k < segments; ++k) {
        glm::dvec2 a, b;
        double startS = 0.0;
        segment(k, a, b, startS);
        if (startS > toS)
            break;
        const double length = glm::length(b - a);
        if (length <= 0.0)
            continue;
        // The projection of p on the segment, held to the window.
        const double t = std::clamp(glm::dot(p - a, b - a) / (length * length), 0.0, 1.0);
        const double s = std::clamp(startS + t * length, fromS, toS);
        const double distance = glm::length(pointAt(s) - p);
        if (distance < bestDistance) {
            bestDistance = distance;
            bestS = s;
        }
    }
    return bestS;
}

double purePursuitSteer(glm::dvec2 rearAxleCm, double headingRad, glm::dvec2 targetCm,
                        double wheelbaseCm, double maxSteerRad) {
    const glm::dvec2 toTarget = targetCm - rearAxleCm;
    const double lookahead = glm::length(toTarget);
    if (lookahead <= 1e-9)
        return 0.0;
    const glm::dvec2 forward(std::cos(headingRad), std::sin(headingRad));
    const double alpha =
        std::atan2(forward.x * toTarget.y - forward.y * toTarget.x, glm::dot(forward, toTarget));
    const double steer = std::atan(2.0 * wheelbaseCm * std::sin(alpha) / lookahead);
    return std::clamp(steer, -maxSteerRad, maxSteerRad);
}

double pathSpeedCmS(double speedCmS, double remainingCm, double stopCmS2) {
    return std::min(speedCmS, std::sqrt(2.0 * stopCmS2 * std::max(remainingCm, 0.0)));
}

} // namespace snowcap
