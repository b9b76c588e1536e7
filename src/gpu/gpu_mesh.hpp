#pragma once
// A mesh uploaded for drawing: interleaved position + normal, 32-bit indices, and for skinned
// meshes four joint indices + weights per vertex (their poses live in the frame's joint palette,
// snow/deformer_batch.hpp). The attribute locations match shaders/common/deformer_vertex.glsl. A
// mesh may carry a capture proxy (scene/capture_proxy.hpp): a second, shorter index list over the
// same vertices, drawn by the contact capture instead of the full one.

#include "gpu/objects.hpp"
#include "scene/mesh.hpp"

#include <cstdint>
#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <span>
#include <string_view>

namespace snowcap::gpu {

inline constexpr int kMaxJoints = 256; // the importer's limit: joints of one pose

class GpuMesh {
public:
    GpuMesh() = default;
    // `captureIndices`: the capture proxy's triangles over the same vertices (empty: none).
    GpuMesh(const Mesh& mesh, std::string_view name,
            std::span<const std::uint32_t> captureIndices = {});
    GpuMesh(const Mesh& mesh, std::span<const glm::u16vec4> joints,
            std::span<const glm::vec4> weights, std::string_view name,
            std::span<const std::uint32_t> captureIndices = {});

    // Which index list a draw uses: the full mesh, or the capture proxy where there is one.
    enum class Detail { Full, Capture };
    // `count` instances in one draw, with the bound program (which includes
    // deformer_vertex.glsl) reading each one's record; DeformerBatch::draw sets those up.
    void drawInstances(int count, Detail detail = Detail::Full) const;
    bool skinned() const { return skinned_; }
    bool hasCaptureProxy() const { return captureIndexCount_ > 0; }
    int triangleCount() const { return indexCount_ / 3; }
    // What the capture draws: the proxy's triangles, or the full mesh's without one.
    int captureTriangleCount() const {
        return (hasCaptureProxy() ? captureIndexCount_ : indexCount_) / 3;
    }

private:
    VertexArray vertexArray_;
    Buffer vertices_, indices_, skinAttributes_;
    int indexCount_ = 0;
    int captureIndexCount_ = 0; // after the full list in indices_
    bool skinned_ = false;
};

} // namespace snowcap::gpu
