#include "snow/snowpack_readback.hpp"

#include "snow/snowpack_sim.hpp"

#include <cstring>
#include <glm/common.hpp>

namespace snowcap {

SnowpackReadback::~SnowpackReadback() {
    drop();
}

void SnowpackReadback::drop() {
    if (fence_)
        glDeleteSync(fence_);
    fence_ = nullptr;
    ready_ = false;
}

void SnowpackReadback::request(const SnowpackSim& sim, glm::ivec2 origin, glm::ivec2 size) {
    drop();
    if (!sim.allocated())
        return;
    const gpu::Texture2D& state = sim.state();
    // The whole state's size, so one buffer serves every window.
    const std::size_t whole = std::size_t(state.width()) * state.height() * 2 * sizeof(float);
    if (whole > capacity_) {
        GLuint id = 0;
        glCreateBuffers(1, &id);
        glNamedBufferStorage(id, static_cast<GLsizeiptr>(whole), nullptr, GL_MAP_READ_BIT);
        pbo_ = gpu::UniqueName<gpu::ObjectKind::Buffer>(id);
        capacity_ = whole;
    }
    const glm::ivec2 low =
        glm::clamp(origin, glm::ivec2(0), glm::ivec2(state.width(), state.height()));
    const glm::ivec2 high = glm::clamp(origin + glm::max(size, glm::ivec2(0)), low,
                                       glm::ivec2(state.width(), state.height()));
    origin_ = low;
    size_ = high - low;
    bytes_ = std::size_t(size_.x) * std::size_t(size_.y) * 2 * sizeof(float);
    region_ = sim.region();
    if (bytes_ > 0) {
        glPixelStorei(GL_PACK_ALIGNMENT, 4);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo_.id());
        // R (depth cm) and G (mass kg/m2) of the RGBA32F state, the window's rows packed.
        glGetTextureSubImage(state.id(), 0, origin_.x, origin_.y, 0, size_.x, size_.y, 1, GL_RG,
                             GL_FLOAT, static_cast<GLsizei>(bytes_), nullptr);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    }
    fence_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    ready_ = true;
}

std::optional<std::vector<float>> SnowpackReadback::take(Region* region) {
    if (!ready_)
        return std::nullopt;
    if (fence_) {
        // Signalled already (the usual case a frame later): no wait. Otherwise wait for it,
        // so the state is always the one requested, whatever the timing.
        if (glClientWaitSync(fence_, GL_SYNC_FLUSH_COMMANDS_BIT, 0) == GL_TIMEOUT_EXPIRED) {
            ++waited_;
            glClientWaitSync(fence_, GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(60'000'000'000));
        }
        glDeleteSync(fence_);
        fence_ = nullptr;
    }
    ready_ = false;
    std::vector<float> values(bytes_ / sizeof(float));
    if (bytes_ > 0) { // an empty window maps nothing (a range of 0 bytes cannot be mapped)
        const void* mapped =
            glMapNamedBufferRange(pbo_.id(), 0, static_cast<GLsizeiptr>(bytes_), GL_MAP_READ_BIT);
        if (!mapped)
            return std::nullopt;
        std::memcpy(values.data(), mapped, bytes_);
        glUnmapNamedBuffer(pbo_.id());
    }
    ++reads_;
    bytesRead_ += static_cast<long long>(bytes_);
    if (region)
        *region = region_;
    return values;
}

} // namespace snowcap
