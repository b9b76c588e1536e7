#include "gpu/pass_record.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace snowcap::gpu {

const std::string& PassRecord::timerName() const {
    static const std::string none;
    return timers.empty() ? none : timers.back();
}

namespace {

void bind(const PassBinding& binding) {
    const GLuint object = binding.object ? binding.object() : 0;
    switch (binding.kind) {
    case BindingKind::Texture:
        glBindTextureUnit(binding.slot, object);
        if (binding.sampler)
            glBindSampler(binding.slot, binding.sampler());
        break;
    case BindingKind::Image:
        glBindImageTexture(binding.slot, object, 0, GL_FALSE, 0, GL_READ_WRITE, GL_R16F);
        break;
    case BindingKind::StorageBuffer:
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding.slot, object);
        break;
    case BindingKind::UniformBlock:
        glBindBufferBase(GL_UNIFORM_BUFFER, binding.slot, object);
        break;
    }
}

} // namespace

void bindInputs(std::span<const PassBinding> bindings) {
    for (const PassBinding& binding : bindings)
        bind(binding);
}

void releaseInputs(std::span<const PassBinding> bindings) {
    for (const PassBinding& binding : bindings)
        if (binding.kind == BindingKind::Texture && binding.sampler)
            glBindSampler(binding.slot, 0);
}

void runPasses(std::span<const PassRecord> passes, PassTimer* timer) {
    // The open timer scopes, outermost first, and the group they were opened for.
    std::vector<PassTimer::Scope> open;
    std::vector<std::string> openNames;
    int openGroup = -1;
    for (const PassRecord& pass : passes) {
        // Close what this pass does not share with the one before, innermost first.
        std::size_t keep = 0;
        if (pass.group == openGroup)
            while (keep < openNames.size() && keep < pass.timers.size() &&
                   openNames[keep] == pass.timers[keep])
                ++keep;
        while (open.size() > keep) {
            open.pop_back();
            openNames.pop_back();
        }
        for (std::size_t s = keep; s < pass.timers.size(); ++s) {
            open.emplace_back(timer, pass.timers[s]);
            openNames.push_back(pass.timers[s]);
        }
        openGroup = pass.group;

        if (pass.state)
            beginPass(*pass.state);
        bindInputs(pass.bindings);
        if (pass.execute)
            pass.execute();
        releaseInputs(pass.bindings);
    }
    while (!open.empty())
        open.pop_back();
}

std::string describeState(const PassRecord& pass) {
    if (!pass.state)
        return pass.stateNote.empty() ? "-" : pass.stateNote;
    const PassState& s = *pass.state;
    std::vector<std::string> parts;
    parts.push_back(s.framebuffer == 0 ? "window" : "fbo");
    if (s.scissorToViewport)
        parts.push_back("scissor");
    if (s.depthTest != DepthTest::Off)
        parts.push_back(s.depthTest == DepthTest::Less ? "depth <" : "depth <=");
    if (s.depthWrite)
        parts.push_back("depth write");
    if (s.blend == Blend::Alpha)
        parts.push_back("blend");
    if (s.cullBackFaces)
        parts.push_back("cull");
    if (s.programPointSize)
        parts.push_back("program point size");
    if (s.clearColour)
        parts.push_back("clear colour");
    if (s.clearDepth)
        parts.push_back("clear depth");
    if (!pass.stateNote.empty())
        parts.push_back(pass.stateNote);
    std::string out;
    for (const std::string& part : parts)
        out += (out.empty() ? "" : ", ") + part;
    return out;
}

std::string describeBindings(const PassRecord& pass) {
    std::string out;
    for (const PassBinding& b : pass.bindings)
        out += fmt::format("{}{} {}: {}", out.empty() ? "" : ", ", toString(b.kind), b.slot,
                           b.resource);
    return out.empty() ? "-" : out;
}

std::vector<std::string> unwrittenReads(std::span<const PassRecord> passes) {
    std::set<std::string, std::less<>> written;
    std::vector<std::string> missing;
    for (const PassRecord& pass : passes) {
        for (const ResourceRead& read : pass.reads)
            if (!read.history && !written.contains(read.name))
                missing.push_back(fmt::format("{} reads '{}'", pass.name, read.name));
        written.insert(pass.writes.begin(), pass.writes.end());
    }
    return missing;
}

} // namespace snowcap::gpu
