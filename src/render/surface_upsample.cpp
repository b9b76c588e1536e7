#include "render/surface_upsample.hpp"

#include <algorithm>
#include <cmath>
#include <spdlog/spdlog.h>

namespace snowcap {

std::variant<std::unique_ptr<SurfaceUpsample>, std::string>
SurfaceUpsample::create(gpu::ShaderLibrary& shaders) {
    auto loaded = shaders.load({"surface.upsample",
                                {{GL_VERTEX_SHADER, "common/fullscreen.vert"},
                                 {GL_FRAGMENT_SHADER, "surface/upsample.frag"}},
                                {}});
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    std::unique_ptr<SurfaceUpsample> upsample(new SurfaceUpsample());
    upsample->program_ = std::get<gpu::ShaderProgram*>(loaded);
    upsample->empty_ = gpu::VertexArray("surface.upsample");
    return upsample;
}

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
        targets.geometry = gpu::Framebuffer(nullptr, &targets.depth, "surface.low_geometry");
        targets.shade = gpu::Framebuffer(&targets.colour, nullptr, "surface.low_shade");
        found = targets_.emplace(key, std::move(targets)).first;
    }
    current_ = &found->second;
    return true;
}

gpu::PassState SurfaceUpsample::geometryPass() const {
    gpu::PassState pass = gpu::passInto(current_->geometry);
    pass.clearDepth = 1.0f;
    return pass;
}

gpu::PassState SurfaceUpsample::shadePass() const {
    return gpu::passInto(current_->shade);
}

void SurfaceUpsample::composite(const gpu::PassState& view) const {
    const GLuint program = program_->id();
    gpu::PassState pass = view;
    pass.depthTest = gpu::DepthTest::Less;
    pass.depthWrite = true;
    pass.program = program;
    gpu::beginPass(pass);
    const int w = current_->colour.width(), h = current_->colour.height();
    glProgramUniform4f(program, 0, float(view.viewport.x), float(view.viewport.y),
                       float(w) / float(width_), float(h) / float(height_));
    glProgramUniform2i(program, 1, w, h);
    glBindTextureUnit(0, current_->colour.id());
    glBindTextureUnit(1, current_->depth.id());
    glBindSampler(0, 0); // texelFetch only
    glBindSampler(1, 0);
    glBindVertexArray(empty_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

} // namespace snowcap
