#pragma once
// A snowpack sim's state and passes (sim.X.model = "snowpack", docs/snowpack.md): an RGBA32F
// ping-pong pair (depth cm, mass kg/m2, water kg/m2, free), stepped from the shared contact
// capture by four compute passes (shaders/snowpack/):
//     compact (settle + compact)  ->  plough scatter  ->  plough resolve  ->  slump x n
// Reads: the capture depth of the sim's region. Writes: the state. The CPU oracle is
// SnowpackReference (src/snow/snowpack_reference.hpp), which the GL tests compare with.
// RGBA32F by measurement: half floats lose the mass (SnowpackFormat.HalfFloatsCannotHoldTheMass).

#include "core/settings.hpp"
#include "core/snow_math.hpp"
#include "core/snowpack_laws.hpp"
#include "gpu/objects.hpp"
#include "gpu/shader_library.hpp"
#include "snow/snowpack_reference.hpp"
#include "snow/weather_sim.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

std::vector<gpu::ProgramDesc> snowpackPrograms();

class SnowpackSim {
public:
    SnowpackSim() = default;
    // Allocates the state for `region` (reallocating and refilling only when the region, the
    // initial column or the capture geometry changed; other keys apply live). Fails, keeping
    // the previous state, if a shader or an allocation fails.
    std::optional<std::string> configure(const SnowpackSettings& settings, const Region& region,
                                         double captureZCm, double captureFarCm,
                                         gpu::ShaderLibrary& shaders);
    // One step of dt from the capture's depth (the same resolution as the state).
    void step(const gpu::Texture2D& captureDepth, double dtSeconds);
    // Back to the initial column everywhere.
    void reset();

    bool allocated() const { return states_[0].id() != 0; }
    const gpu::Texture2D& state() const { return states_[current_]; }
    const SnowpackConstants& constants() const { return constants_; }
    const SnowpackSettings& settings() const { return settings_; }
    const SnowpackClock& clock() const { return clock_; }
    // The state read back (row 0 first) and its budget; mass_start is the state's after reset.
    std::vector<SnowColumn> readBack() const;
    SnowpackBudget budget() const;
    double massStartKg() const { return massStartKg_; }
    std::size_t bytes() const;
    // The Snowpack uniform block (binding 3) as the last step wrote it; the surface reads the
    // initial column and the densities from it.
    const gpu::Buffer& block() const { return block_; }
    static constexpr GLuint kBlockBinding = 3;

    // ---- the weather hook (snow/weather_sim.hpp, docs/weather.md) ----------------------------
    // The sky's passes run after this sim's step (the weather.X pass record) on its current
    // state, reading the step's contact flags. They touch every texel: where the weather is
    // active every tile of the state is active.
    WeatherSim& weather() { return weather_; }
    const WeatherSim& weather() const { return weather_; }
    const Region& region() const { return region_; }
    const gpu::Buffer& insideFlags() const { return inside_; }

private:
    void writeBlock(float settleDtS);
    void dispatch(const gpu::ShaderProgram& program) const;

    SnowpackSettings settings_;
    SnowpackConstants constants_{};
    SnowpackClock clock_;
    Region region_{};
    double massStartKg_ = 0.0;
    const gpu::ShaderProgram* compact_ = nullptr;
    const gpu::ShaderProgram* scatter_ = nullptr;
    const gpu::ShaderProgram* resolve_ = nullptr;
    const gpu::ShaderProgram* slump_ = nullptr;
    std::array<gpu::Texture2D, 2> states_;
    gpu::Buffer quanta_, inside_, received_;
    gpu::Buffer block_;
    int current_ = 0;
    WeatherSim weather_; // the weather hook: its scratch, totals and clock
};

} // namespace snowcap
