#pragma once
// The CPU oracle of the snowpack passes (shaders/snowpack/*.comp): the same float operations in
// the same order on plain arrays, from the laws in core/snowpack_laws.hpp. A step is
//     settle + compact (per texel) -> plough scatter (integer quanta to the nearest texel
//     outside the contact) -> plough resolve -> slump x the clock's iterations.
// The GL tests compare the driver's state with it; the law tests (mass, rims, frame rate) run
// on it alone. Also the budget of a state (stats.json sims.X.snowpack), read back or not.

#include "core/snowpack_laws.hpp"

#include <cstdint>
#include <glm/vec2.hpp>
#include <span>
#include <vector>

namespace snowcap {

// Row-major size x size columns (row 0 first, as the textures are read back).
struct SnowpackGrid {
    int size = 0;
    std::vector<SnowColumn> columns;

    static SnowpackGrid uniform(int size, const SnowpackConstants& c);
    SnowColumn& at(int x, int y) { return columns[static_cast<std::size_t>(y) * size + x]; }
    const SnowColumn& at(int x, int y) const {
        return columns[static_cast<std::size_t>(y) * size + x];
    }
};

// The nearest texel outside the contact (inside[t] == 0) within `reach` texels of (x, y), by
// squared distance, scanning square rings outwards, each row by row, first found winning a tie;
// -1 if there is none. The shader scans in the same order.
int nearestOutside(std::span<const std::uint8_t> inside, int size, int x, int y, int reach);

// A following window's move by whole texels (follow_snapped; SnowpackSim::shift): texel t of
// the moved grid holds texel t + offset of the old one, bit for bit, and a texel with no old one
// takes `entering`. Returns the mass the old texels that left held (kg/m2, snow and water),
// summed in double.
double shiftGrid(SnowpackGrid& grid, glm::ivec2 offset, const SnowColumn& entering);

// What one step did, for the tests and the budget.
struct SnowpackStepReport {
    std::uint64_t ploughedQuanta = 0; // sum of every texel's quanta
    int insideTexels = 0;
};

class SnowpackReference {
public:
    // `groundPrintMaxCm`: the deepest print the ground takes (0: none), as SnowpackSim's.
    SnowpackReference(int size, const SnowpackSettings& settings, double captureZCm,
                      double captureFarCm, double texelCm, float groundPrintMaxCm = 0.0f);

    // One step of dt: `windowDepth` is the capture (size x size, 1 = nothing); the clock says
    // how many slump iterations and settling ticks fall in it.
    SnowpackStepReport step(std::span<const float> windowDepth, double dtS);
    // Whether the ground is frozen for the steps from now (groundFrozenAt of the sky at the
    // step's end, core/ground.hpp): a contact does not press it. Off at the start; only a
    // ground that takes prints freezes.
    void setGroundFrozen(bool frozen) { groundFrozen_ = frozen; }
    // The sky the snow settles under (settleClimate, core/weather_laws.hpp): its clock and air
    // temperature once given; the table's defaults (no sky) keep the snowpack's own.
    void setWeather(const WeatherSettings& weather) { weather_ = weather; }
    bool groundFrozen() const { return groundFrozen_; }
    // The terrain under the region (snowpackGroundCm: size x size heights in cm, row 0 first;
    // empty: flat): slump compares the snow's tops over it, and the grid starts again from
    // initialCover (following the slopes where sim.X.snowpack.cover_follows_slope is on).
    void setGround(std::vector<float> groundCm);
    std::span<const float> ground() const { return ground_; }
    // The passes one by one (what step() runs), for the GL tests.
    void settleAndCompact(std::span<const float> windowDepth, int settleTicks);
    void plough();
    void slump();
    // The window moved by `offset` whole texels (shiftGrid with the undisturbed column); the
    // contact flags start again, as on the GPU. Returns the mass that left (kg/m2, summed).
    double shift(glm::ivec2 offset);
    // The column nothing has touched: the initial one, settled on every settling tick.
    const SnowColumn& undisturbed() const { return undisturbed_; }

    const SnowpackGrid& grid() const { return grid_; }
    SnowpackGrid& grid() { return grid_; }
    const SnowpackConstants& constants() const { return constants_; }
    std::span<const std::uint8_t> inside() const { return inside_; }
    std::span<const std::uint32_t> quanta() const { return quanta_; }
    const SnowpackClock& clock() const { return clock_; }

private:
    SnowpackSettings settings_;
    SnowpackConstants constants_;
    SnowpackClock clock_;
    SnowpackGrid grid_;
    SnowColumn undisturbed_;
    std::vector<std::uint8_t> inside_;
    std::vector<std::uint32_t> quanta_;   // each texel's ploughed quanta this step
    std::vector<std::uint32_t> received_; // the scatter's sums
    std::vector<float> ground_;           // the terrain's heights (cm); empty: flat
    bool groundFrozen_ = false;
    WeatherSettings weather_;
};

// stats.json sims.X.snowpack, from a state (mass in kg over the region).
struct SnowpackBudget {
    double massKg = 0.0;
    double meanDepthCm = 0.0;
    double minDepthCm = 0.0;
    double maxDepthCm = 0.0;
    double maxDensityKgM3 = 0.0;
    double compactedFraction = 0.0; // texels denser than the initial density by over 1 %
};
SnowpackBudget snowpackBudget(std::span<const SnowColumn> columns, double texelCm,
                              double initialDensityKgM3);
// From RGBA floats as read back from the state texture.
std::vector<SnowColumn> columnsFromRgba(std::span<const float> rgba);

} // namespace snowcap
