#include "core/config_scene.hpp"

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

} // namespace

Read<std::vector<DeformerSettings>> deformerListReader() {
    using D = DeformerSettings;
    constexpr auto required = Presence::Required;
    return listOf(table<D>({
        field("name", &D::name, exactly<std::string>("a string"), required),
        field("shape", &D::shape, choice(kDeformerShapes)),
        field("size_cm", &D::sizeCm, vec3(positive())),
        field("path", &D::path, keyframes(), required),
        field("mesh", &D::mesh, exactly<std::string>("a string")),
        field("fit_height_cm", &D::fitHeightCm, number(nonNegative())),
        field("rotation_deg", &D::rotationDeg, vec3(anyNumber())),
        field("clip", &D::clip, exactly<std::string>("a string")),
        field("clip_speed", &D::clipSpeed, number(between(0.0, 100.0))),
        field("face_path", &D::facePath, exactly<bool>("a boolean")),
        field("contact", &D::contact, choice(kContactTypes)),
    }));
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
