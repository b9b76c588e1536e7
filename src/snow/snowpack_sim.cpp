#include "snow/snowpack_sim.hpp"

#include "core/ground.hpp"
#include "core/weather_laws.hpp"
#include "gpu/binding_slots.hpp"

#include <algorithm>
#include <cmath>
#include <glm/common.hpp>
#include <glm/vec4.hpp>

namespace snowcap {

namespace {

// std140 mirror of the Snowpack block in shaders/snowpack/snowpack_block.glsl.
struct SnowpackBlock {
    float capture[4]; // far cm, camera height above the ground cm, texel cm, size
    float density[4]; // initial, max, repose fresh deg, repose dense deg
    float settle[4];  // settling dt s this step (0: none), temperature C, plough reach,
                      // initial depth cm
    float ground[4];  // the deepest print the ground takes cm (0: none), 1 while the ground
                      // is frozen (else 0), 0, 0
};
static_assert(sizeof(SnowpackBlock) == 64,
              "std140 drift: see shaders/snowpack/snowpack_block.glsl");
constexpr GLuint kCaptureUnit = gpu::slot::kCaptureDepth;
constexpr GLuint kTileStateSlot = gpu::slot::kTileState;
constexpr GLuint kTileListsSlot = gpu::slot::kTileLists;
// Uniform locations of the tile passes (shaders/snowpack/*.comp).
constexpr GLint kTouchedInLocation = 0;
constexpr GLint kTouchedOutLocation = 1;
constexpr GLint kEveryTileLocation = 2;
// One indirect dispatch command a list (x, y, z and a pad: a uvec4 in std430).
constexpr std::size_t kCommandBytes = 4 * sizeof(GLuint);
constexpr int kListCount = 3;
// Every pass may be followed by one that reads what it wrote, through images, buffers,
// texture fetches (the surface) or an indirect command, and by a read-back (stats, outputs).
constexpr GLbitfield kPassBarrier = GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                                    GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                                    GL_TEXTURE_UPDATE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT |
                                    GL_BUFFER_UPDATE_BARRIER_BIT;

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

std::optional<std::string> SnowpackSim::configure(const SnowpackSettings& settings,
                                                  const Region& region, double captureZCm,
                                                  double captureFarCm, gpu::ShaderLibrary& shaders,
                                                  float groundPrintMaxCm) {
    auto loaded = shaders.loadAll(snowpackPrograms());
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    const auto& programs = std::get<std::vector<gpu::ShaderProgram*>>(loaded);
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
                        constants.cameraAboveGroundCm != constants_.cameraAboveGroundCm;
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
        // The commands' y and z are 1 for good; each step clears only the counts (x).
        std::vector<GLuint> lists(kListCount * 4 + kListCount * tileCount, 0u);
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
    settings_ = settings;
    constants_ = constants;
    region_ = region;
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
    for (auto& state : states_)
        glClearTexImage(state.id(), 0, GL_RGBA, GL_FLOAT, &undisturbed_);
    const GLuint zero = 0;
    for (const gpu::Buffer* buffer : {&quanta_, &inside_, &received_, &tileState_})
        glClearNamedBufferData(buffer->id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    current_ = 0;
    touchedIn_ = 8u;
    touchedOut_ = 16u;
    touchAll_ = false; // both halves hold the same column everywhere
    clock_ = SnowpackClock(settings_);
    const double areaM2 = std::pow(region_.texelCm() * 0.01, 2.0);
    massStartKg_ = static_cast<double>(undisturbed_.massKgM2) * areaM2 * region_.resolution *
                   region_.resolution;
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
    block.capture[0] = constants_.captureFarCm;
    block.capture[1] = constants_.cameraAboveGroundCm;
    block.capture[2] = constants_.texelCm;
    block.capture[3] = static_cast<float>(region_.resolution);
    block.density[0] = constants_.initialDensity;
    block.density[1] = constants_.maxDensity;
    block.density[2] = constants_.reposeFreshDeg;
    block.density[3] = constants_.reposeDenseDeg;
    block.settle[0] = settleDtS;
    block.settle[1] = settleTemperatureC;
    block.settle[2] = static_cast<float>(constants_.ploughReachTexels);
    block.settle[3] = constants_.initialDepthCm;
    block.ground[0] = constants_.groundPrintMaxCm;
    block.ground[1] = groundFrozen_ ? 1.0f : 0.0f;
    block_.update(0, sizeof(block), &block);
}

void SnowpackSim::bindImage(GLuint unit, const gpu::Texture2D& texture, GLenum access) const {
    glBindImageTexture(unit, texture.id(), 0, GL_FALSE, 0, access, GL_RGBA32F);
}

void SnowpackSim::buildCompactList(const gpu::Texture2D& captureDepth, bool everyTile) const {
    const GLuint zero = 0;
    glClearNamedBufferSubData(tileLists_.id(), GL_R32UI, kCompactList * kCommandBytes,
                              sizeof(GLuint), GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glBindTextureUnit(kCaptureUnit, captureDepth.id());
    glBindSampler(kCaptureUnit, 0);
    glUseProgram(classify_->id());
    glProgramUniform1ui(classify_->id(), kEveryTileLocation, everyTile ? 1u : 0u);
    const GLuint tiles = static_cast<GLuint>(tilesPerSide());
    glDispatchCompute(tiles, tiles, 1); // the whole region: one group a tile
    glMemoryBarrier(kPassBarrier);
}

void SnowpackSim::buildList(TileList list, const gpu::ShaderProgram& builder,
                            bool everyTile) const {
    const GLuint zero = 0;
    glClearNamedBufferSubData(tileLists_.id(), GL_R32UI, list * kCommandBytes, sizeof(GLuint),
                              GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glUseProgram(builder.id());
    glProgramUniform1ui(builder.id(), kTouchedInLocation, touchedIn_);
    if (list == kSlumpList) // the resolve's builder only sets touchedIn
        glProgramUniform1ui(builder.id(), kTouchedOutLocation, touchedOut_);
    glProgramUniform1ui(builder.id(), kEveryTileLocation, everyTile ? 1u : 0u);
    const GLuint tiles = static_cast<GLuint>(tilesPerSide() * tilesPerSide());
    glDispatchCompute((tiles + 63) / 64, 1, 1);
    glMemoryBarrier(kPassBarrier);
}

void SnowpackSim::dispatchTiles(const gpu::ShaderProgram& program, TileList list) const {
    glUseProgram(program.id());
    // Only the passes that mark tiles declare their bit (compact: touchedIn, slump: touchedOut).
    if (&program == compact_)
        glProgramUniform1ui(program.id(), kTouchedInLocation, touchedIn_);
    if (&program == slump_)
        glProgramUniform1ui(program.id(), kTouchedOutLocation, touchedOut_);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, tileLists_.id());
    glDispatchComputeIndirect(static_cast<GLintptr>(list * kCommandBytes));
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
    glMemoryBarrier(kPassBarrier);
}

void SnowpackSim::compactAndPlough(const gpu::Texture2D& captureDepth, bool settles) {
    // The tiles the capture reaches (and, on a settling tick, all): settle + compact there, in
    // place. Everywhere else the full pass would leave every column as it is.
    buildCompactList(captureDepth, settles || !activeTiles_);
    bindImage(gpu::slot::kSnowpackState, states_[current_], GL_READ_WRITE);
    dispatchTiles(*compact_, kCompactList);
    // What cannot compact goes to the nearest texel outside the contact; the tiles it lands
    // on take it.
    dispatchTiles(*scatter_, kCompactList);
    buildList(kResolveList, *resolveTiles_, !activeTiles_);
    dispatchTiles(*resolve_, kResolveList);
}

void SnowpackSim::slumpIteration() {
    // The tiles that changed since the last iteration and their neighbours: elsewhere both
    // halves of the pair hold the same, and slump would move nothing.
    buildList(kSlumpList, *slumpTiles_, touchAll_ || !activeTiles_);
    touchAll_ = false;
    bindImage(gpu::slot::kSnowpackPrevious, states_[current_], GL_READ_ONLY);
    bindImage(gpu::slot::kSnowpackNext, states_[1 - current_], GL_WRITE_ONLY);
    dispatchTiles(*slump_, kSlumpList);
    current_ = 1 - current_;
    std::swap(touchedIn_, touchedOut_);
}

void SnowpackSim::step(const gpu::Texture2D& captureDepth, double dtSeconds) {
    if (!allocated())
        return;
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
    glBindBufferBase(GL_UNIFORM_BUFFER, gpu::slot::kSnowpack, block_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, gpu::slot::kPloughQuanta, quanta_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, gpu::slot::kPloughInside, inside_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, gpu::slot::kPloughReceived, received_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kTileStateSlot, tileState_.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kTileListsSlot, tileLists_.id());

    // Compaction, ploughing and settling (folded into the compaction on its ticks), then the
    // clock's slump iterations: on the active tiles only.
    compactAndPlough(captureDepth, step.settleTicks > 0);
    for (int i = 0; i < step.slumpIterations; ++i)
        slumpIteration();

    // Passes over the whole state run here, after the snow's own (the weather's snowfall, melt
    // and drift): each reads and writes states_[current_] (in place, or into the other half and
    // then swapping current_) and calls touchAllTiles(), so the next slump iteration runs on
    // every tile.
    if (world_)
        world_->afterStep();
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
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, gpu::slot::kCarriedOut, carriedOut_.id());
    bindImage(gpu::slot::kSnowpackPrevious, states_[current_], GL_READ_ONLY);
    glUseProgram(carryOut_->id());
    for (const glm::ivec4& rect : leaving) {
        glProgramUniform4i(carryOut_->id(), 0, rect.x, rect.y, rect.z, rect.w);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    // The moved state: the entering column everywhere, then the kept texels over it.
    const gpu::Texture2D& next = states_[1 - current_];
    glClearTexImage(next.id(), 0, GL_RGBA, GL_FLOAT, &undisturbed_);
    if (kept.x > 0 && kept.y > 0)
        glCopyImageSubData(states_[current_].id(), GL_TEXTURE_2D, 0, lo.x, lo.y, 0, next.id(),
                           GL_TEXTURE_2D, 0, lo.x - offset.x, lo.y - offset.y, 0, kept.x, kept.y,
                           1);
    current_ = 1 - current_;
    weather_.shift(offset); // what drifted moves with the snow it drifted
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
    // step's compaction sets them where the capture reaches), and slump everywhere once.
    const GLuint zero = 0;
    for (const gpu::Buffer* buffer : {&inside_, &tileState_})
        glClearNamedBufferData(buffer->id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    touchAll_ = true;
    glMemoryBarrier(kPassBarrier);
}

double SnowpackSim::carriedOutKg() const {
    if (!carriedOut_.id())
        return 0.0;
    double kgM2 = 0.0;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(carriedOut_.id(), 0, sizeof(kgM2), &kgM2);
    return kgM2 * std::pow(region_.texelCm() * 0.01, 2.0);
}

SnowpackSim::TileCounts SnowpackSim::lastTileCounts() const {
    TileCounts counts;
    if (!allocated())
        return counts;
    GLuint commands[kListCount * 4] = {};
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(tileLists_.id(), 0, sizeof(commands), commands);
    counts.compact = static_cast<int>(commands[kCompactList * 4]);
    counts.resolve = static_cast<int>(commands[kResolveList * 4]);
    counts.slumpLast = static_cast<int>(commands[kSlumpList * 4]);
    counts.total = tilesPerSide() * tilesPerSide();
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
    return states_[0].bytes() + states_[1].bytes() + quanta_.bytes() + inside_.bytes() +
           received_.bytes() + tileState_.bytes() + tileLists_.bytes() + carriedOut_.bytes() +
           weather_.bytes(); // the weather hook: 0 without [weather]
}

} // namespace snowcap
