#include "core/config_scene.hpp"

#include "core/body_rules.hpp"
#include "core/params.hpp"
#include "core/vehicle_rules.hpp"

#include <array>
#include <cmath>
#include <glm/geometric.hpp>
#include <string>
#include <unordered_map>
#include <utility>

namespace snowcap::config_read {

// path = [[t, x, y, z], ...]. Times start at 0 or later and never decrease, so playback can
// find its segment with a forward scan; two keys with the same time make an instant jump.
Read<std::vector<DeformerSettings::Key>> keyframes() {
    return [](Walker& walker, const toml::node& node, const std::string& key,
              std::vector<DeformerSettings::Key>& out) {
        const toml::array* keys = node.as_array();
        if (!keys)
            return walker.expected(node, key, "an array of [t, x, y, z] keys");
        if (keys->empty())
            return walker.failKey(node, key, "needs at least one [t, x, y, z] key");
        if (walker.overCap(node, key, keys->size(), "keys", walker.limits().maxPathKeys,
                           "import.max_path_keys"))
            return false;
        const auto readKey = numbers<4>("[t, x, y, z]");
        std::vector<DeformerSettings::Key> path;
        path.reserve(keys->size());
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
        if (walker.overCap(node, key, points->size(), "points", walker.limits().maxPathKeys,
                           "import.max_path_keys"))
            return false;
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

namespace {

using D = DeformerSettings;

// The rules between a deformer's keys (which path keys the path kind needs and which it would
// silently ignore, one clip choice), for a [[deformer]] or a [[crowd]] entry already read.
bool deformerRules(Walker& walker, const toml::node& node, const std::string& key, const D& out) {
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
    const std::string_view wanted = out.pathKind == D::PathKind::Keys       ? "path"
                                    : out.pathKind == D::PathKind::Polyline ? "waypoints_cm"
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
    for (std::string_view name : {"clip", "clip_index", "clip_speed", "clip_phase"})
        if (entry.contains(name) && out.mesh.empty())
            return misplaced(name, "needs a skinned mesh file (key 'mesh')");
    return true;
}

// One [[deformer]] entry: its keys (the table), then the rules between them.
Read<DeformerSettings> deformerEntry() {
    Read<D> keys = table<D>(params::schema(params::deformerParams()));
    return [keys](Walker& walker, const toml::node& node, const std::string& key, D& out) {
        return keys(walker, node, key, out) && deformerRules(walker, node, key, out);
    };
}

// One [[crowd]] entry: its own keys and its members' (every deformer key, read into `member`)
// in one table, so a misspelt key of either kind is refused; then the deformer's rules.
Read<CrowdSettings> crowdEntry() {
    Schema<CrowdSettings> keys = params::schema(params::crowdParams());
    for (Field<D>& shared : params::schema(params::deformerParams()))
        keys.push_back({shared.name,
                        [read = shared.read](Walker& walker, const toml::node& node,
                                             const std::string& key, CrowdSettings& crowd) {
                            return read(walker, node, key, crowd.member);
                        },
                        shared.presence});
    Read<CrowdSettings> readKeys = table<CrowdSettings>(std::move(keys));
    return [readKeys](Walker& walker, const toml::node& node, const std::string& key,
                      CrowdSettings& out) {
        if (!readKeys(walker, node, key, out) || !deformerRules(walker, node, key, out.member))
            return false;
        if (out.member.player)
            return walker.failKey(*node.as_table()->get("player"), key + ".player",
                                  "a crowd cannot be the player (the controls drive one deformer)");
        return true;
    };
}

} // namespace

Read<std::vector<DeformerSettings>> deformerListReader() {
    // At most one player: the controls drive one deformer.
    return
        [entries = listOf(deformerEntry(), &ImportSettings::maxDeformers, "import.max_deformers")](
            Walker& walker, const toml::node& node, const std::string& key,
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

Read<std::vector<CrowdSettings>> crowdListReader() {
    // listOf's names are the entries' own; a crowd's is its members' (member.name).
    return [readEntry = crowdEntry()](Walker& walker, const toml::node& node,
                                      const std::string& key, std::vector<CrowdSettings>& out) {
        const toml::array* items = node.as_array();
        if (!items)
            return walker.expected(node, key, "an array of tables");
        // Each crowd is a table with a count: the cap is on the members of all of them.
        const int cap = walker.limits().maxCrowdMembers;
        if (walker.overCap(node, key, items->size(), "tables", cap, "import.max_crowd_members"))
            return false;
        std::vector<CrowdSettings> list;
        std::unordered_map<std::string, std::size_t> seen; // linear, as listOf
        long long members = 0;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const std::string at = key + "[" + std::to_string(i) + "]";
            CrowdSettings entry{};
            if (!readEntry(walker, *items->get(i), at, entry))
                return false;
            const toml::node& nameNode = *items->get(i)->as_table()->get("name");
            if (entry.member.name.empty())
                return walker.failKey(nameNode, at + ".name", "must not be empty");
            const auto [where, added] = seen.emplace(entry.member.name, i);
            if (!added)
                return walker.failKey(nameNode, at + ".name",
                                      "'" + clipForMessage(entry.member.name) +
                                          "' is already used by " + key + "[" +
                                          std::to_string(where->second) + "]");
            members += entry.count;
            if (walker.overCap(*items->get(i), at + ".count", std::size_t(members),
                               "members in " + key + "[0.." + std::to_string(i) + "]", cap,
                               "import.max_crowd_members"))
                return false;
            list.push_back(std::move(entry));
        }
        out = std::move(list);
        return true;
    };
}

Read<std::vector<FoliageSettings>> foliageListReader() {
    const Read<FoliageSettings> keys =
        table<FoliageSettings>(params::schema(params::foliageParams()));
    const Read<FoliageSettings> entry = [keys](Walker& walker, const toml::node& node,
                                               const std::string& key, FoliageSettings& out) {
        if (!keys(walker, node, key, out))
            return false;
        const toml::table& table = *node.as_table();
        if (table.contains("count") && table.contains("density_per_m2"))
            return walker.failKey(*table.get("density_per_m2"), key + ".density_per_m2",
                                  "give either count or density_per_m2, not both");
        // The plant count is checked here, where the file and line are known, before any
        // plant is placed (scatterFoliage holds to the same cap).
        const double plants =
            table.contains("density_per_m2")
                ? std::round(out.densityPerM2 * out.sizeCm[0] * out.sizeCm[1] * 1e-4)
                : double(out.count);
        if (plants > double(walker.limits().maxPlants)) {
            const char* name = table.contains("density_per_m2") ? "density_per_m2" : "count";
            return walker.failKey(
                *table.get(name), key + "." + name,
                std::to_string(static_cast<long long>(plants)) + " plants, more than " +
                    std::to_string(walker.limits().maxPlants) + " (limit import.max_plants)");
        }
        if (out.scaleRange[0] > out.scaleRange[1])
            return walker.failKey(*table.get("scale"), key + ".scale",
                                  "[min, max] needs min <= max, got [" + show(out.scaleRange[0]) +
                                      ", " + show(out.scaleRange[1]) + "]");
        return true;
    };
    return listOf(entry, &ImportSettings::maxFoliage,
                  "import.max_foliage"); // listOf refuses a name used twice
}

Read<std::vector<BodySettings>> bodyListReader() {
    const Read<BodySettings> keys = table<BodySettings>(params::schema(params::bodyParams()));
    const Read<BodySettings> entry = [keys](Walker& walker, const toml::node& node,
                                            const std::string& key, BodySettings& out) {
        if (!keys(walker, node, key, out))
            return false;
        // The rules between keys, here where the file and line of the key at fault are known
        // (the physics world checks them again for settings made in code).
        if (const std::optional<BodyProblem> problem = bodyProblem(out)) {
            const toml::table& table = *node.as_table();
            const toml::node* at = table.get(problem->key);
            return walker.failKey(at ? *at : node, key + "." + problem->key, problem->reason);
        }
        return true;
    };
    const Read<std::vector<BodySettings>> entries =
        listOf(entry, &ImportSettings::maxBodies, "import.max_bodies");
    return [entries](Walker& walker, const toml::node& node, const std::string& key,
                     std::vector<BodySettings>& out) {
        std::vector<BodySettings> list;
        if (!entries(walker, node, key, list))
            return false;
        // The cap is on the bodies, not the tables: the physics world steps each one.
        long long bodies = 0;
        for (std::size_t i = 0; i < list.size(); ++i) {
            bodies += list[i].count;
            const std::string at = key + "[" + std::to_string(i) + "]";
            if (walker.overCap(*node.as_array()->get(i), at + ".count", std::size_t(bodies),
                               "bodies in " + key + "[0.." + std::to_string(i) + "]",
                               walker.limits().maxBodies, "import.max_bodies"))
                return false;
        }
        out = std::move(list);
        return true;
    };
}

Read<std::vector<VehicleSettings>> vehicleListReader() {
    const Read<VehicleSettings> keys =
        table<VehicleSettings>(params::schema(params::vehicleParams()));
    const Read<VehicleSettings> entry = [keys](Walker& walker, const toml::node& node,
                                               const std::string& key, VehicleSettings& out) {
        if (!keys(walker, node, key, out))
            return false;
        // The rules between keys, here where the file and line of the key at fault are known
        // (the physics world checks them again for settings made in code).
        if (const std::optional<VehicleProblem> problem = vehicleProblem(out)) {
            const toml::table& table = *node.as_table();
            const toml::node* at = table.get(problem->key);
            return walker.failKey(at ? *at : node, key + "." + problem->key, problem->reason);
        }
        return true;
    };
    return listOf(entry, &ImportSettings::maxVehicles, "import.max_vehicles");
}

Read<std::vector<ProbeSettings>> probeListReader() {
    return listOf(table<ProbeSettings>(params::schema(params::probeParams())),
                  &ImportSettings::maxProbes, "import.max_probes");
}

} // namespace snowcap::config_read
