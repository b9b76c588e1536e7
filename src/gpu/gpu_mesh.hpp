#pragma once
// A mesh uploaded for drawing: interleaved position + normal, 32-bit indices. The attribute
// locations match shaders/common/deformer_vertex.glsl.

#include "gpu/objects.hpp"
#include "scene/mesh.hpp"

#include <string_view>

namespace snowcap::gpu {

class GpuMesh {
public:
    GpuMesh() = default;
    GpuMesh(const Mesh& mesh, std::string_view name);
    void draw() const;
    int triangleCount() const { return indexCount_ / 3; }

private:
    VertexArray vertexArray_;
    Buffer vertices_, indices_;
    int indexCount_ = 0;
};

} // namespace snowcap::gpu
