#pragma once
// Row helpers the parameter table's files share (params_table_scene.cpp,
// params_table_physics.cpp): a custom reader/writer for one member, and a list of
// [x, y, z] waypoints for any settings type with a waypointsCm member.
#include "core/config_read.hpp"
#include "core/params.hpp"

#include <glm/vec3.hpp>
#include <string_view>
#include <vector>

namespace snowcap::params {

template <class S, class M, class W>
Custom<S> custom(std::string_view shape, M S::*member, Read<M> read, W write) {
    return {shape,
            [member, read](config_read::Walker& walker, const toml::node& node,
                           const std::string& key,
                           S& owner) { return read(walker, node, key, owner.*member); },
            [member, write](const S& owner) {
                return write(owner.*member);
            }};
}

inline toml::array xyzArray(const glm::vec3& v) {
    return toml::array{asWritten(v.x), asWritten(v.y), asWritten(v.z)};
}

template <class S> Custom<S> waypointList() {
    return custom("[[x, y, z], ...]", &S::waypointsCm, config_read::waypoints(),
                  [](const std::vector<glm::vec3>& points) {
                      toml::array out;
                      for (const auto& p : points)
                          out.push_back(xyzArray(p));
                      return out;
                  });
}

} // namespace snowcap::params
