#pragma once
// Where a deformer is on its path, and which way it is moving, at any time: timed keyframes, a
// polyline through waypoints at a speed, or a circle; played once (holding the end), looped, or
// back and forth. No GL.

#include "core/settings.hpp"

#include <glm/vec3.hpp>
#include <vector>

namespace snowcap {

struct PathPose {
    glm::vec3 positionCm{0.0f};
    // Direction of horizontal motion, radians from +X towards +Y. While the path stands still
    // (held ends, vertical moves) it keeps the direction of the nearest horizontal motion, so a
    // character does not snap to +X when it stops.
    float headingRad = 0.0f;
};

class DeformerPath {
public:
    using Key = DeformerSettings::Key;
    using Mode = DeformerSettings::PathMode;

    DeformerPath() = default; // stands at the origin
    // Keys with non-decreasing times; the pass runs from the first key's time to the last's.
    static DeformerPath keys(std::vector<Key> keys, Mode mode);
    // Waypoints at `speedCmS` (3D distance along the segments), starting at `startS`.
    static DeformerPath polyline(std::vector<glm::vec3> waypointsCm, double speedCmS, double startS,
                                 Mode mode);
    // A horizontal circle of `radiusCm` around `centreCm` (its z is the height), from
    // `startDeg` (from +X towards +Y), counter-clockwise seen from above unless `clockwise`.
    static DeformerPath circle(glm::vec3 centreCm, double radiusCm, double startDeg, bool clockwise,
                               double speedCmS, double startS, Mode mode);
    // The path a scenario entry describes, every z raised by `liftCm` (the ground under the
    // snow for placement = "ground").
    static DeformerPath fromSettings(const DeformerSettings& settings, double liftCm);

    PathPose at(double timeS) const;
    double startS() const { return start_; }           // when the first pass begins
    double passDurationS() const { return duration_; } // one pass (a lap, for a circle)
    Mode mode() const { return mode_; }

private:
    enum class Kind { Points, Circle };
    struct Local {
        double s = 0.0;        // time into the current pass, in [0, duration]
        bool backward = false; // a ping-pong pass going back
    };
    Local local(double timeS) const;
    PathPose pointsAt(const Local& where) const;
    PathPose circleAt(const Local& where) const;

    Kind kind_ = Kind::Points;
    Mode mode_ = Mode::Once;
    double start_ = 0.0, duration_ = 0.0;
    // Points: keys at times (relative to start_); ties make jumps.
    std::vector<double> times_;
    std::vector<glm::vec3> points_{glm::vec3(0.0f)};
    // Circle.
    glm::vec3 centre_{0.0f};
    double radius_ = 0.0, startRad_ = 0.0, angularSpeed_ = 0.0; // signed, rad/s
};

} // namespace snowcap
