#include "render/wind_buffer.hpp"

#include <cstring>
#include <vector>

namespace snowcap {

void WindBuffer::upload(const WindState& state) {
    constexpr std::size_t kBytes = sizeof(WindBlock) + sizeof(glm::vec4) * kMaxWindPushers;
    if (buffer_.id() == 0)
        buffer_ = gpu::Buffer(kBytes, nullptr, "wind");
    std::vector<unsigned char> bytes(sizeof(WindBlock) + sizeof(glm::vec4) * state.pushers.size());
    std::memcpy(bytes.data(), &state.block, sizeof(WindBlock));
    if (!state.pushers.empty())
        std::memcpy(bytes.data() + sizeof(WindBlock), state.pushers.data(),
                    sizeof(glm::vec4) * state.pushers.size());
    buffer_.update(0, bytes.size(), bytes.data());
}

void WindBuffer::bind() const {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kWindBinding, buffer_.id());
}

} // namespace snowcap
