#include "gpu/gpu_mesh.hpp"

#include <string>
#include <vector>

namespace snowcap::gpu {

GpuMesh::GpuMesh(const Mesh& mesh, std::string_view name)
    : vertexArray_(name), indexCount_(static_cast<int>(mesh.indices.size())) {
    std::vector<float> interleaved;
    interleaved.reserve(mesh.positions.size() * 6);
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec3 n = i < mesh.normals.size() ? mesh.normals[i] : glm::vec3(0, 0, 1);
        interleaved.insert(interleaved.end(), {mesh.positions[i].x, mesh.positions[i].y,
                                               mesh.positions[i].z, n.x, n.y, n.z});
    }
    const std::string label(name);
    vertices_ = Buffer(interleaved.size() * sizeof(float), interleaved.data(), label + ".vertices");
    indices_ = Buffer(mesh.indices.size() * sizeof(std::uint32_t), mesh.indices.data(),
                      label + ".indices");
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

void GpuMesh::draw() const {
    glBindVertexArray(vertexArray_.id());
    glDrawElements(GL_TRIANGLES, indexCount_, GL_UNSIGNED_INT, nullptr);
}

} // namespace snowcap::gpu
