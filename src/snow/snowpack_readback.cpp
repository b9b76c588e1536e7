#include "snow/snowpack_readback.hpp"

#include "snow/snowpack_sim.hpp"

#include <cstring>

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

void SnowpackReadback::request(const SnowpackSim& sim) {
    drop();
    if (!sim.allocated())
        return;
    const gpu::Texture2D& state = sim.state();
    const std::size_t bytes = std::size_t(state.width()) * state.height() * 2 * sizeof(float);
    if (bytes > capacity_) {
        GLuint id = 0;
        glCreateBuffers(1, &id);
        glNamedBufferStorage(id, static_cast<GLsizeiptr>(bytes), nullptr, GL_MAP_READ_BIT);
        pbo_ = gpu::UniqueName<gpu::ObjectKind::Buffer>(id);
        capacity_ = bytes;
    }
    bytes_ = bytes;
    region_ = sim.region();
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo_.id());
    // R (depth cm) and G (mass kg/m2) of the RGBA32F state.
    glGetTextureImage(state.id(), 0, GL_RG, GL_FLOAT, static_cast<GLsizei>(bytes), nullptr);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
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
    const void* mapped =
        glMapNamedBufferRange(pbo_.id(), 0, static_cast<GLsizeiptr>(bytes_), GL_MAP_READ_BIT);
    if (!mapped)
        return std::nullopt;
    std::memcpy(values.data(), mapped, bytes_);
    glUnmapNamedBuffer(pbo_.id());
    ++reads_;
    if (region)
        *region = region_;
    return values;
}

} // namespace snowcap
