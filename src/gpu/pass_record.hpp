#pragma once
// A pass as data plus one function (after Filament's FrameGraph addPass(setup, execute) and
// Granite's render-graph inputs/outputs): its name, the timer scopes it runs in, its whole
// PassState, its bindings (slot -> texture, image, storage buffer or uniform block), the
// resources it reads and writes by name, and an execute function that only draws. The frame
// (render/frame.hpp) builds its list of records once, then one loop, runPasses, applies each
// record's state, binds its inputs, opens its timer scopes and executes it. Whatever a pass
// samples is in its bindings, so no pass depends on what another left bound.

#include "gpu/binding_slots.hpp"
#include "gpu/pass_state.hpp"
#include "gpu/timers.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace snowcap::gpu {

// One binding: what goes on a slot when the pass runs. The object is looked up then (a sim's
// buffer pair swaps with every accumulate, so "its current buffer" is a question for the
// moment the pass runs, not for when the list was built).
struct PassBinding {
    BindingKind kind = BindingKind::Texture;
    unsigned slot = 0;
    std::string resource;           // the resource's name, as in reads / writes
    std::function<GLuint()> object; // the GL name to bind
    // Textures: the sampler to bind with it (returning 0: the texture's own filtering, said
    // explicitly), reset to 0 after the pass; none: the pass only reads texels (texelFetch).
    std::function<GLuint()> sampler = {};
};

// A resource read: `history` marks one that the pass reads as an earlier frame or step left it
// (the persistent buffer's previous half, a blurred copy still current), which nothing before
// it in this frame need write.
struct ResourceRead {
    std::string name;
    bool history = false;
};

struct PassRecord {
    std::string name; // the pass; its timer name is timers.back()
    // The timer scopes it runs in, outermost first ("view A", "view.surface",
    // "view.surface.shade"); empty: untimed. Consecutive passes of the same group share the
    // scopes they have in common, so a scope opens once around all of them.
    std::vector<std::string> timers;
    int group = -1; // which view (or -1: the frame's own passes): scopes never span groups
    // The state the loop applies before execute. None: the pass draws into several targets in
    // turn and begins each with its own state (stateNote says which).
    std::optional<PassState> state;
    std::string stateNote;
    std::vector<PassBinding> bindings;
    std::vector<ResourceRead> reads;
    std::vector<std::string> writes;
    std::function<void()> execute;

    const std::string& timerName() const;
};

// Binds each binding (what the loop does before a pass's execute), and afterwards puts the
// samplers they set back to 0: for the code that runs one pass on its own (SnowSim::blur).
void bindInputs(std::span<const PassBinding> bindings);
void releaseInputs(std::span<const PassBinding> bindings);

// Runs the passes in order: timer scopes, state, bindings, execute; afterwards every sampler a
// binding set goes back to 0 (a texture's own filtering for whoever binds that unit next).
void runPasses(std::span<const PassRecord> passes, PassTimer* timer = nullptr);

// What the list says about itself: its passes in order.
std::string describeState(const PassRecord& pass);
std::string describeBindings(const PassRecord& pass);
// The reads that nothing earlier in `passes` writes and that are not history inputs, as
// "pass reads 'resource'", in order. Empty for a well-formed frame.
std::vector<std::string> unwrittenReads(std::span<const PassRecord> passes);

} // namespace snowcap::gpu
