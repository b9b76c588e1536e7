#include "snow/texel_readbacks.hpp"

#include <algorithm>
#include <chrono>

namespace snowcap {

void TexelReadbacks::queue(GLuint texture, glm::ivec2 local, const TexelRect& rect, long long stamp,
                           const TexelLayout& layout, const Sink& sink) {
    const std::size_t bytes =
        static_cast<std::size_t>(rect.size.x) * rect.size.y * layout.texelBytes;
    Readback readback;
    auto spare = std::find_if(spare_.begin(), spare_.end(),
                              [&](const Readback& r) { return r.capacity >= bytes; });
    if (spare != spare_.end()) {
        readback = std::move(*spare);
        spare_.erase(spare);
    } else {
        GLuint id = 0;
        glCreateBuffers(1, &id);
        glNamedBufferStorage(id, static_cast<GLsizeiptr>(bytes), nullptr, GL_MAP_READ_BIT);
        readback.pbo = gpu::UniqueName<gpu::ObjectKind::Buffer>(id);
        readback.capacity = bytes;
    }
    readback.bytes = bytes;
    readback.rect = rect;
    readback.stamp = stamp;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, readback.pbo.id());
    glGetTextureSubImage(texture, 0, local.x, local.y, 0, rect.size.x, rect.size.y, 1,
                         layout.format, layout.type, static_cast<GLsizei>(bytes), nullptr);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    readback.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    inFlight_.push_back(std::move(readback));
    ++cost_.readbacks;
    while (inFlight_.size() > kMaxInFlight)
        completeFront(true, sink);
}

void TexelReadbacks::complete(Readback& readback, bool wait, const Sink& sink) {
    const auto start = std::chrono::steady_clock::now();
    if (readback.fence) {
        glClientWaitSync(readback.fence, GL_SYNC_FLUSH_COMMANDS_BIT,
                         wait ? GLuint64(10'000'000'000) : 0);
        glDeleteSync(readback.fence);
        readback.fence = nullptr;
    }
    const auto* mapped = static_cast<const std::byte*>(glMapNamedBufferRange(
        readback.pbo.id(), 0, static_cast<GLsizeiptr>(readback.bytes), GL_MAP_READ_BIT));
    if (mapped) {
        sink(readback.rect, readback.stamp, {mapped, readback.bytes});
        glUnmapNamedBuffer(readback.pbo.id());
    }
    cost_.completeS +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void TexelReadbacks::completeFront(bool wait, const Sink& sink) {
    complete(inFlight_.front(), wait, sink);
    spare_.push_back(std::move(inFlight_.front()));
    inFlight_.pop_front();
}

void TexelReadbacks::completeReady(const Sink& sink) {
    while (!inFlight_.empty()) {
        const GLenum state =
            glClientWaitSync(inFlight_.front().fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
        if (state != GL_ALREADY_SIGNALED && state != GL_CONDITION_SATISFIED)
            break;
        completeFront(false, sink);
    }
}

void TexelReadbacks::completeOverlapping(std::span<const TexelRect> rects, const Sink& sink) {
    std::size_t needed = 0;
    for (std::size_t i = 0; i < inFlight_.size(); ++i)
        for (const TexelRect& rect : rects)
            if (inFlight_[i].rect.overlaps(rect))
                needed = i + 1;
    for (std::size_t i = 0; i < needed; ++i) {
        completeFront(true, sink);
        ++cost_.readbacksWaited;
    }
}

void TexelReadbacks::finish(const Sink& sink) {
    while (!inFlight_.empty())
        completeFront(true, sink);
}

void TexelReadbacks::clear() {
    for (Readback& r : inFlight_)
        if (r.fence)
            glDeleteSync(r.fence);
    inFlight_.clear();
}

long long TexelReadbacks::oldestStamp(long long now) const {
    for (const Readback& r : inFlight_)
        now = std::min(now, r.stamp);
    return now;
}

TexelReadbacks::~TexelReadbacks() {
    clear();
}

} // namespace snowcap
