// SnowpackSim's step as passes of the frame graph (declared in snow/snowpack_sim.hpp): its
// resources, the setup, the contact's passes (classify, compact, plough scatter, resolve list,
// plough resolve) over the active tiles' lists, the slump iterations, and a world store's part.
// Planning changes nothing: the iterations come from a copy of the clock, and every pass's
// state changes (the clock, the lists, the halves' swap) happen when it runs.
#include "gpu/binding_slots.hpp"
#include "snow/snowpack_sim.hpp"

#include <fmt/format.h>
#include <utility>

namespace snowcap {

namespace {

// Uniform locations of the tile passes (shaders/snowpack/*.comp).
constexpr GLint kTouchedInLocation = 0;
constexpr GLint kTouchedOutLocation = 1;
constexpr GLint kEveryTileLocation = 2;

} // namespace

SnowpackSim::Resources SnowpackSim::resources(gpu::FrameGraph& graph,
                                              const std::string& name) const {
    const int n = region_.resolution;
    auto buffer = [&](const char* part, const gpu::Buffer& b) {
        return graph.buffer({name + "." + part, b.bytes(), [&b] {
                                 return b.id();
                             }});
    };
    Resources r;
    // The ping-pong pair is one resource: a pass that reads one half and writes the other
    // binds both halves of it (the swap makes the written half the state).
    r.state = graph.texture({name, GL_RGBA32F, n, n, [this] {
                                 return state().id();
                             }});
    r.block = buffer("block", block_);
    r.quanta = buffer("quanta", quanta_);
    r.inside = buffer("inside", inside_);
    r.received = buffer("received", received_);
    r.tileState = buffer("tile_state", tileState_);
    r.tileLists = buffer("tile_lists", tileLists_);
    if (ground_.id())
        r.ground = graph.texture({name + ".ground", GL_R32F, n, n, [this] {
                                      return ground_.id();
                                  }});
    if (windTerrain_.id())
        r.windTerrain = graph.texture({name + ".wind_terrain", GL_RGBA32F, n, n, [this] {
                                           return windTerrain_.id();
                                       }});
    return r;
}

void SnowpackSim::addStepPasses(gpu::FrameGraph& graph, const std::string& name,
                                gpu::TextureId captureDepth, double dtSeconds) {
    if (!allocated())
        return;
    const Resources r = resources(graph, name);
    // What the step will do, from a copy of the clock: planning changes nothing.
    SnowpackClock clock = clock_;
    const SnowpackStep planned = clock.advance(dtSeconds);

    // The clock, the block and the undisturbed column (CPU work and one upload).
    graph.addPass(
        name + ".setup",
        [&](gpu::PassBuilder& pass) {
            pass.timers({name});
            pass.note("no draw: the clock steps, the Snowpack block is uploaded");
            pass.write(r.block, gpu::Access::BufferCopy);
        },
        [this, dtSeconds] { beginStep(dtSeconds); });
    addContactPasses(graph, name, r, captureDepth, planned.settleTicks > 0);
    addSlumpPasses(graph, name, r, planned.slumpIterations);

    // Passes over the whole state run after these (the weather's snowfall, melt and drift):
    // each reads and writes the state (in place, or into the other half and then swapping)
    // and calls touchAllTiles(), so the next slump iteration runs on every tile.
    if (world_)
        graph.addPass(
            name + ".world",
            [&](gpu::PassBuilder& pass) {
                pass.timers({name});
                pass.note("no draw: the store's part of the step");
            },
            [this] { world_->afterStep(); });
}

void SnowpackSim::declareTilePass(gpu::PassBuilder& pass, const Resources& r,
                                  const gpu::ShaderProgram& program,
                                  const std::string& timer) const {
    // Every tile pass sees the whole block, the plough's buffers and the tile bits and lists
    // (snowpack_block.glsl and snowpack_tiles.glsl declare them for every program, and each
    // program uses them); what else differs per pass. What they held is the last step's.
    pass.timers({timer});
    pass.compute(program.id());
    pass.uniform(r.block, gpu::slot::kSnowpack);
    for (const auto& [buffer, slot] : {std::pair{r.quanta, gpu::slot::kPloughQuanta},
                                       std::pair{r.inside, gpu::slot::kPloughInside},
                                       std::pair{r.received, gpu::slot::kPloughReceived},
                                       std::pair{r.tileState, gpu::slot::kTileState},
                                       std::pair{r.tileLists, gpu::slot::kTileLists}}) {
        pass.storage(buffer, slot, gpu::ImageAccess::ReadWrite);
        pass.history(buffer);
    }
}

void SnowpackSim::addListPass(gpu::FrameGraph& graph, const std::string& pass, const Resources& r,
                              const std::string& timer, const gpu::ShaderProgram& program,
                              TileList list, std::function<bool()> everyTile) {
    // The list's count cleared, then one invocation a tile decides whether it goes on it.
    graph.addPass(
        pass,
        [&](gpu::PassBuilder& b) {
            declareTilePass(b, r, program, timer);
            b.note("compute: clears the list's count, one invocation a tile");
            b.write(r.tileLists, gpu::Access::BufferCopy);
        },
        [this, &program, list, everyTile = std::move(everyTile)] {
            clearListCount(list);
            gpu::setUniform(program.id(), kTouchedInLocation, touchedIn_);
            if (list == kSlumpList) // the resolve's builder only sets touchedIn
                gpu::setUniform(program.id(), kTouchedOutLocation, touchedOut_);
            gpu::setUniform(program.id(), kEveryTileLocation, everyTile() ? 1u : 0u);
            const GLuint tiles = static_cast<GLuint>(tilesPerSide() * tilesPerSide());
            gpu::dispatchCompute((tiles + 63) / 64);
        });
}

void SnowpackSim::addContactPasses(gpu::FrameGraph& graph, const std::string& name,
                                   const Resources& r, gpu::TextureId captureDepth, bool settles) {
    using gpu::ImageAccess;
    using gpu::PassBuilder;
    // The tiles the capture reaches (and, on a settling tick, all): settle + compact there, in
    // place. Everywhere else the full pass would leave every column as it is.
    graph.addPass(
        name + ".classify",
        [&](PassBuilder& pass) {
            declareTilePass(pass, r, *classify_, name);
            pass.note("compute: one group a tile of the region");
            pass.sample(captureDepth, gpu::slot::kCaptureDepth, [] { return 0u; });
            pass.write(r.tileLists, gpu::Access::BufferCopy);
        },
        [this, settles] {
            clearListCount(kCompactList);
            gpu::setUniform(classify_->id(), kEveryTileLocation,
                            settles || !activeTiles_ ? 1u : 0u);
            const GLuint tiles = static_cast<GLuint>(tilesPerSide());
            gpu::dispatchCompute(tiles, tiles); // the whole region: one group a tile
        });
    graph.addPass(
        name + ".compact",
        [&](PassBuilder& pass) {
            declareTilePass(pass, r, *compact_, name);
            pass.note("compute: the compact list's tiles (indirect)");
            pass.sample(captureDepth, gpu::slot::kCaptureDepth, [] { return 0u; });
            pass.image(r.state, gpu::slot::kSnowpackState, ImageAccess::ReadWrite);
            pass.indirect(r.tileLists);
            pass.history(r.state);
        },
        [this] {
            gpu::setUniform(compact_->id(), kTouchedInLocation, touchedIn_);
            dispatchList(kCompactList);
        });
    // What cannot compact goes to the nearest texel outside the contact; the tiles it lands
    // on take it.
    graph.addPass(
        name + ".plough_scatter",
        [&](PassBuilder& pass) {
            declareTilePass(pass, r, *scatter_, name);
            pass.note("compute: the compact list's tiles (indirect)");
            pass.indirect(r.tileLists);
        },
        [this] { dispatchList(kCompactList); });
    addListPass(graph, name + ".resolve_tiles", r, name, *resolveTiles_, kResolveList,
                [this] { return !activeTiles_; });
    graph.addPass(
        name + ".plough_resolve",
        [&](PassBuilder& pass) {
            declareTilePass(pass, r, *resolve_, name);
            pass.note("compute: the resolve list's tiles (indirect)");
            pass.image(r.state, gpu::slot::kSnowpackState, ImageAccess::ReadWrite);
            pass.indirect(r.tileLists);
        },
        [this] { dispatchList(kResolveList); });
}

void SnowpackSim::addSlumpPasses(gpu::FrameGraph& graph, const std::string& name,
                                 const Resources& r, int iterations) {
    // The clock's slump iterations, each from one half of the pair into the other, on the
    // tiles that changed since the last iteration and their neighbours: elsewhere both halves
    // hold the same, and slump would move nothing.
    // Over terrain, slump's variant that stands the surfaces on the ground's heights.
    const gpu::ShaderProgram* slump = r.ground ? slumpTerrain_ : slump_;
    for (int i = 0; i < iterations; ++i) {
        addListPass(graph, fmt::format("{}.slump_tiles.{}", name, i), r, name, *slumpTiles_,
                    kSlumpList, [this] {
                        const bool every = touchAll_ || !activeTiles_;
                        touchAll_ = false;
                        return every;
                    });
        graph.addPass(
            fmt::format("{}.slump.{}", name, i),
            [&](gpu::PassBuilder& pass) {
                declareTilePass(pass, r, *slump, name);
                pass.note("compute: the slump list's tiles (indirect), state -> other half");
                if (r.ground) {
                    pass.image(r.ground, gpu::slot::kSnowpackGround, gpu::ImageAccess::Read);
                    pass.history(r.ground);
                }
                pass.image(r.state, gpu::slot::kSnowpackPrevious, gpu::ImageAccess::Read);
                pass.image(r.state, gpu::slot::kSnowpackNext, gpu::ImageAccess::Write,
                           [this] { return otherHalf().id(); });
                pass.indirect(r.tileLists);
            },
            [this, slump] {
                gpu::setUniform(slump->id(), kTouchedOutLocation, touchedOut_);
                dispatchList(kSlumpList);
                current_ = 1 - current_;
                std::swap(touchedIn_, touchedOut_);
            });
    }
}

void SnowpackSim::step(const gpu::Texture2D& captureDepth, double dtSeconds) {
    if (!allocated())
        return;
    gpu::FrameGraph graph;
    const gpu::TextureId capture =
        graph.texture({"capture", formatInfo(captureDepth.format()).internal, captureDepth.width(),
                       captureDepth.height(), [&captureDepth] {
                           return captureDepth.id();
                       }});
    addStepPasses(graph, "snowpack", capture, dtSeconds);
    const std::string given[] = {"capture"};
    gpu::runGraph(graph, nullptr, given);
}

} // namespace snowcap
