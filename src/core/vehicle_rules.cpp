#include "core/vehicle_rules.hpp"

#include "core/param_range.hpp"

namespace snowcap {

std::optional<VehicleProblem> vehicleProblem(const VehicleSettings& v) {
    const double diameter = 2.0 * v.wheelRadiusCm, length = 2.0 * double(v.chassisSizeCm.x);
    if (!(v.massKg > 0.0))
        return VehicleProblem{"mass_kg", "must be more than 0, got " + show(v.massKg)};
    if (diameter > length)
        return VehicleProblem{"wheel_radius_cm", "a wheel " + show(diameter) +
                                                     " cm across is larger than the chassis (" +
                                                     show(length) + " cm long, chassis_size_cm)"};
    if (v.wheelWidthCm >= v.trackCm)
        return VehicleProblem{"wheel_width_cm", "wheels " + show(v.wheelWidthCm) +
                                                    " cm wide overlap on a track of " +
                                                    show(v.trackCm) + " cm (track_cm)"};
    if (v.wheelbaseCm < diameter)
        return VehicleProblem{"wheelbase_cm", "front and rear wheels " + show(diameter) +
                                                  " cm across overlap on a wheelbase of " +
                                                  show(v.wheelbaseCm) + " cm"};
    if (v.waypointsCm.size() < 2)
        return VehicleProblem{"waypoints_cm", "needs at least two [x, y, z] points, got " +
                                                  std::to_string(v.waypointsCm.size())};
    return std::nullopt;
}

} // namespace snowcap
