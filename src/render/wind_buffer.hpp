#pragma once
// The wind's shader storage buffer (std430, binding 6; shaders/common/wind.glsl): the frame's
// WindState (scene/foliage_wind.hpp) uploaded once per frame, read by every deformer pass that
// draws swaying instances. Sized once for kMaxWindPushers, so a frame never reallocates.

#include "gpu/binding_slots.hpp"
#include "gpu/objects.hpp"
#include "scene/foliage_wind.hpp"

namespace snowcap {

inline constexpr GLuint kWindBinding = gpu::slot::kWind;

class WindBuffer {
public:
    WindBuffer() = default; // no GL: owns nothing until the first upload
    void upload(const WindState& state);
    // Binds it to kWindBinding (each pass that draws deformers does, after beginPass).
    void bind() const;
    bool empty() const { return buffer_.id() == 0; }

private:
    gpu::Buffer buffer_;
};

} // namespace snowcap
