#pragma once
// The weather's passes on one snowpack sim ([weather], docs/weather.md §4): per tick of the
// weather clock (core/weather_laws.hpp), fullscreen fragment passes drawn over the region
// (shaders/weather/), then one small compute pass summing the budget:
//     snowfall + melt + drain (state -> other half, crossed)  ->  drift flux (-> flux)  ->
//     drift apply (-> state, drift record)  ->  totals (crossed, the flux at the border)
// or, when no wind blows, the first and the totals alone, and the snowpack's halves swap
// (nothing is copied).
// Reads: the snowpack's state, its contact flags of the step (inside[]) and its Snowpack block.
// Writes: the snowpack's pair of state textures (SnowpackSim::otherHalf, the scratch between
// the passes), its own per-texel textures (crossed and the flux, RG32UI: what a tick counted
// and sent; the drift record, an R32I ping-pong pair: arrived minus sent since the start), and
// the budget's in and out as 64-bit counts of quanta on the GPU (read back only when asked).
// Every pass writes its texels as colour: on llvmpipe a fragment's colour write costs a
// quarter of a compute imageStore, and no per-texel pass has an atomic or a barrier.
// The CPU oracle is WeatherReference (src/snow/weather_reference.hpp).

#include "core/settings.hpp"
#include "core/weather_laws.hpp"
#include "gpu/frame_graph.hpp"
#include "gpu/objects.hpp"
#include "gpu/shader_library.hpp"

#include <array>
#include <cstdint>
#include <initializer_list>
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
    // The ticks that fall in this step of dt, on the snowpack's state as its passes left it,
    // as passes of `graph` named after `name` ("weather.a"; the snowpack's resources are
    // `snowpackName`'s): per tick its block, snowfall + melt, drift flux and apply (they draw
    // only on a tick with wind) and the totals. Nothing changes until they run.
    void addPasses(gpu::FrameGraph& graph, SnowpackSim& snowpack, const std::string& name,
                   const std::string& snowpackName, double dtSeconds);
    // The same passes in a graph of their own, run at once.
    void step(SnowpackSim& snowpack, double dtSeconds);
    // A sky that does not act runs no pass (no weather.X in the frame), but a given one's clock
    // still runs: its air freezes mud (core/ground.hpp). SnowpackSim::step calls it each step.
    void idle(double dtSeconds);
    // The clock back to 0 and the totals cleared (with the snowpack's reset).
    void reset();
    // A following window moved by `offset` whole texels (SnowpackSim::shift): the drift record
    // moves with the snow; the texels that enter start with none.
    void shift(glm::ivec2 offset);
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
    // The settings configure() was given, active or not.
    void remember(const WeatherSettings& weather, const SnowpackSettings& snowpack,
                  const WindSettings& wind, glm::vec3 sunDirection, double texelCm);
    void writeBlock(const WeatherTick& tick, glm::vec2 originCm);
    // A fullscreen draw of `program` into these textures (colour attachments 0, 1).
    void draw(const gpu::ShaderProgram& program, std::initializer_list<GLuint> colour);
    // One tick's passes of addPasses: its block, snowfall + melt,
    // drift flux and apply, totals.
    struct StepResources;
    void addTickPasses(gpu::FrameGraph& graph, SnowpackSim& snowpack, const StepResources& step,
                       std::size_t tick);

    WeatherSettings weather_;
    SnowpackSettings snowpack_;
    WindSettings wind_;
    glm::vec3 sunDirection_{0.0f, 0.0f, 1.0f};
    WeatherClock clock_;
    double texelCm_ = 1.0;
    int size_ = 0;
    // The snowfall + melt pass per sky: bit 0 snowfall, 1 melt, 2 the sun's melt (with 1).
    std::array<const gpu::ShaderProgram*, 8> snowfallMelt_{};
    // The sunny skies' programs over [terrain] (TERRAIN): the normal of the snow's tops on the
    // ground's heights (the snowpack's ground image).
    std::array<const gpu::ShaderProgram*, 8> snowfallMeltTerrain_{};
    // The drift flux: [0] snow's threshold, [1] the substance's own.
    std::array<const gpu::ShaderProgram*, 2> driftFlux_{};
    // The same over [terrain] (TERRAIN): the ground's slope and curvature weigh the wind too.
    std::array<const gpu::ShaderProgram*, 2> driftFluxTerrain_{};
    const gpu::ShaderProgram* driftApply_ = nullptr;
    const gpu::ShaderProgram* totalsProgram_ = nullptr;
    const gpu::ShaderProgram* recordViewProgram_ = nullptr;
    using TextureName = gpu::UniqueName<gpu::ObjectKind::Texture>;
    TextureName crossed_, flux_;        // RG32UI
    std::array<TextureName, 2> record_; // R32I: the record, and the half the next drift writes
    int record0_ = 0;                   // which of record_ is the record
    gpu::UniqueName<gpu::ObjectKind::Framebuffer> target_; // re-attached for each pass
    gpu::VertexArray emptyArray_;
    gpu::Buffer totals_, block_;
    gpu::Texture2D recordView_;
    bool recordViewStale_ = true;
};

} // namespace snowcap
