#include "render/surface_upsample.hpp"

#include <algorithm>
#include <cmath>
#include <spdlog/spdlog.h>

namespace snowcap {

SurfaceUpsample::SurfaceUpsample()
    : linear_(GL_LINEAR, GL_CLAMP_TO_EDGE, "surface.upsample.linear") {}

bool SurfaceUpsample::prepare(int width, int height, float scale) {
    width_ = width;
    height_ = height;
    const std::pair<int, int> key{width, height};
    auto found = targets_.find(key);
    if (found == targets_.end()) {
        if (targets_.size() >= 4)
            targets_.clear(); // a resized window: the old panes' targets are not needed
        const int w = std::max(1, static_cast<int>(std::lround(width * scale)));
        const int h = std::max(1, static_cast<int>(std::lround(height * scale)));
        Targets targets;
        targets.colour = gpu::Texture2D(w, h, gpu::TextureFormat::RGBA8, "surface.low_colour");
        targets.depth = gpu::Texture2D(w, h, gpu::TextureFormat::D32F, "surface.low_depth");
        if (!targets.colour.id() || !targets.depth.id()) {
            spdlog::error("surface upsample: {}", targets.colour.id()
                                                      ? targets.depth.allocationError()
                                                      : targets.colour.allocationError());
            current_ = nullptr;
            return false;
        }
        targets.framebuffer = gpu::Framebuffer(&targets.colour, &targets.depth, "surface.low");
        found = targets_.emplace(key, std::move(targets)).first;
    }
    current_ = &found->second;
    return true;
}

gpu::PassState SurfaceUpsample::shadePass() const {
    gpu::PassState pass = gpu::passInto(current_->framebuffer);
    pass.clearColour = glm::vec4(0.0f);
    pass.clearDepth = 1.0f;
    return pass;
}

void SurfaceUpsample::bindFor(GLuint program, glm::ivec4 viewport) const {
    const int w = current_->colour.width(), h = current_->colour.height();
    glProgramUniform4f(program, 0, float(viewport.x), float(viewport.y), float(w) / float(width_),
                       float(h) / float(height_));
    glProgramUniform2i(program, 1, w, h);
    glBindTextureUnit(kColourUnit, current_->colour.id());
    glBindSampler(kColourUnit, linear_.id());
    glBindTextureUnit(kDepthUnit, current_->depth.id());
    glBindSampler(kDepthUnit, 0); // textureGather: the filter does not matter
}

void SurfaceUpsample::unbind() const {
    glBindSampler(kColourUnit, 0);
}

} // namespace snowcap
