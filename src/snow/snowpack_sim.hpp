#pragma once
// A snowpack sim's state and passes (sim.X.model = "snowpack", docs/snowpack.md): an RGBA32F
// ping-pong pair (depth cm, mass kg/m2, water kg/m2, ground print cm), stepped from the shared
// contact capture by compute passes (shaders/snowpack/) that run only on active tiles of 16 x 16
// texels, listed on the GPU and dispatched indirectly:
//     classify (tiles a contact reaches) -> compact (settle + compact, in place)
//       -> plough scatter -> resolve list -> plough resolve
//       -> [passes over the whole state] -> (slump list -> slump) x n
// Reads: the capture depth of the sim's region. Writes: the state. The CPU oracle is
// SnowpackReference (src/snow/snowpack_reference.hpp), which runs every pass on every texel;
// the tiles skip only texels the full pass would leave as they are, so the two agree texel for
// texel (SnowpackGL.ActiveTilesAreTheFullPasses checks it bit for bit against every tile).
// RGBA32F by measurement: half floats lose the mass (SnowpackFormat.HalfFloatsCannotHoldTheMass).

#include "core/settings.hpp"
#include "core/snow_math.hpp"
#include "core/snowpack_laws.hpp"
#include "gpu/frame_graph.hpp"
#include "gpu/objects.hpp"
#include "gpu/shader_library.hpp"
#include "snow/snowpack_reference.hpp"
#include "snow/snowpack_terrain.hpp"
#include "snow/snowpack_world.hpp"
#include "snow/weather_sim.hpp"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace snowcap {

std::vector<gpu::ProgramDesc> snowpackPrograms();
// The slump over [terrain] (SNOWPACK_TERRAIN): loaded only by a sim over terrain.
gpu::ProgramDesc snowpackTerrainSlumpProgram();

class SnowpackSim {
public:
    SnowpackSim() = default;
    // The terrain under the sim ([terrain]; null or flat: none), for the next configure():
    // another terrain starts the state again. Over terrain the sim keeps its ground's heights
    // (snowpackGroundCm) as an R32F image texel-aligned with the state, that slump reads, and
    // the state starts from initialCover. `windCurvatureCm` is the length scale of the
    // ground's curvature in the wind's weighting (windTerrainTerms, weather.wind_curvature_m):
    // a new one samples the terms again and keeps the state.
    void setTerrain(std::shared_ptr<const HeightField> terrain, double windCurvatureCm = 400.0);
    // The ground's heights (cm, row 0 first) under the region; empty over flat ground.
    const std::vector<float>& groundCm() const { return groundCm_; }
    // The ground's part of the wind's weighting (windTerrainTerms, row 0 first); empty over
    // flat ground.
    const std::vector<WindTerrain>& windTerrain() const { return windTerrainTerms_; }
    // Allocates the state for `region` (reallocating and refilling only when the region, the
    // initial column, the capture geometry or the ground's print bound changed; other keys
    // apply live). `groundPrintMaxCm`: the deepest print the ground under it takes
    // (groundPrintMaxCm of [ground]; 0: none). Fails, keeping the previous state, if a shader
    // or an allocation fails.
    std::optional<std::string> configure(const SnowpackSettings& settings, const Region& region,
                                         double captureZCm, double captureFarCm,
                                         gpu::ShaderLibrary& shaders,
                                         float groundPrintMaxCm = 0.0f);
    // One step of dt from the capture's depth (the same resolution as the state), as passes
    // of `graph` named after `name` (the state's resource, "snowpack.a"): setup (the clock and
    // the block), classify, compact, plough scatter, resolve list, plough resolve, then per
    // slump iteration its list and the slump. Nothing changes until they run.
    void addStepPasses(gpu::FrameGraph& graph, const std::string& name, gpu::TextureId captureDepth,
                       double dtSeconds);
    // The same passes in a graph of their own, run at once.
    void step(const gpu::Texture2D& captureDepth, double dtSeconds);
    // Its resources in `graph` (registered on the first call): the state (the ping-pong pair
    // as one resource, `name`), the Snowpack block, the plough's buffers and the tile lists.
    struct Resources {
        gpu::TextureId state;
        gpu::BufferId block, quanta, inside, received, tileState, tileLists;
        gpu::TextureId ground;      // over terrain only
        gpu::TextureId windTerrain; // over terrain only: RGBA32F, WindTerrain's three and 0
    };
    Resources resources(gpu::FrameGraph& graph, const std::string& name) const;
    // Back to the initial column everywhere.
    void reset();
    // A following window moved by `offset` whole texels (follow_snapped: texel t of the region
    // now holds texel t + offset of the old one) to `centreCm`: the texels both cover are copied
    // bit for bit, what leaves is summed on the GPU into the budget's carried-out mass, and what
    // enters is the undisturbed column (the initial one, settled as an untouched column has
    // been) or, with a world store, what the store kept of it, counted in. The contact flags
    // start again; the next slump runs on every tile.
    void shift(glm::ivec2 offset, glm::dvec2 centreCm);
    // The budget's border terms of a following window (kg; 0 for a fixed region).
    double carriedInKg() const { return carriedInKg_; }
    double carriedOutKg() const; // reads one double back
    // sim.X.persistence = "world" (snow/snowpack_world.hpp, docs/snowpack.md section 6.2):
    // a store on the grid of `configured` (the sim's configured region) keeps what leaves and
    // gives it back, settled, when it enters; nullopt: none (what leaves is forgotten).
    void setWorld(const std::optional<Region>& configured, int storeMib);
    const SnowpackWorld* world() const { return world_.get(); }
    // A weather tick the sky's passes applied to the state (WeatherSim::step): the undisturbed
    // column (and a world store's columns) get it as a column away from every window does
    // (weatherAwayColumn: exposed and flat; under wind it receives what it sends).
    void weathered(const WeatherTick& tick);
    // Of carriedInKg(): what entered as the undisturbed column (not from the store).
    double fromUndisturbedKg() const { return fromUndisturbedKg_; }
    // The column nothing has touched (what an entering texel takes).
    const SnowColumn& undisturbed() const { return undisturbed_; }
    // For a pass that changed texels anywhere in the state (the whole-state passes of step():
    // the weather's snowfall, melt and drift): the next slump iteration runs on every tile.
    void touchAllTiles() { touchAll_ = true; }
    // The half of the ping-pong pair that state() is not: what a whole-state pass may write
    // (every texel) and then make the state with swapHalves(), or use as its scratch. Its
    // contents between passes are undefined. Either way the pass calls touchAllTiles().
    const gpu::Texture2D& otherHalf() const { return states_[1 - current_]; }
    void swapHalves() { current_ = 1 - current_; }
    // Off: every pass runs on every tile (the passes as they were before the tiles; a test and
    // the bench compare the two). On by default.
    void setActiveTiles(bool on) { activeTiles_ = on; }

    bool allocated() const { return states_[0].id() != 0; }
    const gpu::Texture2D& state() const { return states_[current_]; }
    const SnowpackConstants& constants() const { return constants_; }
    // The ground under it takes prints ([ground] kind = "mud"): the surface draws them.
    bool groundTakesPrints() const { return constants_.groundPrintMaxCm > 0.0f; }
    // Whether the last step's ground was frozen (groundFrozenAt, core/ground.hpp: the weather
    // hook's air below 0 C at the step's end): its contacts pressed no print.
    bool groundFrozen() const { return groundFrozen_; }
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

    // The tiles a pass ran on in the last step (read back: for tests and the bench only), and
    // of the lists' last dispatches the most groups in a row (x) and the most rows (y).
    struct TileCounts {
        int compact = 0, resolve = 0, slumpLast = 0, total = 0;
        int widestRow = 0, mostRows = 0;
    };
    TileCounts lastTileCounts() const;
    // A list's dispatch holds at most this many groups a row (0: the driver's
    // GL_MAX_COMPUTE_WORK_GROUP_COUNT, gpu::maxComputeGroups): a test forces a small one to fold
    // the dispatches of a small state into rows.
    void limitDispatchWidth(unsigned groups);
    static constexpr int kTileSize = 16; // shaders/snowpack/snowpack_tiles.glsl
    // ---- the weather hook (snow/weather_sim.hpp, docs/weather.md) ----------------------------
    // The sky's passes run after this sim's step (the weather.X pass record) on its current
    // state, reading the step's contact flags. They touch every texel: where the weather is
    // active every tile of the state is active.
    WeatherSim& weather() { return weather_; }
    const WeatherSim& weather() const { return weather_; }
    const Region& region() const { return region_; }
    const gpu::Buffer& insideFlags() const { return inside_; }

private:
    enum TileList { kCompactList = 0, kResolveList = 1, kSlumpList = 2 };
    void writeBlock(float settleDtS, float settleTemperatureC);
    int tilesPerSide() const { return (region_.resolution + kTileSize - 1) / kTileSize; }
    // The step's CPU part (the setup pass): the clock, the block, the undisturbed column.
    void beginStep(double dtSeconds);
    void clearListCount(TileList list) const;
    void dispatchList(TileList list) const; // the list's tiles, one group each (indirect)
    // addStepPasses' parts (snowpack_sim_passes.cpp): what every tile pass declares, a list's
    // builder, the contact's passes (classify to plough resolve) and the slump iterations.
    void declareTilePass(gpu::PassBuilder& pass, const Resources& r,
                         const gpu::ShaderProgram& program, const std::string& timer) const;
    void addListPass(gpu::FrameGraph& graph, const std::string& pass, const Resources& r,
                     const std::string& timer, const gpu::ShaderProgram& program, TileList list,
                     std::function<bool()> everyTile);
    void addContactPasses(gpu::FrameGraph& graph, const std::string& name, const Resources& r,
                          gpu::TextureId captureDepth, bool settles);
    void addSlumpPasses(gpu::FrameGraph& graph, const std::string& name, const Resources& r,
                        int iterations);
    void writeGroupsPerRow();
    void sampleGround(); // groundCm_ and ground_ for region_ (over terrain)

    SnowpackSettings settings_;
    SnowpackConstants constants_{};
    SnowpackClock clock_;
    Region region_{};
    double massStartKg_ = 0.0;
    const gpu::ShaderProgram* classify_ = nullptr;
    const gpu::ShaderProgram* compact_ = nullptr;
    const gpu::ShaderProgram* scatter_ = nullptr;
    const gpu::ShaderProgram* resolveTiles_ = nullptr;
    const gpu::ShaderProgram* resolve_ = nullptr;
    const gpu::ShaderProgram* slumpTiles_ = nullptr;
    const gpu::ShaderProgram* slump_ = nullptr;
    const gpu::ShaderProgram* carryOut_ = nullptr;
    const gpu::ShaderProgram* slumpTerrain_ = nullptr; // over terrain: slump's variant
    std::shared_ptr<const HeightField> terrain_;       // null: flat
    std::vector<float> groundCm_;                      // the ground under the region (cm)
    gpu::Texture2D ground_;                            // the same, R32F, over terrain only
    double windCurvatureCm_ = 400.0;
    std::vector<WindTerrain> windTerrainTerms_; // the wind's terms of the ground under the region
    gpu::Texture2D windTerrain_;                // the same, RGBA32F, over terrain only
    std::array<gpu::Texture2D, 2> states_;
    gpu::Buffer quanta_, inside_, received_;
    // Per tile: its state bits; the three lists with their indirect dispatch commands.
    gpu::Buffer tileState_, tileLists_;
    gpu::Buffer block_;
    gpu::Buffer carriedOut_; // one double: kg/m2 summed over what left
    double carriedInKg_ = 0.0;
    double fromUndisturbedKg_ = 0.0;
    std::unique_ptr<SnowpackWorld> world_; // persistence = "world"; null otherwise
    SnowColumn undisturbed_{};
    int current_ = 0;
    // The slump iterations' "touched" bits take turns (shaders/snowpack/snowpack_tiles.glsl).
    GLuint touchedIn_ = 8u, touchedOut_ = 16u;
    bool touchAll_ = false;
    bool activeTiles_ = true;
    unsigned dispatchWidth_ = 0; // limitDispatchWidth
    bool groundFrozen_ = false;
    WeatherSim weather_; // the weather hook: its scratch, totals and clock
};

} // namespace snowcap
