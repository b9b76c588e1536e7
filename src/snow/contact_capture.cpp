#include "snow/contact_capture.hpp"

#include "gpu/binding_slots.hpp"
#include "gpu/pass_state.hpp"

#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <limits>

namespace snowcap {

gpu::ProgramDesc contactCaptureProgram(bool terrain) {
    if (terrain)
        return {"contact_capture.terrain",
                {{GL_VERTEX_SHADER, "capture/capture.vert"},
                 {GL_FRAGMENT_SHADER, "capture/capture.frag"}},
                {{"TERRAIN", "1"}}};
    return {
        "contact_capture",
        {{GL_VERTEX_SHADER, "capture/capture.vert"}, {GL_FRAGMENT_SHADER, "capture/capture.frag"}},
        {}};
}

HeightSpan captureTerrainSpan(const CaptureKey& key) {
    if (!key.followsTerrain())
        return {};
    return key.terrain->spanCm(key.region.centreCm, key.region.widthCm);
}

double d16DepthStepCm(const CaptureSettings& capture) {
    return capture.farCm / 65535.0;
}

bool d16Suffices(const CaptureSettings& capture, const Region& region) {
    return d16DepthStepCm(capture) <= region.texelCm() / 32.0;
}

gpu::TextureFormat captureDepthFormat(const CaptureSettings& capture, const Region& region) {
    switch (capture.depth) {
    case CaptureDepth::D16:
        return gpu::TextureFormat::D16;
    case CaptureDepth::D32F:
        return gpu::TextureFormat::D32F;
    case CaptureDepth::Auto:
        break;
    }
    return d16Suffices(capture, region) ? gpu::TextureFormat::D16 : gpu::TextureFormat::D32F;
}

ContactCapture::ContactCapture(const CaptureKey& key)
    : key_(key),
      depth_(key.region.resolution, key.region.resolution, key.depthFormat, "capture.depth"),
      contact_(key.region.resolution, key.region.resolution, gpu::TextureFormat::R16F,
               "capture.contact"),
      framebuffer_(&contact_, &depth_, "capture.framebuffer"),
      viewProjection_(captureViewProjection(key.region, key.cameraZCm, key.farCm)) {
    depth_.clear(1.0f);
    contact_.clear(0.0f);
    if (key_.followsTerrain()) {
        terrainHeight_ = gpu::Texture2D(key.region.resolution, key.region.resolution,
                                        gpu::TextureFormat::R32F, "capture.terrain");
        followTerrain();
    }
}

void ContactCapture::followTerrain() {
    // Heights at the texel centres, as world -> uv maps them (rows bottom first, as GL stores
    // them): the same function places the texels in the capture, the sims and the material.
    const int n = key_.region.resolution;
    std::vector<float> heights(std::size_t(n) * n);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const glm::dvec2 at = texelCentreToWorld({x, y}, key_.region);
            heights[std::size_t(y) * n + x] = float(key_.terrain->heightCm(at.x, at.y));
        }
    terrainHeight_.upload(heights);
    key_.terrainSpanCm = captureTerrainSpan(key_);
    // The rasteriser's own depth range reaches from the lowest texel camera to the highest far
    // plane, so that nothing is clipped before the fragment shader measures it; the depth
    // written is each texel's own (capture.frag).
    const HeightSpan span = key_.terrainSpanCm;
    viewProjection_ = captureViewProjection(key_.region, key_.cameraZCm + span.lowCm,
                                            key_.farCm + (span.highCm - span.lowCm));
}

bool ContactCapture::reaches(const CaptureKey& key, const Aabb& bounds) {
    const double half = key.region.widthCm * 0.5;
    const glm::dvec2 c = key.region.centreCm;
    return bounds.max.x >= c.x - half && bounds.min.x <= c.x + half && bounds.max.y >= c.y - half &&
           bounds.min.y <= c.y + half && bounds.max.z >= key.cameraZCm + key.terrainSpanCm.lowCm &&
           bounds.min.z <= key.cameraZCm + key.terrainSpanCm.highCm + key.farCm;
}

namespace {

// Heights of an instance's mesh carry into the world unchanged when its model matrix only
// moves and turns about Z (every path and player deformer); a physics body that tilts or
// falls, or foliage's sway (which lowers the tips), draws its capture list whole. A turn about
// Z made in floats (glm::rotate's c + (1 - c)) leaves m[2][2] an ulp or two off 1 at most
// headings, so the Z row is compared within kTurnUlps: a mesh point then lands within
// kTurnUlps x (|x| + |y| + |z|) of its height, under 0.01 cm for anything a few metres
// across, far inside the ceiling's 1 cm slack for the vertex transform (capture_subset.hpp).
bool keepsHeights(const DeformerInstance& instance) {
    constexpr float kTurnUlps = 4.0f * std::numeric_limits<float>::epsilon();
    const glm::mat4& m = instance.model;
    return std::abs(m[0][2]) <= kTurnUlps && std::abs(m[1][2]) <= kTurnUlps &&
           std::abs(m[2][2] - 1.0f) <= kTurnUlps && m[3][3] == 1.0f && m[0][3] == 0.0f &&
           m[1][3] == 0.0f && m[2][3] == 0.0f && instance.sway == glm::vec4(0.0f);
}

} // namespace

gpu::GpuMesh::Detail ContactCapture::detailFor(const CaptureKey& key,
                                               const DeformerInstance& instance) {
    const gpu::GpuMesh& mesh = *instance.mesh;
    if (std::isfinite(key.subsetCeilingCm) && mesh.hasCaptureSubset() && keepsHeights(instance) &&
        double(instance.model[3][2]) + double(mesh.subsetBandTopCm()) >= key.subsetCeilingCm)
        return gpu::GpuMesh::Detail::CaptureSubset;
    return gpu::GpuMesh::Detail::Capture;
}

bool ContactCapture::canReachMask(const CaptureKey& key, const DeformerInstance& instance) {
    const gpu::GpuMesh& mesh = *instance.mesh;
    return !(std::isfinite(key.subsetCeilingCm) && keepsHeights(instance) &&
             double(instance.model[3][2]) + double(mesh.captureLowestCm()) > key.subsetCeilingCm);
}

void ContactCapture::moveTo(glm::dvec2 centreCm) {
    key_.region.centreCm = centreCm;
    viewProjection_ = captureViewProjection(key_.region, key_.cameraZCm, key_.farCm);
    if (key_.followsTerrain())
        followTerrain();
}

int ContactCapture::capture(std::span<const DeformerInstance> deformers,
                            const gpu::ShaderProgram& program) {
    ownBatch_.prepare(deformers);
    return capture(ownBatch_, program);
}

int ContactCapture::capture(DeformerBatch& deformers, const gpu::ShaderProgram& program) {
    gpu::beginPass(passState(program));
    if (key_.followsTerrain())
        glBindTextureUnit(gpu::slot::kCaptureTerrain, terrainHeight_.id());
    return draw(deformers, program);
}

gpu::PassState ContactCapture::passState(const gpu::ShaderProgram& program) const {
    gpu::PassState pass = gpu::passInto(framebuffer_);
    pass.clearColour = glm::vec4(0.0f); // no contact
    pass.clearDepth = 1.0f;
    pass.depthTest = gpu::DepthTest::Less;
    pass.depthWrite = true;
    pass.cullBackFaces = false; // open meshes seen from below must still count
    pass.program = program.id();
    return pass;
}

int ContactCapture::draw(DeformerBatch& deformers, const gpu::ShaderProgram& program) {
    glProgramUniformMatrix4fv(program.id(), 0, 1, GL_FALSE, glm::value_ptr(viewProjection_));
    if (key_.followsTerrain()) {
        glProgramUniform1f(program.id(), 6, float(key_.cameraZCm));
        glProgramUniform1f(program.id(), 7, float(key_.farCm));
    }
    // Per-instance culling against the capture's box; depth from below needs no detail, so
    // each mesh draws its proxy where it has one. With a subset ceiling, instances too high to
    // reach the mask are culled too, and each of the rest draws only what can reach it.
    if (!std::isfinite(key_.subsetCeilingCm)) {
        lastDraw_ =
            deformers.draw(program.id(), gpu::GpuMesh::Detail::Capture,
                           [this](const DeformerInstance& d) { return overlaps(d.worldBounds); });
        return lastDraw_.instances;
    }
    lastDraw_ = deformers.draw(
        program.id(), gpu::GpuMesh::Detail::Capture,
        [this](const DeformerInstance& d) {
            return overlaps(d.worldBounds) && canReachMask(key_, d);
        },
        [this](const DeformerInstance& d) { return detailFor(key_, d); });
    return lastDraw_.instances;
}

} // namespace snowcap
