#include "gpu/frame_graph.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace snowcap::gpu {

const char* toString(ResourceKind kind) {
    switch (kind) {
    case ResourceKind::Texture:
        return "texture";
    case ResourceKind::Buffer:
        return "buffer";
    case ResourceKind::Host:
        return "host data";
    }
    return "?";
}

const std::string& PassBuilder::name(int index) const {
    return resources_[static_cast<std::size_t>(index)].name;
}

std::function<GLuint()> PassBuilder::object(int index) const {
    return resources_[static_cast<std::size_t>(index)].object;
}

void PassBuilder::finish() {
    const auto inHistory = [this](const std::string& resource) {
        return std::find(history_.begin(), history_.end(), resource) != history_.end();
    };
    for (PassBinding& binding : record_.bindings)
        binding.history = binding.history || inHistory(binding.resource);
    for (ResourceRead& read : record_.reads)
        read.history = read.history || inHistory(read.name);
}

void PassBuilder::sample(TextureId texture, unsigned slot, std::function<GLuint()> sampler,
                         std::function<GLuint()> object) {
    PassBinding binding{BindingKind::Texture, slot, name(texture.index),
                        object ? std::move(object) : this->object(texture.index),
                        std::move(sampler)};
    record_.bindings.push_back(std::move(binding));
}

void PassBuilder::image(TextureId texture, unsigned slot, ImageAccess access,
                        std::function<GLuint()> object) {
    PassBinding binding{BindingKind::Image, slot, name(texture.index),
                        object ? std::move(object) : this->object(texture.index)};
    binding.access = access;
    binding.imageFormat = resources_[static_cast<std::size_t>(texture.index)].format;
    record_.bindings.push_back(std::move(binding));
}

void PassBuilder::storage(BufferId buffer, unsigned slot, ImageAccess access) {
    PassBinding binding{BindingKind::StorageBuffer, slot, name(buffer.index), object(buffer.index)};
    binding.access = access;
    record_.bindings.push_back(std::move(binding));
}

void PassBuilder::uniform(BufferId buffer, unsigned slot) {
    PassBinding binding{BindingKind::UniformBlock, slot, name(buffer.index), object(buffer.index)};
    record_.bindings.push_back(std::move(binding));
}

void PassBuilder::indirect(BufferId buffer) {
    record_.reads.push_back({name(buffer.index), false, Access::Indirect});
}

int FrameGraph::add(ResourceDesc desc) {
    if (const std::optional<int> existing = find(desc.name)) {
        const ResourceDesc& old = resources_[static_cast<std::size_t>(*existing)];
        if (old.kind != desc.kind || old.format != desc.format || old.width != desc.width ||
            old.height != desc.height || old.bytes != desc.bytes)
            problems_.push_back(fmt::format(
                "resource '{}' registered twice: as {} {}x{} format {:#x} ({} bytes), then as "
                "{} {}x{} format {:#x} ({} bytes)",
                desc.name, toString(old.kind), old.width, old.height, old.format, old.bytes,
                toString(desc.kind), desc.width, desc.height, desc.format, desc.bytes));
        return *existing;
    }
    resources_.push_back(std::move(desc));
    return static_cast<int>(resources_.size()) - 1;
}

TextureId FrameGraph::texture(TextureDesc desc) {
    return {add({std::move(desc.name), ResourceKind::Texture, desc.format, desc.width, desc.height,
                 0, std::move(desc.object)})};
}

BufferId FrameGraph::buffer(BufferDesc desc) {
    return {add(
        {std::move(desc.name), ResourceKind::Buffer, 0, 0, 0, desc.bytes, std::move(desc.object)})};
}

HostId FrameGraph::host(std::string name) {
    return {add({std::move(name), ResourceKind::Host})};
}

std::optional<int> FrameGraph::find(std::string_view name) const {
    for (std::size_t i = 0; i < resources_.size(); ++i)
        if (resources_[i].name == name)
            return static_cast<int>(i);
    return std::nullopt;
}

void FrameGraph::addPass(std::string name, const std::function<void(PassBuilder&)>& setup,
                         std::function<void()> execute) {
    PassRecord record;
    record.name = std::move(name);
    PassBuilder builder(record, resources_);
    if (setup)
        setup(builder);
    builder.finish();
    record.execute = std::move(execute);
    passes_.push_back(std::move(record));
}

std::array<unsigned, 3> maxComputeGroups() {
    static const std::array<unsigned, 3> limit = [] {
        std::array<unsigned, 3> axes{};
        for (GLuint axis = 0; axis < 3; ++axis) {
            GLint groups = 0;
            glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, axis, &groups);
            axes[axis] = static_cast<unsigned>(std::max(groups, 0));
        }
        return axes;
    }();
    return limit;
}

void dispatchCompute(unsigned x, unsigned y, unsigned z) {
#ifndef NDEBUG
    const std::array<unsigned, 3> limit = maxComputeGroups();
    if (x > limit[0] || y > limit[1] || z > limit[2])
        spdlog::error("dispatch of {} x {} x {} groups: past the driver's {} x {} x {}", x, y, z,
                      limit[0], limit[1], limit[2]);
#endif
    glDispatchCompute(x, y, z);
}

void readBuffer(GLuint buffer, std::size_t offset, std::size_t bytes, void* out) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(buffer, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes),
                            out);
}

void setUniform(GLuint program, GLint location, GLuint value) {
    glProgramUniform1ui(program, location, value);
}

std::vector<std::string> checkPasses(std::span<const PassRecord> passes,
                                     std::span<const std::string> given) {
    std::vector<std::string> problems = unwrittenReads(passes, given);
    for (std::string& hazard : unorderedAccesses(passes, deriveBarriers(passes)))
        problems.push_back(std::move(hazard));
    return problems;
}

void runChecked(std::span<const PassRecord> passes, PassTimer* timer,
                std::span<const std::string> given, std::span<const std::string> problems) {
#ifndef NDEBUG
    for (const std::string& problem : problems)
        spdlog::error("frame graph: {}", problem);
    for (const std::string& problem : checkPasses(passes, given))
        spdlog::error("frame graph: {}", problem);
#else
    (void)given;
    (void)problems;
#endif
    runPasses(passes, timer);
}

void runGraph(const FrameGraph& graph, PassTimer* timer, std::span<const std::string> given) {
    runChecked(graph.passes(), timer, given, graph.problems());
}

void dispatchIndirect(GLuint commands, std::size_t offset) {
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, commands);
    glDispatchComputeIndirect(static_cast<GLintptr>(offset));
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
}

} // namespace snowcap::gpu
