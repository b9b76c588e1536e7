#include "snow/contact_capture.hpp"

#include "gpu/pass_state.hpp"

#include <glm/gtc/type_ptr.hpp>

namespace snowcap {

gpu::ProgramDesc contactCaptureProgram() {
    return {
        "contact_capture",
        {{GL_VERTEX_SHADER, "capture/capture.vert"}, {GL_FRAGMENT_SHADER, "capture/capture.frag"}},
        {}};
}

ContactCapture::ContactCapture(const CaptureKey& key)
    : key_(key), depth_(key.region.resolution, key.region.resolution, gpu::TextureFormat::D32F,
                        "capture.depth"),
      contact_(key.region.resolution, key.region.resolution, gpu::TextureFormat::R16F,
               "capture.contact"),
      framebuffer_(&contact_, &depth_, "capture.framebuffer"),
      viewProjection_(captureViewProjection(key.region, key.cameraZCm, key.farCm)) {
    depth_.clear(1.0f);
    contact_.clear(0.0f);
}

bool ContactCapture::reaches(const CaptureKey& key, const Aabb& bounds) {
    const double half = key.region.widthCm * 0.5;
    const glm::dvec2 c = key.region.centreCm;
    return bounds.max.x >= c.x - half && bounds.min.x <= c.x + half && bounds.max.y >= c.y - half &&
           bounds.min.y <= c.y + half && bounds.max.z >= key.cameraZCm &&
           bounds.min.z <= key.cameraZCm + key.farCm;
}

void ContactCapture::moveTo(glm::dvec2 centreCm) {
    key_.region.centreCm = centreCm;
    viewProjection_ = captureViewProjection(key_.region, key_.cameraZCm, key_.farCm);
}

int ContactCapture::capture(std::span<const DeformerInstance> deformers,
                            const gpu::ShaderProgram& program) {
    ownBatch_.prepare(deformers);
    return capture(ownBatch_, program);
}

int ContactCapture::capture(DeformerBatch& deformers, const gpu::ShaderProgram& program) {
    gpu::PassState pass = gpu::passInto(framebuffer_);
    pass.clearColour = glm::vec4(0.0f); // no contact
    pass.clearDepth = 1.0f;
    pass.depthTest = gpu::DepthTest::Less;
    pass.depthWrite = true;
    pass.cullBackFaces = false; // open meshes seen from below must still count
    pass.program = program.id();
    gpu::beginPass(pass);
    glProgramUniformMatrix4fv(program.id(), 0, 1, GL_FALSE, glm::value_ptr(viewProjection_));
    // Per-instance culling against the capture's box; depth from below needs no detail, so
    // each mesh draws its proxy where it has one.
    lastDraw_ =
        deformers.draw(program.id(), gpu::GpuMesh::Detail::Capture,
                       [this](const DeformerInstance& d) { return overlaps(d.worldBounds); });
    return lastDraw_.instances;
}

} // namespace snowcap
