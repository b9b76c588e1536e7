#pragma once
// The snowpack's laws (docs/snowpack.md): one column of snow per texel, depth (cm) x density
// (kg/m3) = mass (kg/m2 x 100). Plain functions on floats, used by the CPU reference
// (src/snow/snowpack_reference.cpp), the tests and, mirrored operation for operation, the
// shaders under shaders/snowpack/. The sources of every constant are cited by title in
// docs/sources.md; the lab's simplifications are stated where they are made.

#include "core/settings.hpp"

#include <cstdint>

namespace snowcap {

// One texel of a snowpack sim's state, in the order of its RGBA32F texture: depth above the
// ground (cm), mass (kg/m2), liquid water (kg/m2; zero until something melts) and the depth of
// the ground's print under the column (cm below ground level, >= 0; 0 unless the ground takes
// prints, [ground] kind = "mud": the column's base is then -groundPrintCm). The mass is stored, not
// the density: compaction and settling then change the depth alone and every other law moves mass
// by explicit sums, so no law re-derives a mass from depth x density (two roundings each time). The
// outputs (sim_X.exr, .pfm) carry the density, mass / depth.
struct SnowColumn {
    float depthCm = 0.0f;
    float massKgM2 = 0.0f;
    float waterKgM2 = 0.0f;
    float groundPrintCm = 0.0f;
};

// The column's surface above the undisturbed ground (cm): its depth, standing on the bottom of
// the ground's print. The laws that look at the surface's slope (slump, the sun's normal, the
// wind's terrain) compare these, not depths: snow filling a print level with the snow around
// it lies flat, and the bare rim of a print is ground, not snow. Without a print it is the
// depth itself (d - 0 is d, bit for bit).
inline float surfaceTopCm(const SnowColumn& c) {
    return c.depthCm - c.groundPrintCm;
}

// kg/m2 of a column of `depthCm` at `density`: depth (cm -> m) x density.
inline float columnMass(float depthCm, float densityKgM3) {
    return depthCm * 0.01f * densityKgM3;
}
inline float columnMass(const SnowColumn& c) {
    return c.massKgM2;
}

// Ploughed mass travels between passes as an integer number of these (kg/m2): the scatter adds
// with integer atomics, so the sum does not depend on the order texels arrive in, and the CPU
// reference gets the GPU's sums exactly. 2^-18 kg/m2 = 3.8 mg per m2; one texel can receive up
// to 2^32 of them a step (16384 kg/m2, a 450-texel-wide box pressed through 30 cm of snow).
constexpr float kPloughQuantum = 1.0f / 262144.0f;
constexpr float kPloughQuanta = 262144.0f;
// Below this depth (cm) a column has no density of its own: what lands on it takes the
// initial density.
constexpr float kBareDepthCm = 1.0e-3f;
// kg/m3: mass / depth; 0 for a bare column.
inline float densityOf(const SnowColumn& c) {
    return c.depthCm >= kBareDepthCm ? c.massKgM2 / (0.01f * c.depthCm) : 0.0f;
}
// A contact this close above the snow top (cm) rests on it: slump does not flow in under it.
constexpr float kContactSlackCm = 0.05f;
// Slump moves this fraction of a slope's excess over the angle of repose per iteration. At
// most 1/4 keeps every slope within the range of its neighbours' (a maximum principle), so
// slump never makes the steepest slope steeper, and a texel never gives more than it holds.
constexpr float kSlumpFraction = 0.2f;
// The fresh-snow end of the angle-of-repose interpolation (kg/m3).
constexpr float kReposeFreshDensity = 100.0f;

// What the passes need of sim.X.snowpack, as floats, for one region.
struct SnowpackConstants {
    float initialDepthCm = 30.0f;
    float initialDensity = 120.0f;
    float maxDensity = 450.0f;
    float reposeFreshDeg = 50.0f;
    float reposeDenseDeg = 39.0f;
    float texelCm = 1.0f;
    int ploughReachTexels = 32;
    // The capture: contact height above the ground = cameraAboveGround + window depth x far.
    float captureFarCm = 2000.0f;
    float cameraAboveGroundCm = -70.0f; // capture_z_cm + depth_cm
    // The deepest print the ground takes (cm below ground level; groundPrintMaxCm of [ground]):
    // 0, the ground takes none and every law is what it was before ground prints.
    float groundPrintMaxCm = 0.0f;
};
SnowpackConstants snowpackConstants(const SnowpackSettings& snowpack, double captureZCm,
                                    double captureFarCm, double texelCm);
// The column every texel starts with (and a following window's entering texels, settled).
inline SnowColumn initialColumn(const SnowpackConstants& c) {
    return {c.initialDepthCm, columnMass(c.initialDepthCm, c.initialDensity), 0.0f, 0.0f};
}

// ---- compaction ---------------------------------------------------------------------------
// How high above the ground the deepest deformer reaches at a texel; the capture's window
// depth 1.0 (or anything not finite) is "nothing there".
float contactHeightCm(float windowDepth, const SnowpackConstants& c);

// The ground's print at a texel after a contact `contactCm` above ground level (below 0: into
// the ground) pressed it: as deep as the contact reaches, at most `maxCm`, never shallower than
// it was (the mud does not recover). `maxCm` 0: no print.
float pressedGroundPrintCm(float printCm, float contactCm, float maxCm);

// A contact whose bottom is below the snow top compresses the column to it: mass is kept and
// density rises, up to maxDensity. What cannot be held at maxDensity is `ploughQuanta` quanta
// of kPloughQuantum kg/m2, for the plough pass to move; the column keeps exactly the rest (a
// residue below one quantum stays as a sliver of depth). The deformer is kinematic: it goes
// where its animation puts it and the snow yields (no bearing strength stops it).
// Where the ground takes prints (c.groundPrintMaxCm > 0) the contact first presses the print
// (pressedGroundPrintCm), and the column stands on the print's bottom: the snow's top is
// depth - print above ground level, and the contact compresses the snow to contact + print
// above that base. A contact below the ground ploughs all of the column's snow away (its
// capacity there is 0), so the mud is pressed bare.
struct Compaction {
    SnowColumn column;
    std::uint32_t ploughQuanta = 0;
    bool inside = false; // the contact reaches below the snow top here
};
Compaction compactColumn(const SnowColumn& column, float contactHeightCm,
                         const SnowpackConstants& c);

// The final density (kg/m3) snow compacts to under a maximum contact pressure of `kPa`: the table
// of *Shallow snow sinkage (CRREL 95-7)*, 500 up to 210 kPa, 550 above 210, 600 above 350, 650
// above 700. What max_density_kg_m3 should be for a deformer of that contact pressure.
float finalDensityForPressure(float contactPressureKPa);

// ---- ploughing ----------------------------------------------------------------------------
// `mass` kg/m2 of ploughed snow landing on a column: at the column's density, or at the
// initial density where the column is bare. Mass adds exactly; depth follows.
SnowColumn depositOnto(const SnowColumn& column, float massKgM2, const SnowpackConstants& c);

// A column of `depth` holding `mass`; where rounding (two columns of nearly maxDensity mixing)
// would take its density past maxDensity, the depth is what the mass takes at maxDensity.
SnowColumn withMass(const SnowColumn& column, float depthCm, float massKgM2,
                    const SnowpackConstants& c);

// ---- slump --------------------------------------------------------------------------------
// tan(angle of repose) for snow of `density`: repose_fresh_deg at 100 kg/m3 and below,
// repose_dense_deg at maxDensity and above, linear in between.
float reposeTan(float densityKgM3, const SnowpackConstants& c);
// The depth (cm) that moves from the higher of two neighbouring columns to the lower in one
// iteration: a fifth of their surfaces' step (surfaceTopCm) past the angle of repose of the
// higher one's density, and at most a fifth of the snow the higher one holds (over a print's
// rim the step can be mud; at most four fifths of a column leave it an iteration). The same
// function of the same two columns on both sides, so what one loses the other gains.
// `reposeStepHigh` is reposeTan(density of the higher) x texelCm: the step it holds. Without
// prints the cap never binds (the step is at most the higher depth), so it is the depth's law.
float slumpFlowCm(float topHigh, float reposeStepHigh, float topLow, float depthHigh);
float reposeStepCm(float densityKgM3, const SnowpackConstants& c);

// ---- the ground's slopes ([terrain], src/snow/snowpack_terrain.hpp) ------------------------
// Over terrain slump compares the snow's tops, the ground's height plus surfaceTopCm, so that
// snow on ground steeper than its angle of repose (measured from the horizontal) slides down
// at any depth. Flat ground (0 everywhere) is the law above: 0 + t is t, bit for bit.
inline float snowTopCm(float groundCm, const SnowColumn& c) {
    return groundCm + surfaceTopCm(c);
}
// The snow holding depth of *SnowSlide: a simple routine for calculating gravitational snow
// transport* (Bernhardt and Schulz 2010): the most snow (m, vertical) a slope of S degrees
// keeps, 3178.4 x S^-1.998; 3.6 m at 30 deg, 1.6 m at 45, 0.89 m at 60 (times cos S, the
// thickness normal to the slope: 3.08, 1.11 and 0.45 m). Unbounded on the flat.
float snowHoldingDepthCm(float slopeDeg);
// The initial depth of a texel whose ground rises at `slopeTan` (its steepest: the gradient or
// a step to a neighbour, whichever is steeper): `depthOnFlatCm`, at most the holding depth of
// the slope, and 0 where the slope is steeper than `reposeTan` (the snow would slide).
float coverDepthCm(float depthOnFlatCm, float slopeTan, float reposeTan);

// ---- settling (Anderson 1976, as in SNTHERM and the CLM snow hydrology) ----------------------
// The compaction rate of a column (1/s): destructive metamorphism
//     c1 exp(-c2 (T0 - T)) exp(-c3 max(0, rho - 150))
// plus overburden  P / eta,  eta = eta0 exp(c4 (T0 - T)) exp(c5 rho),  P = g x half the column
// mass (the load on its mid-height). Constants: c1 2.8e-6 1/s, c2 0.042 1/K, c3 0.046 m3/kg,
// c4 0.081 1/K, c5 0.018 m3/kg, eta0 6.051e7 kg s/m2 (the HS2SWE fit of Anderson's law).
// In floats, the operations of shaders/snowpack/compact.comp.
float settlingRatePerS(float densityKgM3, float massKgM2, float temperatureC);
// One settling tick of `dtS` (settle_interval_s x settle_time_scale): density grows by
// exp(rate x dt) - 1 (to second order: x + x^2 / 2), at most to maxDensity; the depth is what
// the mass (unchanged) takes at that density.
SnowColumn settleColumn(const SnowColumn& column, float dtS, float temperatureC,
                        const SnowpackConstants& c);

// ---- the clock ----------------------------------------------------------------------------
// What one step of dt runs: slump iterations and settling ticks fall on fixed instants of
// simulated time (slump_rate_hz, settle_interval_s), so any frame rate runs the same ones.
struct SnowpackStep {
    int slumpIterations = 0;
    int settleTicks = 0;
};
class SnowpackClock {
public:
    explicit SnowpackClock(const SnowpackSettings& settings = {}) : settings_(settings) {}
    SnowpackStep advance(double dtS);
    double timeS() const { return timeS_; }
    void reset() { timeS_ = 0.0; }

private:
    SnowpackSettings settings_;
    double timeS_ = 0.0;
};

} // namespace snowcap
