#include "snow/snowpack_readback.hpp"

#include "snow/snowpack_sim.hpp"

#include <cstring>
#include <glm/common.hpp>
#include <utility>

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
    // The print is the state's fourth channel: read all four where the ground takes prints.
    channels_ = sim.groundTakesPrints() ? 4 : 2;
    // The whole state's size, so one buffer serves every window.
    const std::size_t whole =
        std::size_t(state.width()) * state.height() * std::size_t(channels_) * sizeof(float);
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
    bytes_ = std::size_t(size_.x) * std::size_t(size_.y) * std::size_t(channels_) * sizeof(float);
    region_ = sim.region();
    if (bytes_ > 0) {
        glPixelStorei(GL_PACK_ALIGNMENT, 4);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo_.id());
        // R (depth cm) and G (mass kg/m2) of the RGBA32F state (and B, A: water, print), the
        // window's rows packed.
        glGetTextureSubImage(state.id(), 0, origin_.x, origin_.y, 0, size_.x, size_.y, 1,
                             channels_ == 4 ? GL_RGBA : GL_RG, GL_FLOAT,
                             static_cast<GLsizei>(bytes_), nullptr);
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
    printCm_.clear();
    if (channels_ == 4) { // the state's texels: depth and mass, and the print apart
        const std::size_t texels = values.size() / 4;
        std::vector<float> depthMass(2 * texels);
        printCm_.resize(texels);
        for (std::size_t k = 0; k < texels; ++k) {
            depthMass[2 * k] = values[4 * k];
            depthMass[2 * k + 1] = values[4 * k + 1];
            printCm_[k] = values[4 * k + 3];
        }
        values = std::move(depthMass);
    }
    ++reads_;
    bytesRead_ += static_cast<long long>(bytes_);
    if (region)
        *region = region_;
    return values;
}

} // namespace snowcap
