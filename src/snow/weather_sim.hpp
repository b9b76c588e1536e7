#pragma once
// The weather's passes on one snowpack sim ([weather], docs/weather.md): per tick of the
// weather clock (core/weather_laws.hpp), compute passes (shaders/weather/):
//     snowfall + melt + drain (state -> the other half)  ->  drift flux  ->  drift apply (-> state)
// or, when no wind blows, the first alone, and the snowpack's halves swap (nothing is copied).
// Reads: the snowpack's state, its contact flags of the step (inside[]) and its Snowpack block.
// Writes: the snowpack's pair of state textures (SnowpackSim::otherHalf, the scratch between
// the passes), the budget's in and out as 64-bit counts of quanta on the GPU (read back
// only when asked), and what drifted per texel (driftRecord[], arrived minus sent since the
// start: 4 bytes a texel, one more load and store a texel in the apply pass).
// The CPU oracle is WeatherReference (src/snow/weather_reference.hpp).

#include "core/settings.hpp"
#include "core/weather_laws.hpp"
#include "gpu/objects.hpp"
#include "gpu/shader_library.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

class SnowpackSim; // snow/snowpack_sim.hpp

std::vector<gpu::ProgramDesc> weatherPrograms();

class WeatherSim {
public:
    // Allocates its buffers for a `size`-texel region when the sky ever acts
    // (weatherActive), frees them when it does not. Live edits keep the clock and the totals.
    std::optional<std::string> configure(const WeatherSettings& weather,
                                         const SnowpackSettings& snowpack, const WindSettings& wind,
                                         glm::vec3 sunDirection, int size, double texelCm,
                                         gpu::ShaderLibrary& shaders);
    bool active() const { return totals_.id() != 0; }
    // The ticks that fall in this step of dt, on the snowpack's state as its passes left it.
    void step(SnowpackSim& snowpack, double dtSeconds);
    // The clock back to 0 and the totals cleared (with the snowpack's reset).
    void reset();
    double massInKg() const;
    double massOutKg() const;
    std::size_t bytes() const;
    // What drifted, per texel since the start or reset (docs/weather.md, §2): quanta of
    // kWeatherQuantum kg/m2 arrived minus sent (positive: deposit, negative: erosion), rows
    // bottom first; empty without a sky. Read back from the GPU.
    std::vector<std::int32_t> readDriftRecord() const;
    // The same in kg/m2 as an R32F texture for a view, brought up to date when a drift has run
    // since the last call (one small compute pass); null without a sky.
    const gpu::Texture2D* driftRecordKgM2(const SnowpackSim& snowpack);
    const WeatherClock& clock() const { return clock_; }

private:
    void writeBlock(const WeatherTick& tick, glm::vec2 originCm);

    WeatherSettings weather_;
    SnowpackSettings snowpack_;
    WindSettings wind_;
    glm::vec3 sunDirection_{0.0f, 0.0f, 1.0f};
    WeatherClock clock_;
    double texelCm_ = 1.0;
    int size_ = 0;
    const gpu::ShaderProgram* snowfallMelt_ = nullptr;
    const gpu::ShaderProgram* driftFlux_ = nullptr;
    const gpu::ShaderProgram* driftApply_ = nullptr;
    const gpu::ShaderProgram* recordViewProgram_ = nullptr;
    gpu::Buffer flux_, totals_, block_, record_;
    gpu::Texture2D recordView_;
    bool recordViewStale_ = true;
};

} // namespace snowcap
