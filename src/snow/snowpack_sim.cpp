#include "snow/snowpack_sim.hpp"

#include "core/ground.hpp"
#include "core/weather_laws.hpp"
#include "gpu/binding_slots.hpp"
#include "terrain/height_field.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <fmt/format.h>
#include <glm/common.hpp>
#include <glm/vec4.hpp>

namespace snowcap {

namespace {

// std140 mirror of the Snowpack block in shaders/snowpack/snowpack_block.glsl: four vec4s,
// each member named for what it holds (the GLSL reads them as sp.capture.x ...).
struct SnowpackBlock {
    // vec4 capture
    float captureFarCm, cameraAboveGroundCm, texelCm, sizeTexels;
    // vec4 density
    float initialDensity, maxDensity, reposeFreshDeg, reposeDenseDeg;
    // vec4 settle
    float settleDtS, temperatureC, ploughReachTexels, initialDepthCm;
    // vec4 ground
    float groundPrintMaxCm, groundFrozen, groundUnused0, groundUnused1;
};
static_assert(sizeof(SnowpackBlock) == 64,
              "std140 drift: see shaders/snowpack/snowpack_block.glsl");
static_assert(offsetof(SnowpackBlock, initialDensity) == 16 &&
                  offsetof(SnowpackBlock, settleDtS) == 32 &&
                  offsetof(SnowpackBlock, groundPrintMaxCm) == 48,
              "std140 drift: each vec4 of the Snowpack block starts on 16 bytes");
// One indirect dispatch command a list (x, y, z and the tiles listed: a uvec4 in std430), then
// groupsPerRow, then the lists (shaders/snowpack/snowpack_tiles.glsl).
constexpr std::size_t kCommandBytes = 4 * sizeof(GLuint);
constexpr int kListCount = 3;
constexpr std::size_t kGroupsPerRowOffset = kListCount * kCommandBytes;
constexpr std::size_t kListsHeaderWords = kListCount * 4 + 1;
} // namespace

std::vector<gpu::ProgramDesc> snowpackPrograms() {
    using gpu::computeProgram;
    return {computeProgram("snowpack.classify", "snowpack/classify.comp"),
            computeProgram("snowpack.compact", "snowpack/compact.comp"),
            computeProgram("snowpack.plough_scatter", "snowpack/plough_scatter.comp"),
            computeProgram("snowpack.resolve_tiles", "snowpack/resolve_tiles.comp"),
            computeProgram("snowpack.plough_resolve", "snowpack/plough_resolve.comp"),
            computeProgram("snowpack.slump_tiles", "snowpack/slump_tiles.comp"),
            computeProgram("snowpack.slump", "snowpack/slump.comp"),
            computeProgram("snowpack.carry_out", "snowpack/carry_out.comp")};
}

gpu::ProgramDesc snowpackTerrainSlumpProgram() {
    return gpu::computeProgram("snowpack.slump.terrain", "snowpack/slump.comp",
                               {{"SNOWPACK_TERRAIN", "1"}});
}

void SnowpackSim::setTerrain(std::shared_ptr<const HeightField> terrain, double windCurvatureCm) {
    if (terrain && terrain->flat())
        terrain.reset();
    if (terrain == terrain_) {
        if (windCurvatureCm != windCurvatureCm_) {
            windCurvatureCm_ = windCurvatureCm;
            if (terrain_ && ground_.id())
                sampleGround(); // the same heights, the wind's terms again
        }
        return;
    }
    windCurvatureCm_ = windCurvatureCm;
    terrain_ = std::move(terrain);
    states_ = {}; // the next configure() starts the state again on the new ground
}

void SnowpackSim::sampleGround() {
    if (!terrain_) {
        groundCm_.clear();
        ground_ = gpu::Texture2D();
        windTerrainTerms_.clear();
        windTerrain_ = gpu::Texture2D();
        return;
    }
    groundCm_ = snowpackGroundCm(*terrain_, region_);
    const int n = region_.resolution;
    if (ground_.width() != n)
        ground_ = gpu::Texture2D(n, n, gpu::TextureFormat::R32F, "snowpack.ground");
    ground_.upload(groundCm_);
    windTerrainTerms_ = windTerrainTerms(*terrain_, region_, windCurvatureCm_);
    if (windTerrain_.width() != n)
        windTerrain_ = gpu::Texture2D(n, n, gpu::TextureFormat::RGBA32F, "snowpack.wind_terrain");
    std::vector<float> texels;
    texels.reserve(windTerrainTerms_.size() * 4);
    for (const WindTerrain& terms : windTerrainTerms_)
        texels.insert(texels.end(), {terms.slopeX, terms.slopeY, terms.curvature, 0.0f});
    windTerrain_.upload(texels);
}

std::optional<std::string> SnowpackSim::configure(const SnowpackSettings& settings,
                                                  const Region& region, double captureZCm,
                                                  double captureFarCm, gpu::ShaderLibrary& shaders,
                                                  float groundPrintMaxCm) {
    auto loaded = shaders.loadAll(snowpackPrograms());
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    const auto& programs = std::get<std::vector<gpu::ShaderProgram*>>(loaded);
    const gpu::ShaderProgram* slumpTerrain = nullptr;
    if (terrain_) {
        auto variant = shaders.load(snowpackTerrainSlumpProgram());
        if (auto* error = std::get_if<std::string>(&variant))
            return *error;
        slumpTerrain = std::get<gpu::ShaderProgram*>(variant);
    }
    SnowpackConstants constants =
        snowpackConstants(settings, captureZCm, captureFarCm, region.texelCm());
    constants.groundPrintMaxCm = std::max(groundPrintMaxCm, 0.0f);
    // Another ground (or another bound on its prints) starts the state again: prints in the
    // old ground are not the new one's.
    const bool refill = !allocated() || region.resolution != region_.resolution ||
                        constants.groundPrintMaxCm != constants_.groundPrintMaxCm ||
                        region.widthCm != region_.widthCm ||
                        constants.initialDepthCm != constants_.initialDepthCm ||
                        constants.initialDensity != constants_.initialDensity ||
                        constants.cameraAboveGroundCm != constants_.cameraAboveGroundCm ||
                        settings.coverFollowsSlope != settings_.coverFollowsSlope ||
                        (terrain_ && region.centreCm != region_.centreCm);
    if (refill) {
        const int n = region.resolution;
        std::array<gpu::Texture2D, 2> states{
            gpu::Texture2D(n, n, gpu::TextureFormat::RGBA32F, "snowpack.state.0"),
            gpu::Texture2D(n, n, gpu::TextureFormat::RGBA32F, "snowpack.state.1")};
        for (const auto& state : states)
            if (!state.id())
                return state.allocationError();
        const std::size_t bytes = static_cast<std::size_t>(n) * n * sizeof(std::uint32_t);
        states_ = std::move(states);
        quanta_ = gpu::Buffer(bytes, nullptr, "snowpack.quanta");
        inside_ = gpu::Buffer(bytes, nullptr, "snowpack.inside");
        received_ = gpu::Buffer(bytes, nullptr, "snowpack.received");
        const int tiles = (n + kTileSize - 1) / kTileSize;
        const std::size_t tileCount = static_cast<std::size_t>(tiles) * tiles;
        tileState_ = gpu::Buffer(tileCount * sizeof(GLuint), nullptr, "snowpack.tile_state");
        // Each command starts empty: no group, one row (clearListCount resets it so each step).
        std::vector<GLuint> lists(kListsHeaderWords + kListCount * tileCount, 0u);
        for (int list = 0; list < kListCount; ++list)
            lists[list * 4 + 1] = lists[list * 4 + 2] = 1u;
        tileLists_ =
            gpu::Buffer(lists.size() * sizeof(GLuint), lists.data(), "snowpack.tile_lists");
    }
    if (!block_.id())
        block_ = gpu::Buffer(sizeof(SnowpackBlock), nullptr, "snowpack.block");
    if (!carriedOut_.id())
        carriedOut_ = gpu::Buffer(sizeof(double), nullptr, "snowpack.carried_out");
    classify_ = programs[0];
    compact_ = programs[1];
    scatter_ = programs[2];
    resolveTiles_ = programs[3];
    resolve_ = programs[4];
    slumpTiles_ = programs[5];
    slump_ = programs[6];
    carryOut_ = programs[7];
    slumpTerrain_ = slumpTerrain;
    settings_ = settings;
    constants_ = constants;
    region_ = region;
    if (refill)
        sampleGround();
    if (terrain_ && !ground_.id())
        return ground_.allocationError();
    if (terrain_ && !windTerrain_.id())
        return windTerrain_.allocationError();
    writeGroupsPerRow();
    // The surface reads it before the first step.
    writeBlock(0.0f, static_cast<float>(settings_.temperatureC));
    if (refill) {
        reset();
    } else {
        clock_ = SnowpackClock(settings); // the tick rates apply from now; time restarts at 0
        // New angles of repose or densities can set still snow moving anywhere.
        touchAll_ = true;
    }
    return std::nullopt;
}

void SnowpackSim::reset() {
    if (!allocated())
        return;
    undisturbed_ = initialColumn(constants_);
    const double areaM2 = std::pow(region_.texelCm() * 0.01, 2.0);
    if (terrain_) {
        // Over terrain each texel starts from the cover of its slope (initialCover).
        const std::vector<SnowColumn> cover =
            initialCover(groundCm_, region_.resolution, constants_, settings_.coverFollowsSlope);
        double massKgM2 = 0.0;
        for (const SnowColumn& column : cover)
            massKgM2 += column.massKgM2;
        massStartKg_ = massKgM2 * areaM2;
        const auto* floats = reinterpret_cast<const float*>(cover.data());
        for (auto& state : states_)
            state.upload(std::span<const float>(floats, cover.size() * 4));
    } else {
        for (auto& state : states_)
            glClearTexImage(state.id(), 0, GL_RGBA, GL_FLOAT, &undisturbed_);
        massStartKg_ = static_cast<double>(undisturbed_.massKgM2) * areaM2 * region_.resolution *
                       region_.resolution;
    }
    const GLuint zero = 0;
    for (const gpu::Buffer* buffer : {&quanta_, &inside_, &received_, &tileState_})
        glClearNamedBufferData(buffer->id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    current_ = 0;
    touchedIn_ = 8u;
    touchedOut_ = 16u;
    // Flat, both halves hold the same column everywhere: nothing to slump. Over terrain the
    // first iteration looks everywhere (a cover that does not follow the slopes slides).
    touchAll_ = terrain_ != nullptr;
    clock_ = SnowpackClock(settings_);
    carriedInKg_ = 0.0;
    fromUndisturbedKg_ = 0.0;
    if (world_)
        world_->reset(undisturbed_);
    const double none = 0.0;
    carriedOut_.update(0, sizeof(none), &none);
    weather_.reset(); // the weather hook: its clock and totals start again with the state
}

void SnowpackSim::writeBlock(float settleDtS, float settleTemperatureC) {
    SnowpackBlock block{};
    block.captureFarCm = constants_.captureFarCm;
    block.cameraAboveGroundCm = constants_.cameraAboveGroundCm;
    block.texelCm = constants_.texelCm;
    block.sizeTexels = static_cast<float>(region_.resolution);
    block.initialDensity = constants_.initialDensity;
    block.maxDensity = constants_.maxDensity;
    block.reposeFreshDeg = constants_.reposeFreshDeg;
    block.reposeDenseDeg = constants_.reposeDenseDeg;
    block.settleDtS = settleDtS;
    block.temperatureC = settleTemperatureC;
    block.ploughReachTexels = static_cast<float>(constants_.ploughReachTexels);
    block.initialDepthCm = constants_.initialDepthCm;
    block.groundPrintMaxCm = constants_.groundPrintMaxCm;
    block.groundFrozen = groundFrozen_ ? 1.0f : 0.0f;
    block_.update(0, sizeof(block), &block);
}

void SnowpackSim::beginStep(double dtSeconds) {
    const SnowpackStep step = clock_.advance(dtSeconds);
    // As SnowpackReference::settleAndCompact computes it: on the sky's clock, at its air
    // temperature, where a sky is given.
    const SettleClimate climate =
        settleClimate(settings_, weather_.clock().weather(), weather_.clock().timeS() + dtSeconds,
                      step.settleTicks);
    const float settleDtS = climate.dtS;
    // Frozen mud (core/ground.hpp): the sky at the instant this step ends, the capture's.
    groundFrozen_ = groundTakesPrints() && groundFrozenAt(weather_.clock().weather(),
                                                          weather_.clock().timeS() + dtSeconds);
    weather_.idle(dtSeconds); // a given sky that does not act: its clock runs all the same
    writeBlock(settleDtS, climate.temperatureC);
    if (step.settleTicks > 0) {
        const float temperatureC = climate.temperatureC;
        undisturbed_ = settleColumn(undisturbed_, settleDtS, temperatureC, constants_);
        if (world_) // the stored columns settle on the same ticks, with the same law
            world_->settled({settleDtS, temperatureC, constants_.maxDensity}, undisturbed_);
    }
}

void SnowpackSim::clearListCount(TileList list) const {
    const GLuint empty[4] = {0u, 1u, 1u, 0u}; // no group in one row; nothing listed
    glClearNamedBufferSubData(tileLists_.id(), GL_RGBA32UI, list * kCommandBytes, kCommandBytes,
                              GL_RGBA_INTEGER, GL_UNSIGNED_INT, empty);
}

void SnowpackSim::dispatchList(TileList list) const {
    gpu::dispatchIndirect(tileLists_.id(), list * kCommandBytes);
}

void SnowpackSim::limitDispatchWidth(unsigned groups) {
    dispatchWidth_ = groups;
    writeGroupsPerRow();
}

void SnowpackSim::writeGroupsPerRow() {
    if (!allocated())
        return;
    const GLuint groups = dispatchWidth_ ? dispatchWidth_ : gpu::maxComputeGroups()[0];
    tileLists_.update(kGroupsPerRowOffset, sizeof(groups), &groups);
}

void SnowpackSim::weathered(const WeatherTick& tick) {
    // A column nothing has touched is flat and exposed (untouchedMask: nothing presses it); under
    // wind it receives what it sends, as an untouched texel amid untouched texels does.
    undisturbed_ = weatherAwayColumn(undisturbed_, tick, constants_).column;
    if (world_)
        world_->weathered(tick, constants_, undisturbed_);
}

void SnowpackSim::setWorld(const std::optional<Region>& configured, int storeMib) {
    if (!configured) {
        world_.reset();
        return;
    }
    if (!world_)
        world_ = std::make_unique<SnowpackWorld>();
    if (world_->configure(*configured, storeMib))
        world_->reset(undisturbed_); // a new store starts from the column as it is now
}

void SnowpackSim::shift(glm::ivec2 offset, glm::dvec2 centreCm) {
    const glm::dvec2 fromCm = region_.centreCm;
    region_.centreCm = centreCm;
    if (!allocated() || offset == glm::ivec2(0))
        return;
    // What leaves goes to the store (read back before anything below writes the state).
    if (world_)
        world_->pageOut(states_[current_], fromCm, centreCm);
    const int n = region_.resolution;
    const glm::ivec2 lo = glm::clamp(offset, glm::ivec2(0), glm::ivec2(n));
    const glm::ivec2 hi = glm::clamp(offset + n, glm::ivec2(0), glm::ivec2(n));
    const glm::ivec2 kept = hi - lo; // the old texels the moved window still covers
    // What leaves: the old square minus the kept rectangle, as at most two rectangles (whole
    // columns, then the rest of the rows).
    std::vector<glm::ivec4> leaving;
    if (kept.x <= 0 || kept.y <= 0) {
        leaving.push_back({0, 0, n, n});
    } else {
        if (lo.x > 0)
            leaving.push_back({0, 0, lo.x, n});
        if (hi.x < n)
            leaving.push_back({hi.x, 0, n - hi.x, n});
        if (lo.y > 0)
            leaving.push_back({lo.x, 0, kept.x, lo.y});
        if (hi.y < n)
            leaving.push_back({lo.x, hi.y, kept.x, n - hi.y});
    }
    // The leaving rectangles summed into carriedOut, then the moved state: the entering
    // column everywhere, the kept texels over it.
    gpu::FrameGraph graph;
    const gpu::TextureId state = graph.texture({"snowpack", GL_RGBA32F, n, n, [this] {
                                                    return states_[current_].id();
                                                }});
    const gpu::BufferId carried =
        graph.buffer({"snowpack.carried_out", carriedOut_.bytes(), [this] {
                          return carriedOut_.id();
                      }});
    for (std::size_t k = 0; k < leaving.size(); ++k)
        graph.addPass(
            fmt::format("snowpack.carry_out.{}", k),
            [&](gpu::PassBuilder& pass) {
                pass.compute(carryOut_->id());
                pass.storage(carried, gpu::slot::kCarriedOut, gpu::ImageAccess::ReadWrite);
                pass.image(state, gpu::slot::kSnowpackPrevious, gpu::ImageAccess::Read);
                pass.history(carried);
                pass.history(state);
            },
            [this, rect = leaving[k]] {
                glProgramUniform4i(carryOut_->id(), 0, rect.x, rect.y, rect.z, rect.w);
                gpu::dispatchCompute(1);
            });
    graph.addPass(
        "snowpack.shift",
        [&](gpu::PassBuilder& pass) {
            pass.note("copies: the entering column, then the kept texels");
            pass.read(state, gpu::Access::TextureCopy);
            pass.write(state, gpu::Access::TextureCopy);
            pass.history(state);
        },
        [&] {
            const gpu::Texture2D& next = states_[1 - current_];
            glClearTexImage(next.id(), 0, GL_RGBA, GL_FLOAT, &undisturbed_);
            if (kept.x > 0 && kept.y > 0)
                glCopyImageSubData(states_[current_].id(), GL_TEXTURE_2D, 0, lo.x, lo.y, 0,
                                   next.id(), GL_TEXTURE_2D, 0, lo.x - offset.x, lo.y - offset.y, 0,
                                   kept.x, kept.y, 1);
        });
    gpu::runGraph(graph);
    current_ = 1 - current_;
    weather_.shift(offset); // what drifted moves with the snow it drifted
    sampleGround();         // over terrain: the ground under the moved region
    // What the store kept of the entering texels replaces the undisturbed column there.
    const SnowpackStore::Taken stored =
        world_ ? world_->pageIn(states_[current_], fromCm, centreCm) : SnowpackStore::Taken{};
    const long long entering =
        static_cast<long long>(n) * n -
        static_cast<long long>(std::max(kept.x, 0)) * static_cast<long long>(std::max(kept.y, 0));
    const double areaM2 = std::pow(region_.texelCm() * 0.01, 2.0);
    const double undisturbedKg = (double(undisturbed_.massKgM2) + double(undisturbed_.waterKgM2)) *
                                 static_cast<double>(entering - stored.texels) * areaM2;
    fromUndisturbedKg_ += undisturbedKg;
    carriedInKg_ += undisturbedKg + stored.kgM2 * areaM2;
    // The contact flags and tile bits belonged to the old places: start them again (the next
    // step's compaction sets them where the capture reaches), and slump everywhere once. The
    // compaction stored into them: the clear waits for those stores.
    gpu::FrameGraph flags;
    const gpu::BufferId inside = flags.buffer({"snowpack.inside", inside_.bytes(), [this] {
                                                   return inside_.id();
                                               }});
    const gpu::BufferId tileState =
        flags.buffer({"snowpack.tile_state", tileState_.bytes(), [this] {
                          return tileState_.id();
                      }});
    flags.addPass(
        "snowpack.shift_flags",
        [&](gpu::PassBuilder& pass) {
            pass.note("clears: the contact flags and the tile bits");
            pass.write(inside, gpu::Access::BufferCopy);
            pass.write(tileState, gpu::Access::BufferCopy);
        },
        [this] {
            const GLuint zero = 0;
            for (const gpu::Buffer* buffer : {&inside_, &tileState_})
                glClearNamedBufferData(buffer->id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT,
                                       &zero);
        });
    gpu::runGraph(flags);
    touchAll_ = true;
}

double SnowpackSim::carriedOutKg() const {
    if (!carriedOut_.id())
        return 0.0;
    double kgM2 = 0.0;
    gpu::readBuffer(carriedOut_.id(), 0, sizeof(kgM2), &kgM2);
    return kgM2 * std::pow(region_.texelCm() * 0.01, 2.0);
}

SnowpackSim::TileCounts SnowpackSim::lastTileCounts() const {
    TileCounts counts;
    if (!allocated())
        return counts;
    GLuint commands[kListCount * 4] = {};
    gpu::readBuffer(tileLists_.id(), 0, sizeof(commands), commands);
    counts.compact = static_cast<int>(commands[kCompactList * 4 + 3]);
    counts.resolve = static_cast<int>(commands[kResolveList * 4 + 3]);
    counts.slumpLast = static_cast<int>(commands[kSlumpList * 4 + 3]);
    counts.total = tilesPerSide() * tilesPerSide();
    for (int list = 0; list < kListCount; ++list) {
        counts.widestRow = std::max(counts.widestRow, static_cast<int>(commands[list * 4]));
        counts.mostRows = std::max(counts.mostRows, static_cast<int>(commands[list * 4 + 1]));
    }
    return counts;
}

std::vector<SnowColumn> SnowpackSim::readBack() const {
    if (!allocated())
        return {};
    return columnsFromRgba(state().readFloats());
}

SnowpackBudget SnowpackSim::budget() const {
    return snowpackBudget(readBack(), region_.texelCm(), constants_.initialDensity);
}

std::size_t SnowpackSim::bytes() const {
    if (!allocated())
        return 0;
    return states_[0].bytes() + states_[1].bytes() + ground_.bytes() + windTerrain_.bytes() +
           quanta_.bytes() + inside_.bytes() + received_.bytes() + tileState_.bytes() +
           tileLists_.bytes() + carriedOut_.bytes() +
           weather_.bytes(); // the weather hook: 0 without [weather]
}

} // namespace snowcap
