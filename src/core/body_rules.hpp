#pragma once
// The rules between a [[body]]'s keys (docs/physics.md): what no single key's range can say.
// One home for them, as vehicle_rules.hpp is for vehicles: the config reader checks them where
// the file and line are known, and the physics world checks them again for settings made in
// code. No GL, no Bullet.

#include "core/settings.hpp"

#include <optional>
#include <string>

namespace snowcap {

// The first rule a body breaks: the key at fault (its last part, e.g. "mesh") and the reason,
// in words; nullopt when it keeps them all.
struct BodyProblem {
    std::string key;
    std::string reason;
    // "key 'body[INDEX].KEY': REASON", for settings that name no file.
    std::string line(std::size_t index) const {
        return "key 'body[" + std::to_string(index) + "]." + key + "': " + reason;
    }
};
std::optional<BodyProblem> bodyProblem(const BodySettings& body);

} // namespace snowcap
