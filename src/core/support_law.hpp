#pragma once
// What holds the physics world's bodies and vehicles up (docs/physics.md, section 2): the
// ground under the snow, or a snowpack sim's bearing surface (physics.support_sim). No GL, no
// Bullet: the plan the physics world builds from and the law it applies to each column.

#include "core/settings.hpp"
#include "core/snow_math.hpp"

#include <string>
#include <variant>

namespace snowcap {

// The bearing law: the height above the ground (cm) at which a column of snow bears a load.
// A column of mass M (kg/m2) is compacted to the final density rho_f where a load rests on it,
// so it bears at M / rho_f above the ground: fresh snow of depth h and density rho0 lets a load
// sink by h (1 - rho0 / rho_f), the shallow-snow sinkage of *Shallow snow sinkage (CRREL
// 95-7)*, and snow already packed to rho_f lets it sink no further. rho_f is the sim's
// max_density_kg_m3, the density its compaction packs a contact to (docs/snowpack.md). Never
// above the column's own top.
inline float bearingHeightCm(float depthCm, float massKgM2, float finalDensityKgM3) {
    const float packedCm = 100.0f * massKgM2 / finalDensityKgM3;
    return packedCm < depthCm ? packedCm : depthCm;
}

// The support's surface stands this far above the bearing height (cm): Bullet leaves a resting
// body a fraction of a millimetre inside what it rests on, and the capture's depth rounds by
// up to one of its quanta (0.004 cm in D16 over 250 cm); without the lift, each snow step would
// compact the column under a resting body a little below rho_f, plough the rest away, lower
// the bearing height, and the body would creep down to the ground. A lab choice, 1 mm.
constexpr float kSupportLiftCm = 0.1f;

// What the physics world stands on.
struct SupportPlan {
    int sim = -1;             // the snowpack sim that holds the bodies up; -1: the ground plane
    double groundZCm = 0.0;   // the plane under the snow: surface_z_cm - (the sim's) depth_cm
    double snowDepthCm = 0.0; // the snow over it (the drag's depth limit)
    Region region{};          // the sim's region (fixed: a snowpack does not follow)
    double finalDensityKgM3 = 0.0;  // rho_f: the sim's max_density_kg_m3
    double initialBearingZCm = 0.0; // the bearing surface of the untouched snow (world z)
    // The support's name in stats.json: "ground" or "sim.b".
    std::string name() const;
    // Where a vehicle's wheels stand at its start (and a body may not start below).
    double startZCm() const { return sim < 0 ? groundZCm : initialBearingZCm; }
};

// physics.support_sim resolved against the sims: "" the first snowpack sim (else the ground),
// "ground" the ground, a letter that sim (a decay sim: the ground, as its mask has no mass).
// A value naming no sim of the settings is one line naming the key.
std::variant<SupportPlan, std::string> supportPlan(const Settings& settings);

} // namespace snowcap
