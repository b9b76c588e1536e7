#pragma once
// A [[vehicle]] as what the physics world builds and the snow sees (docs/physics.md): where its
// wheels mount on the chassis, where it starts, the deformers that press for it (the chassis
// box and four wheel cylinders), and how it follows its path: the waypoints as a polyline
// walked by arc length, and a pure pursuit steering controller. No GL, no Bullet.

#include "core/settings.hpp"
#include "scene/deformer.hpp"

#include <array>
#include <glm/vec2.hpp>
#include <span>
#include <string_view>
#include <vector>

namespace snowcap {

// Front left, front right, rear left, rear right: the order of the wheels everywhere (Bullet's
// wheel index, the deformers after the chassis, the names NAME.wheel_fl ...).
constexpr int kVehicleWheels = 4;
inline constexpr std::array<std::string_view, kVehicleWheels> kWheelNames{"wheel_fl", "wheel_fr",
                                                                          "wheel_rl", "wheel_rr"};
// Deformers per vehicle: the chassis, then its wheels.
constexpr int kVehicleDeformers = 1 + kVehicleWheels;

// Where wheel `wheel`'s suspension mounts, in the chassis frame (cm; +X forward, +Y left, +Z
// up): on the chassis box's bottom face, half the wheelbase forward or back, half the track to
// the left or the right.
glm::vec3 wheelMountCm(const VehicleSettings& vehicle, int wheel);

// How far each suspension is compressed under the vehicle's weight shared by four wheels:
// g / (4 x suspension_stiffness), at most the travel (cm).
double staticSagCm(const VehicleSettings& vehicle, double gravityCmS2);

// The chassis at t = 0: at the first waypoint, facing the second, its centre where its wheels
// stand on `groundZCm` with the suspensions at their static sag (so it starts at rest). On a
// `terrain` that is not flat the ground there is groundZCm + the terrain's height, and the
// chassis stands square to the terrain's normal (its heading the second waypoint's direction
// laid on the slope).
glm::mat4 vehicleStartModel(const VehicleSettings& vehicle, double groundZCm, double gravityCmS2,
                            const HeightField* terrain = nullptr);

// The deformers that press for a vehicle, at its start: the chassis (NAME; a box of
// chassis_size_cm centred on the chassis' centre of mass), then the four wheels
// (NAME.wheel_fl, ...; cylinders along their axles, centred on their hubs). The wheels of
// vehicles with the same wheel size share one mesh key, so they are drawn as instances.
std::vector<Deformer> vehicleDeformers(const VehicleSettings& vehicle, double groundZCm,
                                       double gravityCmS2, const HeightField* terrain = nullptr);

// `mesh` scaled uniformly to fit inside a box of `halfExtentsCm` and centred on it: a
// chassis_mesh on its chassis box.
Mesh fitInsideBox(Mesh mesh, glm::vec3 halfExtentsCm);

// The waypoints as the path a vehicle drives, by arc length s (cm, xy; z is not used). With
// laps = 0 it runs from the first point to the last; with laps = N the path is closed (the
// last point back to the first) and s runs over N times round. Beyond either end it goes on
// along the end segment, so a lookahead past the end still has a point to aim at.
class DrivePath {
public:
    DrivePath(std::span<const glm::vec3> waypointsCm, int laps);
    double lapCm() const { return lapCm_; }     // one pass of the (closed, with laps) path
    double totalCm() const { return totalCm_; } // what the vehicle drives in all
    glm::dvec2 pointAt(double s) const;
    // The s in [fromS, fromS + windowCm] of the path's point nearest `p`: the progress of a
    // vehicle at p that was at fromS, never going back (a loop that crosses itself keeps its
    // lap).
    double nearest(glm::dvec2 p, double fromS, double windowCm) const;

private:
    std::vector<glm::dvec2> points_; // closed: the first again at the end
    std::vector<double> startCm_;    // arc length at each point, one lap
    double lapCm_ = 0.0, totalCm_ = 0.0;
    long long passes_ = 1; // times over the points: laps, or 1 for an open path
    // Segment k of the whole drive (k counts on over the laps): its ends and its start's s.
    void segment(long long k, glm::dvec2& a, glm::dvec2& b, double& startS) const;
    long long segmentAt(double s) const; // the segment holding s, the end ones beyond the ends
    long long segmentsPerLap() const { return (long long)(points_.size()) - 1; }
};

// Pure pursuit (Coulter, "Implementation of the Pure Pursuit Path Tracking Algorithm", CMU-RI-
// TR-92-01, 1992): the front wheels' steering angle (rad, + to the left) that puts the rear
// axle, at `rearAxleCm` heading `headingRad`, on the arc through `targetCm`:
// delta = atan(2 L sin(alpha) / l_d), with L the wheelbase, alpha the angle from the heading to
// the target and l_d the distance to it; clamped to +-maxSteerRad.
double purePursuitSteer(glm::dvec2 rearAxleCm, double headingRad, glm::dvec2 targetCm,
                        double wheelbaseCm, double maxSteerRad);

// The speed to hold with `remainingCm` of the path left: `speedCmS`, and near the end no more
// than lets it stop there at `stopCmS2` (sqrt(2 a d)).
double pathSpeedCmS(double speedCmS, double remainingCm, double stopCmS2);

} // namespace snowcap
