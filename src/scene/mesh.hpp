#pragma once
// Triangle meshes on the CPU (no GL): what the importer produces and the procedural shapes.

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <vector>

namespace snowcap {

struct Aabb {
    glm::vec3 min{0.0f}, max{0.0f};
    Aabb transformed(const glm::mat4& m) const; // bounds of the transformed box
    bool valid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }
};

struct Mesh {
    std::vector<glm::vec3> positions; // cm, Z up
    std::vector<glm::vec3> normals;
    std::vector<std::uint32_t> indices; // triangles
    Aabb bounds() const;
};

Mesh makeSphere(float radiusCm, int segments = 32, int rings = 16);
Mesh makeBox(glm::vec3 halfExtentsCm);
// A capsule along X: two hemispheres joined by a cylinder of half length `halfLengthCm`.
Mesh makeCapsule(float radiusCm, float halfLengthCm, int segments = 24, int rings = 8);
// A closed cylinder along Y (a wheel on its axle): radius `radiusCm`, from -halfWidthCm to
// +halfWidthCm, centred on the origin; flat-shaded caps, smooth-shaded tread.
Mesh makeCylinder(float radiusCm, float halfWidthCm, int segments = 32);

} // namespace snowcap
