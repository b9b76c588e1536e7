#include "render/shadow_pass.hpp"

#include "gpu/pass_state.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

namespace snowcap {

ShadowBox growShadowBox(const ShadowBox& box, glm::vec3 toSun, double surfaceZCm) {
    const glm::dvec3 sun =
        glm::length(toSun) > 0.0f ? glm::normalize(glm::dvec3(toSun)) : glm::dvec3(0, 0, 1);
    if (sun.z <= 1e-3)
        return box; // a sun on the horizon: no finite throw
    const double height = std::max(box.zHighCm - surfaceZCm, 0.0);
    ShadowBox grown = box;
    for (int axis = 0; axis < 2; ++axis) {
        const double width = box.maxCm[axis] - box.minCm[axis];
        const double throwCm = std::min(height * std::abs(sun[axis]) / sun.z, width);
        // A shadow falls away from the sun.
        if (sun[axis] > 0.0)
            grown.minCm[axis] -= throwCm;
        else
            grown.maxCm[axis] += throwCm;
    }
    return grown;
}

SunShadow sunShadow(glm::vec3 toSun, const ShadowBox& box, int size) {
    const glm::vec3 sun = glm::length(toSun) > 0.0f ? glm::normalize(toSun) : glm::vec3(0, 0, 1);
    const glm::vec3 centre(0.5 * (box.minCm + box.maxCm), 0.5 * (box.zLowCm + box.zHighCm));
    // Any up that is not the sun itself; +Y for a sun straight overhead.
    const glm::vec3 up = std::abs(sun.z) > 0.99f ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1);
    const glm::mat4 view = glm::lookAt(centre + sun * 1000.0f, centre, up);
    glm::vec3 low(1e30f), high(-1e30f);
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p((corner & 1) ? box.maxCm.x : box.minCm.x,
                          (corner & 2) ? box.maxCm.y : box.minCm.y,
                          (corner & 4) ? box.zHighCm : box.zLowCm);
        const glm::vec3 v = glm::vec3(view * glm::vec4(p, 1.0f));
        low = glm::min(low, v);
        high = glm::max(high, v);
    }
    // The camera looks down -Z: the near plane is the box's corner nearest the sun.
    const float near = -high.z - 1.0f, far = -low.z + 1.0f;
    const glm::mat4 projection = glm::ortho(low.x, high.x, low.y, high.y, near, far);
    SunShadow shadow;
    shadow.viewProjection = projection * view;
    const glm::mat4 toUnit = glm::translate(glm::mat4(1.0f), glm::vec3(0.5f)) *
                             glm::scale(glm::mat4(1.0f), glm::vec3(0.5f));
    shadow.block.worldToShadow = toUnit * shadow.viewProjection;
    const float texelCm = std::max(high.x - low.x, high.y - low.y) / static_cast<float>(size);
    shadow.block.texel[0] = 1.0f / static_cast<float>(size);
    // Half a centimetre along the light: below what any caster's depth steps could fake, so
    // the snow under a foot is not lit through it.
    shadow.block.texel[1] = 0.5f / (far - near);
    shadow.block.texel[2] = texelCm;
    return shadow;
}

std::variant<std::unique_ptr<ShadowPass>, std::string>
ShadowPass::create(gpu::ShaderLibrary& shaders) {
    auto loaded = shaders.load({"deformer.shadow",
                                {{GL_VERTEX_SHADER, "render/deformer_shadow.vert"},
                                 {GL_FRAGMENT_SHADER, "render/deformer_shadow.frag"}},
                                {}});
    if (auto* error = std::get_if<std::string>(&loaded))
        return *error;
    std::unique_ptr<ShadowPass> pass(new ShadowPass());
    pass->program_ = std::get<gpu::ShaderProgram*>(loaded);
    pass->depth_ = gpu::Texture2D(kSize, kSize, gpu::TextureFormat::D32F, "shadow.depth");
    if (!pass->depth_.id())
        return pass->depth_.allocationError();
    pass->framebuffer_ = gpu::Framebuffer(nullptr, &pass->depth_, "shadow.framebuffer");
    // Bilinear depth compare (2 x 2 PCF a tap); outside the map: depth 1, lit.
    pass->sampler_ = gpu::Sampler(GL_LINEAR, GL_CLAMP_TO_BORDER, "shadow.compare");
    const GLuint sampler = pass->sampler_.id();
    glSamplerParameteri(sampler, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glSamplerParameteri(sampler, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    const float border[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    glSamplerParameterfv(sampler, GL_TEXTURE_BORDER_COLOR, border);
    pass->params_ = gpu::Buffer(sizeof(ShadowParamsBlock), nullptr, "shadow.params");
    return pass;
}

void ShadowPass::draw(DeformerBatch& deformers, const ShadowBox& box, glm::vec3 toSun) {
    prepare(box, toSun);
    gpu::beginPass(passState());
    drawCasters(deformers);
}

void ShadowPass::prepare(const ShadowBox& box, glm::vec3 toSun) {
    shadow_ = sunShadow(toSun, box, kSize);
    params_.update(0, sizeof(ShadowParamsBlock), &shadow_.block);
}

gpu::PassState ShadowPass::passState() const {
    gpu::PassState pass = gpu::passInto(framebuffer_);
    pass.clearDepth = 1.0f;
    pass.depthTest = gpu::DepthTest::Less;
    pass.depthWrite = true;
    pass.cullBackFaces = false; // open meshes cast from both sides
    pass.program = program_->id();
    return pass;
}

void ShadowPass::drawCasters(DeformerBatch& deformers) {
    // Casters nearer the sun than the box (a tall deformer) still cast: their depth is clamped
    // onto the near plane. Depth clamp is no part of PassState, so it is switched back off.
    glEnable(GL_DEPTH_CLAMP);
    const GLuint program = program_->id();
    glProgramUniformMatrix4fv(program, 0, 1, GL_FALSE, glm::value_ptr(shadow_.viewProjection));
    lastDraw_ = deformers.draw(program);
    glDisable(GL_DEPTH_CLAMP);
}

std::vector<gpu::PassBinding> ShadowPass::bindings() const {
    const ShadowPass* self = this;
    return {{gpu::BindingKind::UniformBlock, kShadowParamsBinding, "shadow.map",
             [self] {
                 return self->params_.id();
             }},
            {gpu::BindingKind::Texture, gpu::slot::kDeformerShadow, "shadow.map",
             [self] { return self->depth_.id(); },
             [self] {
                 return self->sampler_.id();
             }}};
}

} // namespace snowcap
