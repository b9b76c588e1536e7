#include "scene/deformer_path.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <numbers>
#include <optional>

namespace snowcap {
namespace {

using Mode = DeformerSettings::PathMode;

// A pass that loops or ping-pongs must last a little, or the time would wrap on every frame.
constexpr double kShortestRepeatS = 1e-6;

} // namespace

DeformerPath DeformerPath::keys(std::vector<Key> keys, Mode mode) {
    DeformerPath path;
    path.mode_ = mode == Mode::Auto ? Mode::Once : mode;
    if (keys.empty())
        return path;
    path.start_ = keys.front().timeS;
    path.duration_ = keys.back().timeS - keys.front().timeS;
    path.times_.clear();
    path.points_.clear();
    for (const Key& key : keys) {
        path.times_.push_back(key.timeS - path.start_);
        path.points_.push_back(key.positionCm);
    }
    return path;
}

DeformerPath DeformerPath::polyline(std::vector<glm::vec3> waypointsCm, double speedCmS,
                                    double startS, Mode mode) {
    DeformerPath path;
    path.mode_ = mode == Mode::Auto ? Mode::Once : mode;
    path.start_ = startS;
    if (waypointsCm.empty())
        return path;
    path.points_ = std::move(waypointsCm);
    path.times_.assign(1, 0.0);
    for (std::size_t i = 1; i < path.points_.size(); ++i) {
        const double length =
            glm::distance(glm::dvec3(path.points_[i - 1]), glm::dvec3(path.points_[i]));
        path.times_.push_back(path.times_.back() + (speedCmS > 0.0 ? length / speedCmS : 0.0));
    }
    path.duration_ = path.times_.back();
    return path;
}

DeformerPath DeformerPath::circle(glm::vec3 centreCm, double radiusCm, double startDeg,
                                  bool clockwise, double speedCmS, double startS, Mode mode) {
    DeformerPath path;
    path.kind_ = Kind::Circle;
    path.mode_ = mode == Mode::Auto ? Mode::Loop : mode;
    path.start_ = startS;
    path.centre_ = centreCm;
    path.radius_ = radiusCm;
    path.startRad_ = startDeg * std::numbers::pi / 180.0;
    if (radiusCm > 0.0 && speedCmS > 0.0) {
        path.angularSpeed_ = (clockwise ? -1.0 : 1.0) * speedCmS / radiusCm;
        path.duration_ = 2.0 * std::numbers::pi * radiusCm / speedCmS;
    }
    return path;
}

DeformerPath DeformerPath::fromSettings(const DeformerSettings& settings, double liftCm) {
    using Kind = DeformerSettings::PathKind;
    const glm::vec3 lift(0.0f, 0.0f, float(liftCm));
    switch (settings.pathKind) {
    case Kind::Polyline: {
        std::vector<glm::vec3> points = settings.waypointsCm;
        for (glm::vec3& p : points)
            p += lift;
        return polyline(std::move(points), settings.speedCmS, settings.pathStartS,
                        settings.pathMode);
    }
    case Kind::Circle:
        return circle(settings.circleCentreCm + lift, settings.circleRadiusCm,
                      settings.circleStartDeg,
                      settings.circleDirection == DeformerSettings::CircleDirection::Cw,
                      settings.speedCmS, settings.pathStartS, settings.pathMode);
    case Kind::Keys:
        break;
    }
    std::vector<Key> keys = settings.path;
    for (Key& key : keys)
        key.positionCm += lift;
    return DeformerPath::keys(std::move(keys), settings.pathMode);
}

DeformerPath::Local DeformerPath::local(double timeS) const {
    const double s = timeS - start_;
    if (s <= 0.0)
        return {0.0, false};
    if (mode_ == Mode::Once || duration_ < kShortestRepeatS)
        return {std::min(s, duration_), false};
    if (mode_ == Mode::Loop)
        return {std::fmod(s, duration_), false};
    const double v = std::fmod(s, 2.0 * duration_);
    return v <= duration_ ? Local{v, false} : Local{2.0 * duration_ - v, true};
}

PathPose DeformerPath::at(double timeS) const {
    const Local where = local(timeS);
    return kind_ == Kind::Circle ? circleAt(where) : pointsAt(where);
}

PathPose DeformerPath::pointsAt(const Local& where) const {
    const std::size_t n = points_.size();
    PathPose pose;
    if (n < 2) {
        pose.positionCm = points_.empty() ? glm::vec3(0.0f) : points_.front();
        return pose;
    }
    const double s = where.s;
    // The segment [i, i + 1] that holds s; the last key at or before s wins ties, so two keys
    // with equal times make a jump.
    std::size_t i = 0;
    while (i + 2 < n && times_[i + 1] <= s)
        ++i;
    if (s <= times_.front() && !where.backward) {
        pose.positionCm = points_.front();
    } else if (s >= times_.back()) {
        pose.positionCm = points_.back();
    } else {
        const double span = times_[i + 1] - times_[i];
        const float f = span > 0.0 ? float((s - times_[i]) / span) : 1.0f;
        pose.positionCm = glm::mix(points_[i], points_[i + 1], std::clamp(f, 0.0f, 1.0f));
    }
    // Heading: this segment's horizontal direction, or failing that (a vertical move, a pause)
    // the nearest segment behind in the direction of play that moves horizontally, then ahead.
    const auto horizontal = [&](std::size_t j) {
        return glm::vec2(points_[j + 1]) - glm::vec2(points_[j]);
    };
    const auto moves = [&](std::size_t j) {
        return glm::length(horizontal(j)) > 1e-4f;
    };
    std::optional<std::size_t> found;
    if (!where.backward) {
        for (std::size_t j = i + 1; j-- > 0 && !found;)
            if (moves(j))
                found = j;
        for (std::size_t j = i + 1; j + 1 < n && !found; ++j)
            if (moves(j))
                found = j;
    } else {
        for (std::size_t j = i; j + 1 < n && !found; ++j)
            if (moves(j))
                found = j;
        for (std::size_t j = i; j-- > 0 && !found;)
            if (moves(j))
                found = j;
    }
    if (found) {
        const glm::vec2 d = horizontal(*found) * (where.backward ? -1.0f : 1.0f);
        pose.headingRad = std::atan2(d.y, d.x);
    }
    return pose;
}

PathPose DeformerPath::circleAt(const Local& where) const {
    const double angle = startRad_ + angularSpeed_ * where.s;
    PathPose pose;
    pose.positionCm = centre_ + glm::vec3(float(radius_ * std::cos(angle)),
                                          float(radius_ * std::sin(angle)), 0.0f);
    // The tangent: +90° from the radius going counter-clockwise, -90° clockwise; reversed on
    // a ping-pong's way back.
    const double turn = angularSpeed_ < 0.0 ? -0.5 * std::numbers::pi : 0.5 * std::numbers::pi;
    double heading = angle + turn + (where.backward ? std::numbers::pi : 0.0);
    heading = std::remainder(heading, 2.0 * std::numbers::pi);
    pose.headingRad = float(heading);
    return pose;
}

} // namespace snowcap
