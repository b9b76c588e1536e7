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

const SurfaceUpsample::Targets* SurfaceUpsample::prepare(int width, int height, float scale) {
    const std::pair<int, int> key{width, height};
    auto found = targets_.find(key);
    if (found == targets_.end()) {
        if (targets_.size() >= 4) // a resized window: the old panes' targets are not needed
            std::erase_if(targets_, [this](const auto& entry) {
                return entry.second.frame != frame_; // not the views of the list being built
            });
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
            return nullptr;
        }
        targets.geometry = gpu::Framebuffer(nullptr, &targets.depth, "surface.low_geometry");
        targets.shade = gpu::Framebuffer(&targets.colour, nullptr, "surface.low_shade");
        targets.paneWidth = width;
        targets.paneHeight = height;
        found = targets_.emplace(key, std::move(targets)).first;
    }
    found->second.frame = frame_;
    current_ = &found->second;
    return current_;
}

gpu::PassState SurfaceUpsample::geometryPass(const Targets& targets) {
    gpu::PassState pass = gpu::passInto(targets.geometry);
    pass.clearDepth = 1.0f;
    return pass;
}

gpu::PassState SurfaceUpsample::shadePass(const Targets& targets) {
    return gpu::passInto(targets.shade);
}

gpu::PassState SurfaceUpsample::compositePass(const gpu::PassState& view) const {
    gpu::PassState pass = view;
    pass.depthTest = gpu::DepthTest::Less;
    pass.depthWrite = true;
    pass.program = program_->id();
    return pass;
}

std::vector<gpu::PassBinding> SurfaceUpsample::compositeBindings(const Targets& targets,
                                                                 const std::string& resource) {
    const Targets* t = &targets;
    const auto none = [] {
        return GLuint(0);
    }; // texelFetch only
    return {{gpu::BindingKind::Texture, gpu::slot::kLowColour, resource,
             [t] { return t->colour.id(); }, none},
            {gpu::BindingKind::Texture, gpu::slot::kLowDepth, resource,
             [t] { return t->depth.id(); }, none}};
}

void SurfaceUpsample::compositeDraw(const Targets& targets, const gpu::PassState& view) const {
    const GLuint program = program_->id();
    const int w = targets.colour.width(), h = targets.colour.height();
    glProgramUniform4f(program, 0, float(view.viewport.x), float(view.viewport.y),
                       float(w) / float(targets.paneWidth), float(h) / float(targets.paneHeight));
    glProgramUniform2i(program, 1, w, h);
    glBindVertexArray(empty_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

} // namespace snowcap
