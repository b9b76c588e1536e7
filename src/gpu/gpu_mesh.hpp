#pragma once
// A mesh uploaded for drawing: interleaved position + normal, 32-bit indices, and for skinned
// meshes four joint indices + weights per vertex and a buffer of joint matrices. The attribute
// locations and bindings match shaders/common/deformer_vertex.glsl.

#include "gpu/objects.hpp"
#include "scene/mesh.hpp"

#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <span>
#include <string_view>

namespace snowcap::gpu {

inline constexpr int kMaxJoints = 256;             // the importer's limit
inline constexpr GLint kSkinnedLocation = 3;       // uniform int skinned
inline constexpr GLuint kJointMatricesBinding = 3; // SSBO of mat4 joints[]

class GpuMesh {
public:
    GpuMesh() = default;
    GpuMesh(const Mesh& mesh, std::string_view name);
    GpuMesh(const Mesh& mesh, std::span<const glm::u16vec4> joints,
            std::span<const glm::vec4> weights, std::string_view name);
    // Draws with `program` (which must include deformer_vertex.glsl); a skinned mesh poses with
    // `skinning` (one matrix per joint), a rigid one ignores it.
    void draw(GLuint program, std::span<const glm::mat4> skinning = {}) const;
    bool skinned() const { return skinned_; }
    int triangleCount() const { return indexCount_ / 3; }

private:
    VertexArray vertexArray_;
    Buffer vertices_, indices_, skinAttributes_;
    mutable Buffer jointMatrices_; // scratch: each draw uploads the pose it is drawn with
    int indexCount_ = 0;
    bool skinned_ = false;
};

} // namespace snowcap::gpu
