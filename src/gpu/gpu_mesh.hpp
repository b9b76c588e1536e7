#pragma once
// A mesh uploaded for drawing: interleaved position + normal, 32-bit indices, and for skinned
// meshes four joint indices + weights per vertex (their poses live in the frame's joint palette,
// snow/deformer_batch.hpp). The attribute locations match shaders/common/deformer_vertex.glsl. A
// mesh may carry a capture proxy (scene/capture_proxy.hpp): a second, shorter index list over the
// same vertices, drawn by the contact capture instead of the full one, and a capture subset
// (scene/capture_subset.hpp): the triangles of that list that can come down to the snow, drawn
// for the instances whose band covers what the capture's mask responds to.

#include "gpu/objects.hpp"
#include "scene/mesh.hpp"

#include <cstdint>
#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <limits>
#include <span>
#include <string_view>

namespace snowcap::gpu {

inline constexpr int kMaxJoints = 256; // the importer's limit: joints of one pose

// A capture subset as the GPU mesh keeps it: its triangles (over the same vertices) and the
// heights, in mesh space, that make it exact (CaptureSubset in scene/capture_subset.hpp).
struct CaptureSubsetLists {
    std::span<const std::uint32_t> indices; // empty: the capture list is drawn whole
    // The lowest any vertex of the capture list can go over the clips (-inf: unknown), and the
    // height up to which the subset draws everything the capture list would (-inf: none).
    float lowestCm = -std::numeric_limits<float>::infinity();
    float bandTopCm = -std::numeric_limits<float>::infinity();
};

class GpuMesh {
public:
    GpuMesh() = default;
    // `captureIndices`: the capture proxy's triangles over the same vertices (empty: none).
    // `subset`: the capture list's triangles that can reach the snow (none: drawn whole).
    GpuMesh(const Mesh& mesh, std::string_view name,
            std::span<const std::uint32_t> captureIndices = {},
            const CaptureSubsetLists& subset = {});
    GpuMesh(const Mesh& mesh, std::span<const glm::u16vec4> joints,
            std::span<const glm::vec4> weights, std::string_view name,
            std::span<const std::uint32_t> captureIndices = {},
            const CaptureSubsetLists& subset = {});

    // Which index list a draw uses: the full mesh, the capture proxy where there is one, or
    // the capture subset (of the proxy, or of the full mesh) where there is one.
    enum class Detail { Full, Capture, CaptureSubset };
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
    bool hasCaptureSubset() const { return subsetIndexCount_ > 0; }
    // What the capture subset draws: its triangles, or the capture list's without one.
    int subsetTriangleCount() const {
        return hasCaptureSubset() ? subsetIndexCount_ / 3 : captureTriangleCount();
    }
    int triangleCount(Detail detail) const {
        return detail == Detail::Full      ? triangleCount()
               : detail == Detail::Capture ? captureTriangleCount()
                                           : subsetTriangleCount();
    }
    // Mesh-space heights of the subset (CaptureSubsetLists): -inf when unknown.
    float captureLowestCm() const { return captureLowestCm_; }
    float subsetBandTopCm() const { return subsetBandTopCm_; }

private:
    VertexArray vertexArray_;
    Buffer vertices_, indices_, skinAttributes_;
    int indexCount_ = 0;
    int captureIndexCount_ = 0; // after the full list in indices_
    int subsetIndexCount_ = 0;  // after the proxy's
    float captureLowestCm_ = -std::numeric_limits<float>::infinity();
    float subsetBandTopCm_ = -std::numeric_limits<float>::infinity();
    bool skinned_ = false;
};

} // namespace snowcap::gpu
