#include "gpu/gpu_mesh.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace snowcap::gpu {

GpuMesh::GpuMesh(const Mesh& mesh, std::string_view name,
                 std::span<const std::uint32_t> captureIndices, const CaptureSubsetLists& subset)
    : vertexArray_(name), indexCount_(static_cast<int>(mesh.indices.size())),
      captureIndexCount_(static_cast<int>(captureIndices.size())),
      captureLowestCm_(subset.lowestCm), subsetBandTopCm_(subset.bandTopCm) {
    // A subset that keeps every triangle saves nothing: the capture list is drawn instead.
    if (subset.indices.size() < std::size_t(hasCaptureProxy() ? captureIndexCount_ : indexCount_))
        subsetIndexCount_ = static_cast<int>(subset.indices.size());
    std::vector<float> interleaved;
    interleaved.reserve(mesh.positions.size() * 6);
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec3 n = i < mesh.normals.size() ? mesh.normals[i] : glm::vec3(0, 0, 1);
        interleaved.insert(interleaved.end(), {mesh.positions[i].x, mesh.positions[i].y,
                                               mesh.positions[i].z, n.x, n.y, n.z});
    }
    const std::string label(name);
    vertices_ = Buffer(interleaved.size() * sizeof(float), interleaved.data(), label + ".vertices");
    // One element buffer: the full list, then the proxy's and the subset's (drawn at offsets),
    // so neither needs a vertex array of its own.
    std::vector<std::uint32_t> allIndices(mesh.indices);
    allIndices.insert(allIndices.end(), captureIndices.begin(), captureIndices.end());
    if (subsetIndexCount_ > 0)
        allIndices.insert(allIndices.end(), subset.indices.begin(), subset.indices.end());
    indices_ =
        Buffer(allIndices.size() * sizeof(std::uint32_t), allIndices.data(), label + ".indices");
    const GLuint vao = vertexArray_.id();
    glVertexArrayVertexBuffer(vao, 0, vertices_.id(), 0, 6 * sizeof(float));
    glVertexArrayElementBuffer(vao, indices_.id());
    glEnableVertexArrayAttrib(vao, 0);
    glVertexArrayAttribFormat(vao, 0, 3, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao, 0, 0);
    glEnableVertexArrayAttrib(vao, 1);
    glVertexArrayAttribFormat(vao, 1, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float));
    glVertexArrayAttribBinding(vao, 1, 0);
}

GpuMesh::GpuMesh(const Mesh& mesh, std::span<const glm::u16vec4> joints,
                 std::span<const glm::vec4> weights, std::string_view name,
                 std::span<const std::uint32_t> captureIndices, const CaptureSubsetLists& subset)
    : GpuMesh(mesh, name, captureIndices, subset) {
    if (joints.size() != mesh.positions.size() || weights.size() != mesh.positions.size())
        return; // not skinned after all: drawn rigid
    // Attribute 2: four joint indices (integers), attribute 3: their weights.
    std::vector<float> packed;
    packed.reserve(joints.size() * 4);
    for (std::size_t i = 0; i < joints.size(); ++i)
        packed.insert(packed.end(), {weights[i].x, weights[i].y, weights[i].z, weights[i].w});
    std::vector<std::uint32_t> indices;
    indices.reserve(joints.size() * 4);
    for (const glm::u16vec4& j : joints)
        indices.insert(indices.end(), {j.x, j.y, j.z, j.w});
    const std::string label(name);
    skinAttributes_ = Buffer(indices.size() * 4 + packed.size() * 4, nullptr, label + ".skin");
    skinAttributes_.update(0, indices.size() * 4, indices.data());
    skinAttributes_.update(indices.size() * 4, packed.size() * 4, packed.data());
    const GLuint vao = vertexArray_.id();
    glVertexArrayVertexBuffer(vao, 1, skinAttributes_.id(), 0, 4 * sizeof(std::uint32_t));
    glVertexArrayVertexBuffer(vao, 2, skinAttributes_.id(),
                              static_cast<GLintptr>(indices.size() * 4), 4 * sizeof(float));
    glEnableVertexArrayAttrib(vao, 2);
    glVertexArrayAttribIFormat(vao, 2, 4, GL_UNSIGNED_INT, 0);
    glVertexArrayAttribBinding(vao, 2, 1);
    glEnableVertexArrayAttrib(vao, 3);
    glVertexArrayAttribFormat(vao, 3, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao, 3, 2);
    skinned_ = true;
}

void GpuMesh::drawInstances(int count, Detail detail) const {
    glBindVertexArray(vertexArray_.id());
    if (detail == Detail::CaptureSubset && hasCaptureSubset()) {
        const std::size_t offset =
            std::size_t(indexCount_ + captureIndexCount_) * sizeof(std::uint32_t);
        glDrawElementsInstanced(GL_TRIANGLES, subsetIndexCount_, GL_UNSIGNED_INT,
                                reinterpret_cast<const void*>(offset), count);
    } else if (detail != Detail::Full && hasCaptureProxy()) {
        const std::size_t offset = std::size_t(indexCount_) * sizeof(std::uint32_t);
        glDrawElementsInstanced(GL_TRIANGLES, captureIndexCount_, GL_UNSIGNED_INT,
                                reinterpret_cast<const void*>(offset), count);
    } else {
        glDrawElementsInstanced(GL_TRIANGLES, indexCount_, GL_UNSIGNED_INT, nullptr, count);
    }
}

} // namespace snowcap::gpu
