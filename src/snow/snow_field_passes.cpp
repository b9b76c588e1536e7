// SnowField's step as passes (declared in snow_field.hpp). advance() is the step's setup: the
// following windows take their next place and the captures are assigned for it. planStep then
// lists the passes that do the GL work, changing nothing, in the order they run: follow,
// capture, idle, accumulate, snowpack and weather, sync, world. The frame (render/frame.cpp)
// puts them into its list; SnowField::step advances, plans and runs them on their own.
#include "gpu/binding_slots.hpp"
#include "snow/snow_field.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace snowcap {

namespace {

// One name per capture's pass: a timer keeps one result per name and frame.
std::string captureName(int c) {
    return c == 0 ? "capture" : fmt::format("capture.{}", c);
}

} // namespace

void SnowField::advance(std::span<const DeformerInstance> deformers) {
    if (!enabled_)
        return;
    // Each moving window's capture at its next place (a capture that only moves keeps its
    // textures, another is made). Nothing is drawn here; the windows' texels move in the
    // follow pass.
    const std::vector<Move> moves = plannedMoves(deformers);
    for (const Move& move : moves)
        windowAt(move.sim, move.window).centre = move.next;
    if (!moves.empty())
        assignCaptures();
}

std::vector<SnowField::Move> SnowField::pendingMoves() const {
    std::vector<Move> moves;
    for (int i = 0; i < simCount(); ++i)
        for (int w = 0; w < windowCount(i); ++w) {
            const SimWindow& window = simWindow(i, w);
            if (window.centre != window.sim.region().centreCm)
                moves.push_back({i, w, window.centre});
        }
    return moves;
}

// Lists one step's passes from the field as advance() left it. It reads the field and changes
// nothing; each append adds one stage's passes, whose execute does the GL work and the
// bookkeeping when the list runs.
class StepPlanner {
public:
    StepPlanner(SnowField& field, DeformerBatch& batch, std::span<const DeformerInstance> deformers,
                double dtSeconds)
        : field_(field), batch_(batch), deformers_(deformers), dtSeconds_(dtSeconds) {}

    StepPlan plan() {
        decideRuns();
        appendFollow();
        appendCaptures();
        appendIdle();
        appendAccumulates();
        appendSnowpacks();
        appendSyncs();
        appendWorlds();
        return std::move(plan_);
    }

private:
    using Moved = SnowField::Moved;

    // Idle skip: a window runs unless nothing reaches its region, its region stands still and
    // its buffer is known to be all zeros.
    void decideRuns();
    // The windows advance() moved: their texels (and paging, and a snowpack's state) follow.
    void appendFollow();
    // Once per distinct capture a running window reads.
    void appendCaptures();
    // The skipped windows' clocks.
    void appendIdle();
    // One accumulate pass per capture and buffer format for the decay windows that run on it.
    void appendAccumulates();
    // Each snowpack sim's dispatches, then the weather on those whose sky acts.
    void appendSnowpacks();
    // Overlapping windows of one sim made equal.
    void appendSyncs();
    // The world stores' part of the step.
    void appendWorlds();

    void add(gpu::PassRecord pass) { plan_.passes.push_back(std::move(pass)); }

    SnowField& field_;
    DeformerBatch& batch_;
    std::span<const DeformerInstance> deformers_;
    double dtSeconds_;
    std::vector<SnowField::Move> moves_;
    Moved moved_{}, contact_{}, run_{};
    StepPlan plan_;
};

StepPlan SnowField::planStep(DeformerBatch& batch, std::span<const DeformerInstance> deformers,
                             double dtSeconds) {
    if (!enabled_)
        return {};
    return StepPlanner(*this, batch, deformers, dtSeconds).plan();
}

void StepPlanner::decideRuns() {
    const SnowField& field = field_;
    moves_ = field.pendingMoves();
    for (const SnowField::Move& move : moves_)
        moved_[move.sim][move.window] = true;
    for (int i = 0; i < field.simCount(); ++i)
        for (int w = 0; w < field.windowCount(i); ++w) {
            const SimWindow& window = field.simWindow(i, w);
            const CaptureKey key = field.captureKey(i, window.centre);
            contact_[i][w] = std::any_of(deformers_.begin(), deformers_.end(), [&](const auto& d) {
                return d.mesh && ContactCapture::reaches(key, d.worldBounds);
            });
            // A snowpack sim never idles: it settles and slumps with nothing touching it.
            run_[i][w] = !field.effective_.snow.idleSkip || moved_[i][w] || contact_[i][w] ||
                         window.healBound > 0.0 || window.tagStepsLeft > 0 || field.isSnowpack(i);
        }
    for (int i = 0; i < field.simCount(); ++i)
        plan_.writes[i] = run_[i][0] || moved_[i][0];
}

void StepPlanner::appendFollow() {
    if (moves_.empty())
        return;
    gpu::PassRecord follow;
    follow.name = "follow";
    follow.stateNote = "fbo: each moving window's other buffer (shift; paging readbacks)";
    for (const SnowField::Move& move : moves_) {
        const SnowSim& sim = field_.window(move.sim, move.window);
        follow.reads.push_back({sim.bufferResource(), true});
        follow.writes.push_back(sim.bufferResource());
        if (field_.worlds_[move.sim]) {
            const std::string world = "world." + std::string(simName(move.sim));
            follow.reads.push_back({world, true});
            follow.writes.push_back(world);
        }
        if (field_.snowpacks_[move.sim]) { // the state moves with its window (SnowpackSim::shift)
            const std::string state = snowpackResource(simName(move.sim));
            follow.reads.push_back({state, true});
            follow.writes.push_back(state);
        }
    }
    follow.execute = [field = &field_, moves = moves_] {
        for (const SnowField::Move& move : moves)
            field->moveFollowing(move);
    };
    add(std::move(follow));
}

void StepPlanner::appendCaptures() {
    for (int c = 0; c < field_.captureCount(); ++c) {
        bool needed = false;
        for (int i = 0; i < field_.simCount(); ++i)
            for (int w = 0; w < field_.windowCount(i); ++w)
                needed = needed || (run_[i][w] && field_.simWindow(i, w).capture == c);
        if (!needed)
            continue;
        gpu::PassRecord capture;
        capture.name = captureName(c);
        capture.timers = {capture.name};
        ContactCapture* target = field_.captures_[c].get();
        const gpu::ShaderProgram* program =
            target->key().followsTerrain() ? field_.captureTerrainProgram_ : field_.captureProgram_;
        capture.state = target->passState(*program);
        capture.reads = {{"deformers"}};
        if (target->key().followsTerrain()) {
            // The terrain's heights under the capture's texels: made with the capture (and
            // again when it moves, in advance()), read here.
            gpu::PassBinding terrain{gpu::BindingKind::Texture, gpu::slot::kCaptureTerrain,
                                     capture.name + ".terrain", [target] {
                                         return target->terrainHeight().id();
                                     }};
            terrain.history = true;
            capture.bindings.push_back(std::move(terrain));
            capture.reads.push_back({capture.name + ".terrain", true});
        }
        capture.writes = {capture.name};
        capture.execute = [field = &field_, target, program, batch = &batch_] {
            target->draw(*batch, *program);
            ++field->passesRun_.capture;
        };
        add(std::move(capture));
    }
}

void StepPlanner::appendIdle() {
    std::vector<std::pair<int, int>> idle;
    for (int i = 0; i < field_.simCount(); ++i)
        for (int w = 0; w < field_.windowCount(i); ++w)
            if (!run_[i][w])
                idle.emplace_back(i, w);
    if (idle.empty())
        return;
    gpu::PassRecord pass;
    pass.name = "idle";
    pass.stateNote = "no GL: the idle windows' clocks step";
    for (const auto& [i, w] : idle)
        pass.name += "." + field_.window(i, w).name();
    pass.execute = [field = &field_, idle, dtSeconds = dtSeconds_] {
        for (const auto& [i, w] : idle) {
            SimWindow& window = field->windowAt(i, w);
            window.sim.idleStep(dtSeconds);
            ++window.idleSteps;
        }
    };
    add(std::move(pass));
}

// The windows of one sim sit at other places, so they have captures (and passes) of their own;
// the sims that share a capture and a format share a pass (SnowSim::stepShared).
void StepPlanner::appendAccumulates() {
    for (int c = 0; c < field_.captureCount(); ++c)
        for (BufferFormat format : {BufferFormat::R16F, BufferFormat::RGBA16F}) {
            std::vector<SnowSim*> group;
            std::vector<std::pair<int, int>> members;
            gpu::PassRecord pass;
            pass.name = "accumulate.";
            for (int i = 0; i < field_.simCount(); ++i)
                for (int w = 0; w < field_.windowCount(i); ++w) {
                    SimWindow& window = field_.windowAt(i, w);
                    if (run_[i][w] && window.capture == c && !field_.isSnowpack(i) &&
                        window.sim.settings().format == format) {
                        group.push_back(&window.sim);
                        members.emplace_back(i, w);
                        pass.name += window.sim.name();
                    }
                }
            if (group.empty())
                continue;
            const std::string capturePass = captureName(c);
            pass.timers = {pass.name};
            pass.stateNote = group.size() == 1 ? "fbo: the next buffer"
                                               : "fbo: each sim's next buffer (one output each)";
            pass.bindings = SnowSim::accumulateBindings(group, *field_.captures_[c], capturePass);
            pass.reads.push_back({capturePass});
            for (const SnowSim* sim : group) {
                pass.reads.push_back({sim->bufferResource(), true}); // the pair's previous half
                pass.writes.push_back(sim->bufferResource());
            }
            const ContactCapture* capture = field_.captures_[c].get();
            pass.execute = [field = &field_, group, members, capture, contact = contact_,
                            dtSeconds = dtSeconds_] {
                SnowSim::stepShared(group, *capture, dtSeconds, true);
                ++field->passesRun_.accumulate;
                field->passesRun_.accumulateOutputs += static_cast<long long>(group.size());
                for (const auto& [i, w] : members)
                    field->windowAt(i, w).updateHealBound(contact[i][w]);
            };
            add(std::move(pass));
        }
}

// A snowpack sim's own step on its shared capture (snow/snowpack_sim.hpp): compaction,
// ploughing, slump and settling, in place of the accumulate pass, one pass per dispatch.
// Then the weather on each snowpack sim whose sky ever acts (snow/weather_sim.hpp): snowfall,
// melt, drainage and drift on the state its snowpack passes left, with that step's contact
// flags. When the weather is active every tile of the state is active (it touches every
// texel); without [weather] its passes are not in the list.
void StepPlanner::appendSnowpacks() {
    gpu::FrameGraph graph;
    for (int i = 0; i < field_.simCount(); ++i) {
        SnowpackSim* snowpack = field_.snowpacks_[i].get();
        if (!snowpack)
            continue;
        const int c = field_.front(i).capture;
        const gpu::Texture2D& depth = field_.captures_[c]->depth();
        const gpu::TextureId capture =
            graph.texture({captureName(c), gpu::formatInfo(depth.format()).internal, depth.width(),
                           depth.height(), [field = &field_, c] {
                               return field->captures_[c]->depth().id();
                           }});
        snowpack->addStepPasses(graph, snowpackResource(simName(i)), capture, dtSeconds_);
    }
    for (int i = 0; i < field_.simCount(); ++i) {
        SnowpackSim* snowpack = field_.snowpacks_[i].get();
        if (snowpack && snowpack->weather().active())
            snowpack->weather().addPasses(graph, *snowpack, fmt::format("weather.{}", simName(i)),
                                          snowpackResource(simName(i)), dtSeconds_);
    }
    for (gpu::PassRecord& pass : graph.takePasses())
        add(std::move(pass));
}

void StepPlanner::appendSyncs() {
    for (int i = 0; i < field_.simCount(); ++i) {
        if (field_.windowCount(i) < 2)
            continue;
        gpu::PassRecord sync;
        sync.name = "sync." + std::string(simName(i));
        sync.stateNote = "copies between the windows' buffers (glCopyImageSubData)";
        for (int w = 0; w < field_.windowCount(i); ++w) {
            sync.reads.push_back({field_.window(i, w).bufferResource(), true});
            if (w > 0)
                sync.writes.push_back(field_.window(i, w).bufferResource());
        }
        sync.execute = [field = &field_, i, ran = run_[i]] {
            field->syncOverlaps(i, ran);
        };
        add(std::move(sync));
    }
}

void StepPlanner::appendWorlds() {
    for (int i = 0; i < field_.simCount(); ++i) {
        if (!field_.worlds_[i])
            continue;
        gpu::PassRecord world;
        const std::string name = "world." + std::string(simName(i));
        world.name = name;
        world.stateNote = "no draw: the store logs the step, maps finished readbacks";
        world.reads = {{field_.sim(i).bufferResource(), true}, {name, true}};
        world.writes = {name};
        world.execute = [field = &field_, i] {
            field->worlds_[i]->afterStep(field->sim(i));
        };
        add(std::move(world));
    }
}

} // namespace snowcap
