#pragma once
// A pass as data plus one function (after Filament's FrameGraph addPass(setup, execute) and
// Granite's render-graph inputs/outputs): its name, the timer scopes it runs in, its whole
// PassState (or ComputeState), its bindings (slot -> texture, image, storage buffer or uniform
// block), the resources it reads and writes by name with how it touches them, and an execute
// function that only draws or dispatches. The frame (render/frame.hpp) builds its list of
// records once (gpu/frame_graph.hpp declares a pass through a builder), then one loop,
// runPasses, issues the memory barrier the declarations call for, applies each record's state,
// binds its inputs, opens its timer scopes and executes it. Whatever a pass samples is in its
// bindings, so no pass depends on what another left bound; a binding is a read (or, for an
// image or storage buffer declared so, a write) of its resource.

#include "gpu/binding_slots.hpp"
#include "gpu/pass_state.hpp"
#include "gpu/timers.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace snowcap::gpu {

// How a pass touches a resource. What matters is which path of the GL a later access takes:
// writes through an image or a storage buffer are incoherent (a later pass sees them only after
// a glMemoryBarrier with the bit of ITS access), every other write is ordered by the GL itself.
enum class Access : std::uint8_t {
    Host,        // on the CPU (deformer records, physics bodies, a store's tiles): no barrier
    Sample,      // texture fetch through a texture unit    -> GL_TEXTURE_FETCH_BARRIER_BIT
    Image,       // image load / store                      -> GL_SHADER_IMAGE_ACCESS_BARRIER_BIT
    Storage,     // shader storage buffer                   -> GL_SHADER_STORAGE_BARRIER_BIT
    Uniform,     // uniform block                           -> GL_UNIFORM_BARRIER_BIT
    Indirect,    // indirect dispatch or draw command       -> GL_COMMAND_BARRIER_BIT
    Attachment,  // drawn into, or depth-tested, as a framebuffer attachment
                 //                                         -> GL_FRAMEBUFFER_BARRIER_BIT
    TextureCopy, // glClearTexImage, glCopyImageSubData, glGetTextureImage, glTextureSubImage
                 //                                         -> GL_TEXTURE_UPDATE_BARRIER_BIT
    BufferCopy,  // glClearNamedBufferData, glNamedBufferSubData, glGetNamedBufferSubData
                 //                                         -> GL_BUFFER_UPDATE_BARRIER_BIT
};
const char* toString(Access access);
// The barrier bit that makes earlier shader writes visible to a later access of this kind.
GLbitfield barrierBit(Access access);

// What an image or storage binding does with its resource.
enum class ImageAccess : std::uint8_t { Read, Write, ReadWrite };
GLenum glAccess(ImageAccess access);

// What a compute pass needs set before its execute dispatches: the program (beside PassState,
// which describes a draw's whole state: a compute pass touches no framebuffer state).
struct ComputeState {
    GLuint program = 0;
};

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
    // Images and storage buffers: whether the pass loads, stores or both (a store is a write
    // of the resource, and an incoherent one: later readers need a barrier).
    ImageAccess access = ImageAccess::Read;
    GLenum imageFormat = GL_R16F; // images: the format the shader declares
    // The binding reads what an earlier frame or step left (see ResourceRead::history).
    bool history = false;

    bool reads() const { return access != ImageAccess::Write; }
    bool writes() const {
        return (kind == BindingKind::Image || kind == BindingKind::StorageBuffer) &&
               access != ImageAccess::Read;
    }
    Access how() const;
};

// A resource read: `history` marks one that the pass reads as an earlier frame or step left it
// (the persistent buffer's previous half, a blurred copy still current), which nothing before
// it in this frame need write.
struct ResourceRead {
    std::string name;
    bool history = false;
    Access access = Access::Host; // how, when not through a binding (a copy's source)
};

// A resource write that is not a binding: drawn into (Attachment), cleared or copied into
// (TextureCopy, BufferCopy), or changed on the CPU (Host).
struct ResourceWrite {
    ResourceWrite(std::string resource, Access how = Access::Host)
        : name(std::move(resource)), access(how) {}
    ResourceWrite(const char* resource, Access how = Access::Host) : name(resource), access(how) {}
    std::string name;
    Access access = Access::Host;
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
    std::optional<ComputeState> compute; // a compute pass: its program (and no PassState)
    std::string stateNote;
    std::vector<PassBinding> bindings;
    std::vector<ResourceRead> reads;
    std::vector<ResourceWrite> writes;
    std::function<void()> execute;

    const std::string& timerName() const;
};

// Every resource a pass touches, once each, from its bindings, reads and writes (a binding is
// a read and, when it stores, a write): what the checks and the barriers work on.
struct ResourceUse {
    std::string name;
    bool read = false, write = false;
    bool history = false;    // a declaration says it reads what an earlier frame left
    GLbitfield readBits = 0; // the barrier bits of its accesses (what a barrier must cover)
    // Stored through an image or a storage buffer (incoherent): the bit of that path
    // (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT, GL_SHADER_STORAGE_BARRIER_BIT), 0 for none.
    GLbitfield storeBits = 0;
    bool texture = false; // a texture (not a buffer): what its pending writes reach
};
std::vector<ResourceUse> resourceUses(const PassRecord& pass);

// The memory barriers a list needs, derived from its declarations: before[i] goes before pass
// i; `after` at the end of the list makes every write still pending visible to whatever comes
// next (the next frame, a read-back for stats or outputs), by every path its kind allows.
// Read after write: a pass that touches what an earlier one stored through an image or a
// storage buffer waits for those stores by the path of its own access. Write after read: a
// pass that stores through an image (a storage buffer) into what an earlier pass touched
// waits for that access with the image (storage) bit, the one that holds later stores back
// until every earlier access has completed; what ran before the list may have touched
// anything, so the first such store of a list waits for the list's first barrier of its bit.
struct Barriers {
    std::vector<GLbitfield> before;
    GLbitfield after = 0;
};
Barriers deriveBarriers(std::span<const PassRecord> passes);
std::string describeBarrier(GLbitfield bits);
// The check of `barriers` against `passes`, pair by pair as the rules above state them: each
// access after a store with no barrier of the access's bit between, each store after an access
// (or since the list began) with no barrier of the store's bit between, as "pass stores into
// 'resource' after earlier touched it: no image barrier between", in order. Empty for the
// derived barriers; a barrier left out or a bit dropped fails here.
std::vector<std::string> unorderedAccesses(std::span<const PassRecord> passes,
                                           const Barriers& barriers);

// Binds each binding (what the loop does before a pass's execute), and afterwards puts the
// samplers they set back to 0: for the code that runs one pass on its own (SnowSim::blur).
void bindInputs(std::span<const PassBinding> bindings);
void releaseInputs(std::span<const PassBinding> bindings);

// Runs the passes in order: timer scopes, the derived barrier, state, bindings, execute;
// afterwards every sampler a binding set goes back to 0 (a texture's own filtering for whoever
// binds that unit next), and the final barrier of the list is issued.
void runPasses(std::span<const PassRecord> passes, PassTimer* timer = nullptr);

// What the list says about itself: its passes in order.
std::string describeState(const PassRecord& pass);
std::string describeBindings(const PassRecord& pass);
// The reads that nothing earlier in `passes` writes and that are not history inputs, as
// "pass reads 'resource'", in order. Empty for a well-formed frame. `given`: resources written
// before the list runs (a step run on its own reads what the frame's earlier passes wrote).
std::vector<std::string> unwrittenReads(std::span<const PassRecord> passes,
                                        std::span<const std::string> given = {});
// Needs a GL context: every sampler, image, uniform block and storage block (of a compute
// pass: a draw's storage buffers are the deformer batch's) the pass's program uses is bound by
// one of its bindings, as "pass uses image 'state' at 0 and does not declare
// it", in order. A read left out of a declaration fails here.
std::vector<std::string> undeclaredInputs(std::span<const PassRecord> passes);
// runPasses that also audits the declared writes (needs a context; for tests and debugging, it
// reads every image and storage buffer a pass binds read-only back before and after the pass):
// one line per pass that changed what it declared it only reads, "pass stores into 'resource'
// through storage buffer 4, declared read-only". Such a write would get no barrier.
std::vector<std::string> runPassesAudited(std::span<const PassRecord> passes,
                                          PassTimer* timer = nullptr);

} // namespace snowcap::gpu
