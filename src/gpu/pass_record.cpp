#include "gpu/pass_record.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <set>

namespace snowcap::gpu {

const std::string& PassRecord::timerName() const {
    static const std::string none;
    return timers.empty() ? none : timers.back();
}

const char* toString(Access access) {
    switch (access) {
    case Access::Host:
        return "host";
    case Access::Sample:
        return "sample";
    case Access::Image:
        return "image";
    case Access::Storage:
        return "storage";
    case Access::Uniform:
        return "uniform";
    case Access::Indirect:
        return "indirect";
    case Access::Attachment:
        return "attachment";
    case Access::TextureCopy:
        return "texture copy";
    case Access::BufferCopy:
        return "buffer copy";
    }
    return "?";
}

GLbitfield barrierBit(Access access) {
    switch (access) {
    case Access::Host:
        return 0;
    case Access::Sample:
        return GL_TEXTURE_FETCH_BARRIER_BIT;
    case Access::Image:
        return GL_SHADER_IMAGE_ACCESS_BARRIER_BIT;
    case Access::Storage:
        return GL_SHADER_STORAGE_BARRIER_BIT;
    case Access::Uniform:
        return GL_UNIFORM_BARRIER_BIT;
    case Access::Indirect:
        return GL_COMMAND_BARRIER_BIT;
    case Access::Attachment:
        return GL_FRAMEBUFFER_BARRIER_BIT;
    case Access::TextureCopy:
        return GL_TEXTURE_UPDATE_BARRIER_BIT;
    case Access::BufferCopy:
        return GL_BUFFER_UPDATE_BARRIER_BIT;
    }
    return 0;
}

GLenum glAccess(ImageAccess access) {
    switch (access) {
    case ImageAccess::Read:
        return GL_READ_ONLY;
    case ImageAccess::Write:
        return GL_WRITE_ONLY;
    case ImageAccess::ReadWrite:
        return GL_READ_WRITE;
    }
    return GL_READ_WRITE;
}

Access PassBinding::how() const {
    switch (kind) {
    case BindingKind::Texture:
        return Access::Sample;
    case BindingKind::Image:
        return Access::Image;
    case BindingKind::StorageBuffer:
        return Access::Storage;
    case BindingKind::UniformBlock:
        return Access::Uniform;
    }
    return Access::Host;
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
        glBindImageTexture(binding.slot, object, 0, GL_FALSE, 0, glAccess(binding.access),
                           binding.imageFormat);
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

namespace {

// A resource's content, for the write audit: the image's level 0 or the whole buffer.
std::vector<std::uint8_t> contents(const PassBinding& binding, GLuint object) {
    std::vector<std::uint8_t> bytes;
    if (!object)
        return bytes;
    if (binding.kind == BindingKind::StorageBuffer) {
        GLint64 size = 0;
        glGetNamedBufferParameteri64v(object, GL_BUFFER_SIZE, &size);
        bytes.resize(static_cast<std::size_t>(size));
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glGetNamedBufferSubData(object, 0, size, bytes.data());
    } else {
        const bool integer = binding.imageFormat == GL_R32I || binding.imageFormat == GL_R32UI ||
                             binding.imageFormat == GL_RG32UI || binding.imageFormat == GL_RGBA32UI;
        GLint width = 0, height = 0;
        glGetTextureLevelParameteriv(object, 0, GL_TEXTURE_WIDTH, &width);
        glGetTextureLevelParameteriv(object, 0, GL_TEXTURE_HEIGHT, &height);
        // Sixteen bytes a texel hold any colour format read back as RGBA floats.
        bytes.resize(static_cast<std::size_t>(width) * height * 4 * sizeof(float));
        glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
        glGetTextureImage(object, 0, integer ? GL_RGBA_INTEGER : GL_RGBA,
                          integer ? GL_UNSIGNED_INT : GL_FLOAT, static_cast<GLsizei>(bytes.size()),
                          bytes.data());
    }
    return bytes;
}

bool audited(const PassBinding& binding) {
    return (binding.kind == BindingKind::Image || binding.kind == BindingKind::StorageBuffer) &&
           !binding.writes();
}

void runList(std::span<const PassRecord> passes, PassTimer* timer,
             std::vector<std::string>* audit) {
    const Barriers barriers = deriveBarriers(passes);
    // The open timer scopes, outermost first, and the group they were opened for.
    std::vector<PassTimer::Scope> open;
    std::vector<std::string> openNames;
    int openGroup = -1;
    for (std::size_t p = 0; p < passes.size(); ++p) {
        const PassRecord& pass = passes[p];
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

        if (barriers.before[p])
            glMemoryBarrier(barriers.before[p]);
        if (pass.state)
            beginPass(*pass.state);
        if (pass.compute)
            glUseProgram(pass.compute->program);
        bindInputs(pass.bindings);
        // The GL names as bound: a pass may swap a pair, so the name is not asked again.
        std::vector<GLuint> names;
        std::vector<std::vector<std::uint8_t>> before;
        if (audit)
            for (const PassBinding& binding : pass.bindings) {
                names.push_back(binding.object ? binding.object() : 0);
                before.push_back(audited(binding) ? contents(binding, names.back())
                                                  : std::vector<std::uint8_t>{});
            }
        if (pass.execute)
            pass.execute();
        if (audit)
            for (std::size_t b = 0; b < pass.bindings.size(); ++b) {
                const PassBinding& binding = pass.bindings[b];
                if (audited(binding) && contents(binding, names[b]) != before[b])
                    audit->push_back(fmt::format("{} stores into '{}' through {} {}, declared "
                                                 "read-only",
                                                 pass.name, binding.resource,
                                                 toString(binding.kind), binding.slot));
            }
        releaseInputs(pass.bindings);
    }
    while (!open.empty())
        open.pop_back();
    if (barriers.after)
        glMemoryBarrier(barriers.after);
}

} // namespace

void runPasses(std::span<const PassRecord> passes, PassTimer* timer) {
    runList(passes, timer, nullptr);
}

std::vector<std::string> runPassesAudited(std::span<const PassRecord> passes, PassTimer* timer) {
    std::vector<std::string> audit;
    runList(passes, timer, &audit);
    return audit;
}

std::vector<ResourceUse> resourceUses(const PassRecord& pass) {
    std::vector<ResourceUse> uses;
    // History: a resource one of whose declarations in this pass says it reads what an earlier
    // frame or step left (a record may bind it and list the read apart).
    std::map<std::string, bool, std::less<>> history;
    auto use = [&](const std::string& name) -> ResourceUse& {
        for (ResourceUse& u : uses)
            if (u.name == name)
                return u;
        uses.push_back({name});
        return uses.back();
    };
    auto read = [&](const std::string& name, bool fromHistory, Access how) {
        ResourceUse& u = use(name);
        const auto [at, fresh] = history.emplace(name, fromHistory);
        if (!fresh)
            at->second = at->second || fromHistory;
        u.read = true;
        u.readBits |= barrierBit(how);
        if (how == Access::Sample || how == Access::Image || how == Access::TextureCopy ||
            how == Access::Attachment)
            u.texture = true;
    };
    for (const PassBinding& binding : pass.bindings) {
        if (binding.reads())
            read(binding.resource, binding.history, binding.how());
        if (binding.writes()) {
            ResourceUse& u = use(binding.resource);
            u.write = true;
            u.storeBits |= barrierBit(binding.how());
            // A store after another pass's stores orders against them through the same path.
            u.readBits |= barrierBit(binding.how());
            u.texture = u.texture || binding.kind == BindingKind::Image;
        }
    }
    for (const ResourceRead& r : pass.reads)
        read(r.name, r.history, r.access);
    for (const ResourceWrite& w : pass.writes) {
        ResourceUse& u = use(w.name);
        u.write = true;
        // Drawing or copying into what a shader stored into waits for those stores.
        u.readBits |= barrierBit(w.access);
        u.texture = u.texture || w.access == Access::Attachment || w.access == Access::TextureCopy;
    }
    for (ResourceUse& u : uses) {
        const auto at = history.find(u.name);
        u.history = at != history.end() && at->second;
    }
    return uses;
}

namespace {

// The two paths whose stores are incoherent, with what holds a store back until every earlier
// access has completed (glMemoryBarrier: "image stores and atomics issued after the barrier
// will not execute until all memory accesses initiated prior to the barrier complete", and the
// same of shader storage).
constexpr GLbitfield kStorePaths[] = {GL_SHADER_IMAGE_ACCESS_BARRIER_BIT,
                                      GL_SHADER_STORAGE_BARRIER_BIT};

} // namespace

Barriers deriveBarriers(std::span<const PassRecord> passes) {
    // Per resource an earlier pass stored into: the access paths a barrier has already made
    // those stores visible to (a barrier covers every resource for its bits).
    struct Pending {
        GLbitfield visibleTo = 0;
        bool texture = false;
    };
    std::map<std::string, Pending, std::less<>> pending;
    // Per store path: whether a barrier of its bit has been issued in the list, and the
    // resources touched since the last one (a store into one of them waits for it).
    struct Unordered {
        bool sinceListBegan = true;
        std::set<std::string, std::less<>> touched;
    };
    std::array<Unordered, std::size(kStorePaths)> unordered;
    Barriers barriers;
    barriers.before.reserve(passes.size());
    for (const PassRecord& pass : passes) {
        const std::vector<ResourceUse> uses = resourceUses(pass);
        GLbitfield bits = 0;
        for (const ResourceUse& u : uses) {
            if (const auto at = pending.find(u.name); at != pending.end())
                bits |= u.readBits & ~at->second.visibleTo;
            for (std::size_t k = 0; k < std::size(kStorePaths); ++k)
                if ((u.storeBits & kStorePaths[k]) &&
                    (unordered[k].sinceListBegan || unordered[k].touched.contains(u.name)))
                    bits |= kStorePaths[k];
        }
        for (auto& [name, p] : pending)
            p.visibleTo |= bits;
        for (std::size_t k = 0; k < std::size(kStorePaths); ++k)
            if (bits & kStorePaths[k])
                unordered[k] = {false, {}};
        barriers.before.push_back(bits);
        for (const ResourceUse& u : uses) {
            if (u.storeBits)
                pending[u.name] = {0, u.texture};
            for (Unordered& path : unordered)
                path.touched.insert(u.name);
        }
    }
    // What comes after the list is not known here: every path of the resource's kind.
    const GLbitfield textureBits = GL_TEXTURE_FETCH_BARRIER_BIT |
                                   GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                                   GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT;
    const GLbitfield bufferBits = GL_SHADER_STORAGE_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT |
                                  GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT;
    for (const auto& [name, p] : pending)
        barriers.after |= (p.texture ? textureBits : bufferBits) & ~p.visibleTo;
    return barriers;
}

std::vector<std::string> unorderedAccesses(std::span<const PassRecord> passes,
                                           const Barriers& barriers) {
    // Per resource, the last pass that touched it and the last that stored into it (-1: none
    // yet): a barrier after them is after every earlier one too.
    struct Last {
        std::ptrdiff_t touched = -1, stored = -1;
    };
    std::map<std::string, Last, std::less<>> last;
    // Per barrier bit, the last pass so far that a barrier with it went before (-1: none yet).
    // A barrier of bit b lies between pass i and the current pass exactly when that is past i.
    constexpr int kBits = 32;
    std::array<std::ptrdiff_t, kBits> lastBarrier;
    lastBarrier.fill(-1);
    const auto unordered = [&](GLbitfield bits, std::ptrdiff_t after) {
        GLbitfield missing = 0;
        for (int b = 0; b < kBits; ++b)
            if ((bits >> b & 1u) && lastBarrier[static_cast<std::size_t>(b)] <= after)
                missing |= GLbitfield(1u) << b;
        return missing;
    };
    std::vector<std::string> problems;
    for (std::size_t j = 0; j < passes.size(); ++j) {
        const GLbitfield issued = j < barriers.before.size() ? barriers.before[j] : 0;
        for (int b = 0; b < kBits; ++b)
            if (issued >> b & 1u)
                lastBarrier[static_cast<std::size_t>(b)] = static_cast<std::ptrdiff_t>(j);
        const std::vector<ResourceUse> uses = resourceUses(passes[j]);
        for (const ResourceUse& u : uses) {
            const Last at = last[u.name];
            if (at.stored >= 0)
                if (const GLbitfield missing = unordered(u.readBits, at.stored))
                    problems.push_back(
                        fmt::format("{} {} '{}' after {} stored into it: no {} barrier between",
                                    passes[j].name, u.read ? "reads" : "writes", u.name,
                                    passes[static_cast<std::size_t>(at.stored)].name,
                                    describeBarrier(missing)));
            if (const GLbitfield missing = unordered(u.storeBits, at.touched))
                problems.push_back(
                    at.touched >= 0
                        ? fmt::format("{} stores into '{}' after {} touched it: no {} barrier "
                                      "between",
                                      passes[j].name, u.name,
                                      passes[static_cast<std::size_t>(at.touched)].name,
                                      describeBarrier(missing))
                        : fmt::format("{} stores into '{}', which what ran before the list may "
                                      "still touch: no {} barrier since the list began",
                                      passes[j].name, u.name, describeBarrier(missing)));
        }
        for (const ResourceUse& u : uses) {
            Last& at = last[u.name];
            at.touched = static_cast<std::ptrdiff_t>(j);
            if (u.storeBits)
                at.stored = static_cast<std::ptrdiff_t>(j);
        }
    }
    return problems;
}

std::vector<std::string> unwrittenReads(std::span<const PassRecord> passes,
                                        std::span<const std::string> given) {
    std::set<std::string, std::less<>> written(given.begin(), given.end());
    std::vector<std::string> missing;
    for (const PassRecord& pass : passes) {
        const std::vector<ResourceUse> uses = resourceUses(pass);
        for (const ResourceUse& u : uses)
            if (u.read && !u.history && !written.contains(u.name))
                missing.push_back(fmt::format("{} reads '{}'", pass.name, u.name));
        for (const ResourceUse& u : uses)
            if (u.write)
                written.insert(u.name);
    }
    return missing;
}

std::vector<std::string> undeclaredInputs(std::span<const PassRecord> passes) {
    std::vector<std::string> missing;
    for (const PassRecord& pass : passes) {
        const GLuint program =
            pass.compute ? pass.compute->program : (pass.state ? pass.state->program : 0);
        if (!program)
            continue;
        for (const ProgramSlot& slot : programSlots(program)) {
            // A draw's storage buffers are the deformer batch's, bound at each draw
            // (snow/deformer_batch.cpp), and the wind's, bound once when uploaded.
            if (!pass.compute && slot.kind == BindingKind::StorageBuffer)
                continue;
            const bool bound =
                std::any_of(pass.bindings.begin(), pass.bindings.end(), [&](const auto& b) {
                    return b.kind == slot.kind && b.slot == slot.slot;
                });
            if (!bound)
                missing.push_back(fmt::format("{} uses {} '{}' at {} and does not declare it",
                                              pass.name, toString(slot.kind), slot.glslName,
                                              slot.slot));
        }
    }
    return missing;
}

} // namespace snowcap::gpu
