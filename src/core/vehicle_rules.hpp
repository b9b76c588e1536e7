#pragma once
// The rules between a [[vehicle]]'s keys (docs/physics.md): what no single key's range can say.
// One home for them: the config reader checks them where the file and line are known, and the
// physics world checks them again for settings made in code. No GL, no Bullet.

#include "core/settings.hpp"

#include <optional>
#include <string>

namespace snowcap {

// The first rule a vehicle breaks: the key at fault (its last part, e.g. "wheel_radius_cm")
// and the reason, in words; nullopt when it keeps them all.
struct VehicleProblem {
    std::string key;
    std::string reason;
    // "key 'vehicle[INDEX].KEY': REASON", for settings that name no file.
    std::string line(std::size_t index) const {
        return "key 'vehicle[" + std::to_string(index) + "]." + key + "': " + reason;
    }
};
std::optional<VehicleProblem> vehicleProblem(const VehicleSettings& vehicle);

} // namespace snowcap
