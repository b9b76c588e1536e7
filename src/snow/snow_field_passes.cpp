// SnowField's step as passes (declared in snow_field.hpp): planStep decides, as the old step()
// did between its GL calls, where the following windows go, which captures the running windows
// need and which windows idle, and returns the passes that do the GL work in the same order:
// follow, capture, idle, accumulate, sync, world. The frame (render/frame.cpp) puts them into
// its list; SnowField::step runs them on their own.
#include "gpu/binding_slots.hpp"
#include "snow/snow_field.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace snowcap {

StepPlan SnowField::planStep(DeformerBatch& batch, std::span<const DeformerInstance> deformers,
                             double dtSeconds) {
    StepPlan plan;
    if (!enabled_)
        return plan;
    using gpu::BindingKind;
    using gpu::PassRecord;

    // Setup: each moving window's capture at its next place (a capture that only moves keeps
    // its textures, another is made). Nothing is drawn here; the windows' texels move in the
    // follow pass.
    const std::vector<Move> moves = plannedMoves(deformers);
    Moved moved{};
    for (const Move& move : moves) {
        windowAt(move.sim, move.window).centre = move.next;
        moved[move.sim][move.window] = true;
    }
    if (!moves.empty())
        assignCaptures();

    // Idle skip: a window runs unless nothing reaches its region, its region stood still and
    // its buffer is known to be all zeros.
    Moved contact{}, run{};
    for (int i = 0; i < simCount(); ++i)
        for (int w = 0; w < windowCount(i); ++w) {
            const SimWindow& window = simWindow(i, w);
            const CaptureKey key = captureKey(i, window.centre);
            contact[i][w] = std::any_of(deformers.begin(), deformers.end(), [&](const auto& d) {
                return d.mesh && ContactCapture::reaches(key, d.worldBounds);
            });
            // A snowpack sim never idles: it settles and slumps with nothing touching it.
            run[i][w] = !effective_.snow.idleSkip || moved[i][w] || contact[i][w] ||
                        window.healBound > 0.0 || window.tagStepsLeft > 0 || isSnowpack(i);
        }
    for (int i = 0; i < simCount(); ++i)
        plan.writes[i] = run[i][0] || moved[i][0];

    if (!moves.empty()) {
        PassRecord follow;
        follow.name = "follow";
        follow.stateNote = "fbo: each moving window's other buffer (shift; paging readbacks)";
        for (const Move& move : moves) {
            const SnowSim& sim = window(move.sim, move.window);
            follow.reads.push_back({sim.bufferResource(), true});
            follow.writes.push_back(sim.bufferResource());
            if (worlds_[move.sim]) {
                follow.reads.push_back({"world." + std::string(simName(move.sim)), true});
                follow.writes.push_back("world." + std::string(simName(move.sim)));
            }
            if (snowpacks_[move.sim]) { // the state moves with its window (SnowpackSim::shift)
                const std::string state = snowpackResource(simName(move.sim));
                follow.reads.push_back({state, true});
                follow.writes.push_back(state);
            }
        }
        follow.execute = [this, moves] {
            for (const Move& move : moves)
                moveFollowing(move);
        };
        plan.passes.push_back(std::move(follow));
    }

    for (int c = 0; c < captureCount(); ++c) {
        bool needed = false;
        for (int i = 0; i < simCount(); ++i)
            for (int w = 0; w < windowCount(i); ++w)
                needed = needed || (run[i][w] && simWindow(i, w).capture == c);
        if (!needed)
            continue;
        // One name per pass instance: a timer keeps one result per name and frame.
        PassRecord capture;
        capture.name = c == 0 ? "capture" : fmt::format("capture.{}", c);
        capture.timers = {capture.name};
        ContactCapture* target = captures_[c].get();
        const gpu::ShaderProgram* program =
            target->key().followsTerrain() ? captureTerrainProgram_ : captureProgram_;
        capture.state = target->passState(*program);
        capture.reads = {{"deformers"}};
        if (target->key().followsTerrain()) {
            // The terrain's heights under the capture's texels: made with the capture (and
            // again when it moves, before the graph is built), read here.
            gpu::PassBinding terrain{gpu::BindingKind::Texture, gpu::slot::kCaptureTerrain,
                                     capture.name + ".terrain", [target] {
                                         return target->terrainHeight().id();
                                     }};
            terrain.history = true;
            capture.bindings.push_back(std::move(terrain));
            capture.reads.push_back({capture.name + ".terrain", true});
        }
        capture.writes = {capture.name};
        capture.execute = [this, target, program, &batch] {
            target->draw(batch, *program);
            ++passesRun_.capture;
        };
        plan.passes.push_back(std::move(capture));
    }

    std::vector<std::pair<int, int>> idle;
    for (int i = 0; i < simCount(); ++i)
        for (int w = 0; w < windowCount(i); ++w)
            if (!run[i][w])
                idle.emplace_back(i, w);
    if (!idle.empty()) {
        PassRecord pass;
        pass.name = "idle";
        pass.stateNote = "no GL: the idle windows' clocks step";
        for (const auto& [i, w] : idle)
            pass.name += "." + window(i, w).name();
        pass.execute = [this, idle, dtSeconds] {
            for (const auto& [i, w] : idle) {
                SimWindow& window = windowAt(i, w);
                window.sim.idleStep(dtSeconds);
                ++window.idleSteps;
            }
        };
        plan.passes.push_back(std::move(pass));
    }

    // One accumulate pass per capture and buffer format for the windows that run on it
    // (SnowSim::stepShared); a sim's windows sit at other places, so they have captures (and
    // passes) of their own.
    for (int c = 0; c < captureCount(); ++c)
        for (BufferFormat format : {BufferFormat::R16F, BufferFormat::RGBA16F}) {
            std::vector<SnowSim*> group;
            std::vector<std::pair<int, int>> members;
            PassRecord pass;
            pass.name = "accumulate.";
            for (int i = 0; i < simCount(); ++i)
                for (int w = 0; w < windowCount(i); ++w) {
                    SimWindow& window = windowAt(i, w);
                    if (run[i][w] && window.capture == c && !isSnowpack(i) &&
                        window.sim.settings().format == format) {
                        group.push_back(&window.sim);
                        members.emplace_back(i, w);
                        pass.name += window.sim.name();
                    }
                }
            if (group.empty())
                continue;
            const std::string captureName = c == 0 ? "capture" : fmt::format("capture.{}", c);
            pass.timers = {pass.name};
            pass.stateNote = group.size() == 1 ? "fbo: the next buffer"
                                               : "fbo: each sim's next buffer (one output each)";
            pass.bindings = SnowSim::accumulateBindings(group, *captures_[c], captureName);
            pass.reads.push_back({captureName});
            for (const SnowSim* sim : group) {
                pass.reads.push_back({sim->bufferResource(), true}); // the pair's previous half
                pass.writes.push_back(sim->bufferResource());
            }
            const ContactCapture* capture = captures_[c].get();
            pass.execute = [this, group, members, capture, contact, dtSeconds] {
                SnowSim::stepShared(group, *capture, dtSeconds, true);
                ++passesRun_.accumulate;
                passesRun_.accumulateOutputs += static_cast<long long>(group.size());
                for (const auto& [i, w] : members)
                    windowAt(i, w).updateHealBound(contact[i][w]);
            };
            plan.passes.push_back(std::move(pass));
        }

    // A snowpack sim's own step on its shared capture (snow/snowpack_sim.hpp): compaction,
    // ploughing, slump and settling, in place of the accumulate pass, one pass per dispatch.
    // Then the weather on each snowpack sim whose sky ever acts (snow/weather_sim.hpp):
    // snowfall, melt, drainage and drift on the state its snowpack passes left, with that
    // step's contact flags. When the weather is active every tile of the state is active (it
    // touches every texel); without [weather] its passes are not in the list.
    gpu::FrameGraph graph;
    for (int i = 0; i < simCount(); ++i) {
        if (!snowpacks_[i])
            continue;
        const int c = front(i).capture;
        const gpu::Texture2D& depth = captures_[c]->depth();
        const gpu::TextureId capture = graph.texture(
            {c == 0 ? "capture" : fmt::format("capture.{}", c),
             gpu::formatInfo(depth.format()).internal, depth.width(), depth.height(), [this, c] {
                 return captures_[c]->depth().id();
             }});
        snowpacks_[i]->addStepPasses(graph, snowpackResource(simName(i)), capture, dtSeconds);
    }
    for (int i = 0; i < simCount(); ++i)
        if (snowpacks_[i] && snowpacks_[i]->weather().active())
            snowpacks_[i]->weather().addPasses(graph, *snowpacks_[i],
                                               fmt::format("weather.{}", simName(i)),
                                               snowpackResource(simName(i)), dtSeconds);
    for (gpu::PassRecord& pass : graph.takePasses())
        plan.passes.push_back(std::move(pass));

    for (int i = 0; i < simCount(); ++i) {
        if (windowCount(i) < 2)
            continue;
        PassRecord sync;
        sync.name = "sync." + std::string(simName(i));
        sync.stateNote = "copies between the windows' buffers (glCopyImageSubData)";
        for (int w = 0; w < windowCount(i); ++w) {
            sync.reads.push_back({window(i, w).bufferResource(), true});
            if (w > 0)
                sync.writes.push_back(window(i, w).bufferResource());
        }
        const std::array<bool, kMaxObservers> ran = run[i];
        sync.execute = [this, i, ran] {
            syncOverlaps(i, ran);
        };
        plan.passes.push_back(std::move(sync));
    }

    for (int i = 0; i < simCount(); ++i) {
        if (!worlds_[i])
            continue;
        PassRecord world;
        const std::string name = "world." + std::string(simName(i));
        world.name = name;
        world.stateNote = "no draw: the store logs the step, maps finished readbacks";
        world.reads = {{sim(i).bufferResource(), true}, {name, true}};
        world.writes = {name};
        world.execute = [this, i] {
            worlds_[i]->afterStep(sim(i));
        };
        plan.passes.push_back(std::move(world));
    }
    return plan;
}

} // namespace snowcap
