#include "core/config_scene.hpp"

#include <array>
#include <glm/geometric.hpp>
#include <string>
#include <utility>

namespace snowcap::config_read {
namespace {

Read<std::vector<DeformerSettings::Key>> keyframes() {
    return [](Walker& walker, const toml::node& node, const std::string& key,
              std::vector<DeformerSettings::Key>& out) {
        const toml::array* keys = node.as_array();
        if (!keys)
            return walker.expected(node, key, "an array of [t, x, y, z] keys");
        if (keys->empty())
            return walker.failKey(node, key, "needs at least one [t, x, y, z] key");
        const auto readKey = numbers<4>("[t, x, y, z]");
        std::vector<DeformerSettings::Key> path;
        for (std::size_t i = 0; i < keys->size(); ++i) {
            const std::string at = key + "[" + std::to_string(i) + "]";
            std::array<double, 4> value{};
            if (!readKey(walker, *keys->get(i), at, value))
                return false;
            const toml::node& time = *keys->get(i)->as_array()->get(0);
            if (value[0] < 0.0)
                return walker.failKey(time, at + "[0]",
                                      "time must be at least 0, got " + show(value[0]));
            if (!path.empty() && value[0] < path.back().timeS)
                return walker.failKey(time, at + "[0]",
                                      "time must not decrease, got " + show(value[0]) + " after " +
                                          show(path.back().timeS));
            path.push_back({value[0], toVec3(value[1], value[2], value[3])});
        }
        out = std::move(path);
        return true;
    };
}

// waypoints_cm = [[x, y, z], ...]: at least two points, and somewhere to go.
Read<std::vector<glm::vec3>> waypoints() {
    return [](Walker& walker, const toml::node& node, const std::string& key,
              std::vector<glm::vec3>& out) {
        const toml::array* points = node.as_array();
        if (!points)
            return walker.expected(node, key, "an array of [x, y, z] points");
        if (points->size() < 2)
            return walker.failKey(node, key,
                                  "needs at least two [x, y, z] points, got " +
                                      std::to_string(points->size()));
        const auto readPoint = vec3(anyNumber());
        std::vector<glm::vec3> path(points->size());
        double length = 0.0;
        for (std::size_t i = 0; i < points->size(); ++i) {
            if (!readPoint(walker, *points->get(i), key + "[" + std::to_string(i) + "]", path[i]))
                return false;
            if (i > 0)
                length += double(glm::length(path[i] - path[i - 1]));
        }
        if (!(length > 0.0))
            return walker.failKey(node, key, "all points are the same: the path has no length");
        out = std::move(path);
        return true;
    };
}

using D = DeformerSettings;

inline constexpr std::array<Spelling<D::PathKind>, 3> kPathKinds{{
    {D::PathKind::Keys, "keys"},
    {D::PathKind::Polyline, "polyline"},
    {D::PathKind::Circle, "circle"},
}};
inline constexpr std::array<Spelling<D::PathMode>, 3> kPathModes{{
    {D::PathMode::Once, "once"},
    {D::PathMode::Loop, "loop"},
    {D::PathMode::PingPong, "ping_pong"},
}};
inline constexpr std::array<Spelling<D::Placement>, 2> kPlacements{{
    {D::Placement::Ground, "ground"},
    {D::Placement::Absolute, "absolute"},
}};
inline constexpr std::array<Spelling<D::RootMotion>, 2> kRootMotions{{
    {D::RootMotion::Path, "path"},
    {D::RootMotion::InPlace, "in_place"},
}};
inline constexpr std::array<Spelling<D::CircleDirection>, 2> kCircleDirections{{
    {D::CircleDirection::Ccw, "ccw"},
    {D::CircleDirection::Cw, "cw"},
}};

// One [[deformer]] entry: its keys one by one, then the rules between keys (which path keys
// the path kind needs and which it would silently ignore, one clip choice).
Read<DeformerSettings> deformerEntry() {
    constexpr auto required = Presence::Required;
    Read<D> keys = table<D>({
        field("name", &D::name, exactly<std::string>("a string"), required),
        field("shape", &D::shape, choice(kDeformerShapes)),
        field("size_cm", &D::sizeCm, vec3(positive())),
        field("path_kind", &D::pathKind, choice(kPathKinds)),
        field("path", &D::path, keyframes()),
        field("waypoints_cm", &D::waypointsCm, waypoints()),
        field("speed_cm_s", &D::speedCmS, number(aboveUpTo(0.0, 10000.0))),
        field("circle_centre_cm", &D::circleCentreCm, vec3(anyNumber())),
        field("circle_radius_cm", &D::circleRadiusCm, number(aboveUpTo(0.0, 50000.0))),
        field("circle_start_deg", &D::circleStartDeg, number(anyNumber())),
        field("circle_direction", &D::circleDirection, choice(kCircleDirections)),
        field("path_start_s", &D::pathStartS, number(nonNegative())),
        field("path_mode", &D::pathMode, choice(kPathModes)),
        field("placement", &D::placement, choice(kPlacements)),
        field("root_motion", &D::rootMotion, choice(kRootMotions)),
        field("player", &D::player, exactly<bool>("a boolean")),
        field("mesh", &D::mesh, exactly<std::string>("a string")),
        field("scale", &D::scale, number(aboveUpTo(0.0, 1000.0))),
        field("fit_height_cm", &D::fitHeightCm, number(nonNegative())),
        field("rotation_deg", &D::rotationDeg, vec3(anyNumber())),
        field("offset_cm", &D::offsetCm, vec3(anyNumber())),
        field("up_axis", &D::upAxis, choice(kUpAxes)),
        field("clip", &D::clip, exactly<std::string>("a string")),
        field("clip_index", &D::clipIndex, integer(integerBetween(0, 65535))),
        field("clip_speed", &D::clipSpeed, number(between(0.0, 100.0))),
        field("face_path", &D::facePath, exactly<bool>("a boolean")),
        field("contact", &D::contact, choice(kContactTypes)),
    });
    return [keys](Walker& walker, const toml::node& node, const std::string& key, D& out) {
        if (!keys(walker, node, key, out))
            return false;
        const toml::table& entry = *node.as_table();
        const std::string kind(nameOf(kPathKinds, out.pathKind));
        const auto misplaced = [&](std::string_view name, const std::string& why) {
            return walker.failKey(*entry.get(name), key + "." + std::string(name), why);
        };
        const auto needs = [&](std::string_view name, D::PathKind owner) -> bool {
            if (out.pathKind == owner)
                return true;
            return !entry.contains(name) ||
                   misplaced(name, "is for path_kind = '" + std::string(nameOf(kPathKinds, owner)) +
                                       "', this deformer's is '" + kind + "'");
        };
        if (!needs("path", D::PathKind::Keys) || !needs("waypoints_cm", D::PathKind::Polyline))
            return false;
        for (std::string_view name :
             {"circle_centre_cm", "circle_radius_cm", "circle_start_deg", "circle_direction"})
            if (!needs(name, D::PathKind::Circle))
                return false;
        const std::string_view wanted = out.pathKind == D::PathKind::Keys ? "path"
                                        : out.pathKind == D::PathKind::Polyline
                                            ? "waypoints_cm"
                                            : "circle_radius_cm";
        if (!entry.contains(wanted))
            return walker.failKey(node, key,
                                  "missing required key '" + std::string(wanted) + "'" +
                                      (out.pathKind == D::PathKind::Keys
                                           ? std::string()
                                           : " (path_kind = '" + kind + "')"));
        // Keys carry their own timing: a speed or a start time would be ignored.
        if (out.pathKind == D::PathKind::Keys) {
            if (entry.contains("path_start_s"))
                return misplaced("path_start_s", "is not used by path_kind = 'keys' (the keys' "
                                                 "times say when it moves)");
            if (entry.contains("speed_cm_s") && !out.player)
                return misplaced("speed_cm_s", "is not used by path_kind = 'keys' (the keys' "
                                               "times set the pace)");
        }
        if (entry.contains("clip") && entry.contains("clip_index"))
            return misplaced("clip_index", "give either clip (a name) or clip_index, not both");
        for (std::string_view name : {"clip", "clip_index", "clip_speed"})
            if (entry.contains(name) && out.mesh.empty())
                return misplaced(name, "needs a skinned mesh file (key 'mesh')");
        return true;
    };
}

} // namespace

Read<std::vector<DeformerSettings>> deformerListReader() {
    // At most one player: the controls drive one deformer.
    return [entries = listOf(deformerEntry())](Walker& walker, const toml::node& node,
                                               const std::string& key,
                                               std::vector<DeformerSettings>& out) {
        std::vector<DeformerSettings> list;
        if (!entries(walker, node, key, list))
            return false;
        int first = -1;
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].player)
                continue;
            if (first < 0) {
                first = int(i);
                continue;
            }
            const toml::node& flag = *node.as_array()->get(i)->as_table()->get("player");
            return walker.failKey(flag, key + "[" + std::to_string(i) + "].player",
                                  "only one deformer can be the player; " + key + "[" +
                                      std::to_string(first) + "] already is");
        }
        out = std::move(list);
        return true;
    };
}

Read<std::vector<ProbeSettings>> probeListReader() {
    using P = ProbeSettings;
    constexpr auto required = Presence::Required;
    return listOf(table<P>({
        field("name", &P::name, exactly<std::string>("a string"), required),
        field("at_cm", &P::worldCm, numbers<2>("[x, y]"), required),
    }));
}

} // namespace snowcap::config_read
