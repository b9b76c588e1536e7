#pragma once
// The frame graph's front end (after Filament's FrameGraph and Granite's render graph): the
// resources are registered once, each with its kind, format and size and the GL name it has
// when a pass runs, and get a typed id; a pass is added with addPass(name, setup, execute), and
// in setup it declares through a builder what it samples, loads or stores as an image, uses as
// a storage or uniform buffer, reads from an earlier frame (history) and writes. The
// declaration is the binding: the builder turns each into the PassRecord binding that
// runPasses binds, that the read-before-write check reads and that the barriers are derived
// from (gpu/pass_record.hpp). execute only draws or dispatches.
//
//     gpu::FrameGraph graph;
//     const gpu::TextureId state = graph.texture({"snowpack.a", GL_RGBA32F, n, n, stateId});
//     const gpu::BufferId block = graph.buffer({"snowpack.a.block", 64, blockId});
//     graph.addPass("snowpack.a.compact", [&](gpu::PassBuilder& pass) {
//         pass.compute(compactProgram);
//         pass.uniform(block, gpu::slot::kSnowpack);
//         pass.image(state, gpu::slot::kSnowpackState, gpu::ImageAccess::ReadWrite);
//     }, [] { gpu::dispatchCompute({tiles, tiles, 1}); });
//     gpu::runPasses(graph.passes());

#include "gpu/pass_record.hpp"

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace snowcap::gpu {

// What a resource is: a texture (sampled, an image, an attachment, copied), a buffer (storage,
// uniform, indirect commands, copied), or data that is not a GL object (on the CPU).
enum class ResourceKind { Texture, Buffer, Host };
const char* toString(ResourceKind kind);

struct ResourceDesc {
    std::string name;
    ResourceKind kind = ResourceKind::Host;
    GLenum format = 0;         // textures: the internal format (images are bound with it)
    int width = 0, height = 0; // textures
    std::size_t bytes = 0;     // buffers
    // The GL name when a pass runs (a ping-pong pair swaps, so it is asked then, not now).
    std::function<GLuint()> object;
};

// Typed ids: a texture id cannot be given where a buffer is bound.
template <ResourceKind K> struct ResourceId {
    int index = -1;
    explicit operator bool() const { return index >= 0; }
};
using TextureId = ResourceId<ResourceKind::Texture>;
using BufferId = ResourceId<ResourceKind::Buffer>;
using HostId = ResourceId<ResourceKind::Host>;

struct TextureDesc {
    std::string name;
    GLenum format = 0;
    int width = 0, height = 0;
    std::function<GLuint()> object;
};
struct BufferDesc {
    std::string name;
    std::size_t bytes = 0;
    std::function<GLuint()> object;
};

// Declares one pass (addPass's setup gets one).
class PassBuilder {
public:
    PassBuilder(PassRecord& record, std::span<const ResourceDesc> resources)
        : record_(record), resources_(resources) {}
    // A draw's whole state, or a compute pass's program.
    void state(const PassState& state) { record_.state = state; }
    void compute(GLuint program) { record_.compute = ComputeState{program}; }
    void note(std::string text) { record_.stateNote = std::move(text); }
    void timers(std::vector<std::string> scopes) { record_.timers = std::move(scopes); }

    // Sampled on `slot` (texelFetch or filtered; `sampler` as PassBinding::sampler; `object`
    // as for image()).
    void sample(TextureId texture, unsigned slot, std::function<GLuint()> sampler = {},
                std::function<GLuint()> object = {});
    // Loaded and/or stored as an image on `slot`, in the texture's own format. `object`: the
    // GL name to bind instead of the resource's own (the other half of a ping-pong pair that
    // is declared as one resource).
    void image(TextureId texture, unsigned slot, ImageAccess access,
               std::function<GLuint()> object = {});
    void storage(BufferId buffer, unsigned slot, ImageAccess access);
    void uniform(BufferId buffer, unsigned slot);
    // The indirect command a dispatch reads from the buffer.
    void indirect(BufferId buffer);
    // Every read of the resource in this pass is of what an earlier frame or step left.
    template <ResourceKind K> void history(ResourceId<K> resource) {
        history_.push_back(name(resource.index));
    }
    // Written without a binding: drawn into (Attachment), cleared or copied into
    // (TextureCopy / BufferCopy), or on the CPU (Host).
    template <ResourceKind K> void write(ResourceId<K> resource, Access how) {
        record_.writes.push_back({name(resource.index), how});
    }
    // Read without a binding: a copy's source, a framebuffer's contents, CPU data.
    template <ResourceKind K> void read(ResourceId<K> resource, Access how) {
        record_.reads.push_back({name(resource.index), false, how});
    }

private:
    friend class FrameGraph;
    const std::string& name(int index) const;
    std::function<GLuint()> object(int index) const;
    void finish(); // marks the history reads

    PassRecord& record_;
    std::span<const ResourceDesc> resources_;
    std::vector<std::string> history_;
};

class FrameGraph {
public:
    // Registers a resource once: a second registration of a name returns the first's id if
    // it describes the same resource, and is reported by problems() if not.
    TextureId texture(TextureDesc desc);
    BufferId buffer(BufferDesc desc);
    HostId host(std::string name);

    // The pass: setup declares, execute draws or dispatches.
    void addPass(std::string name, const std::function<void(PassBuilder&)>& setup,
                 std::function<void()> execute);
    // A pass declared as a record (its bindings, reads and writes by name).
    void add(PassRecord record) { passes_.push_back(std::move(record)); }

    std::span<const PassRecord> passes() const { return passes_; }
    std::vector<PassRecord> takePasses() { return std::move(passes_); }
    std::span<const ResourceDesc> resources() const { return resources_; }
    const ResourceDesc& resource(int index) const { return resources_[index]; }
    std::optional<int> find(std::string_view name) const;
    // Registration conflicts, one line each.
    std::span<const std::string> problems() const { return problems_; }

private:
    int add(ResourceDesc desc);

    std::vector<ResourceDesc> resources_;
    std::vector<PassRecord> passes_;
    std::vector<std::string> problems_;
};

// GL_MAX_COMPUTE_WORK_GROUP_COUNT along x, y and z, asked of the driver once. Every driver
// takes at least 65,535 groups along each axis; a pass whose group count grows with the
// buffer past that folds its dispatch into rows (the snowpack's tile lists).
std::array<unsigned, 3> maxComputeGroups();
// A compute pass's dispatch of x * y * z groups. In debug builds a count past the driver's
// limit is one log line (the driver would drop the dispatch or fail it).
void dispatchCompute(unsigned x, unsigned y = 1, unsigned z = 1);
// Reads a buffer back after whatever shaders stored into it (the buffer-update barrier first).
void readBuffer(GLuint buffer, std::size_t offset, std::size_t bytes, void* out);
// A compute pass's value for a uint uniform of its program.
void setUniform(GLuint program, GLint location, GLuint value);

// The check every list gets before it runs in debug builds (runChecked): every read after a
// write or history (unwrittenReads; `given`: what was written before the list), and every
// hazard ordered by the barriers derived for it (unorderedAccesses). One line a problem.
std::vector<std::string> checkPasses(std::span<const PassRecord> passes,
                                     std::span<const std::string> given = {});
// Runs a list (gpu::runPasses). In debug builds it is checked first (checkPasses, after
// `problems`: a graph's registration conflicts), one log line a problem, and runs all the same.
// The frame's list (render/frame.cpp) and each graph run on its own go through here.
void runChecked(std::span<const PassRecord> passes, PassTimer* timer = nullptr,
                std::span<const std::string> given = {},
                std::span<const std::string> problems = {});
// A graph's passes through runChecked, with its registration problems.
void runGraph(const FrameGraph& graph, PassTimer* timer = nullptr,
              std::span<const std::string> given = {});
// An indirect dispatch of the command at `offset` in `commands` (bound only for the call).
void dispatchIndirect(GLuint commands, std::size_t offset);

} // namespace snowcap::gpu
