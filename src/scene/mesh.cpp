#include "scene/mesh.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace snowcap {

Aabb Aabb::transformed(const glm::mat4& m) const {
    Aabb out{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p((corner & 1) ? max.x : min.x, (corner & 2) ? max.y : min.y,
                          (corner & 4) ? max.z : min.z);
        const glm::vec3 q = glm::vec3(m * glm::vec4(p, 1.0f));
        out.min = glm::min(out.min, q);
        out.max = glm::max(out.max, q);
    }
    return out;
}

Aabb Mesh::bounds() const {
    Aabb box{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
    for (const glm::vec3& p : positions) {
        box.min = glm::min(box.min, p);
        box.max = glm::max(box.max, p);
    }
    return box;
}

namespace {

// A latitude-longitude surface: `rings` bands from the -Z pole to the +Z pole. The capsule
// stretches the sphere along X by shifting each half.
Mesh makeLatLong(float radius, float halfLength, int segments, int rings) {
    Mesh mesh;
    const float pi = std::numbers::pi_v<float>;
    for (int ring = 0; ring <= rings; ++ring) {
        const float theta = pi * float(ring) / float(rings); // 0 at -Z
        for (int segment = 0; segment <= segments; ++segment) {
            const float phi = 2.0f * pi * float(segment) / float(segments);
            const glm::vec3 normal(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                                   -std::cos(theta));
            glm::vec3 position = normal * radius;
            position.x += normal.x >= 0.0f ? halfLength : -halfLength;
            mesh.positions.push_back(position);
            mesh.normals.push_back(normal);
        }
    }
    const int stride = segments + 1;
    for (int ring = 0; ring < rings; ++ring)
        for (int segment = 0; segment < segments; ++segment) {
            const std::uint32_t a = ring * stride + segment, b = a + 1, c = a + stride, d = c + 1;
            mesh.indices.insert(mesh.indices.end(), {a, b, d, a, d, c});
        }
    return mesh;
}

} // namespace

Mesh makeSphere(float radiusCm, int segments, int rings) {
    return makeLatLong(radiusCm, 0.0f, segments, rings);
}

Mesh makeCapsule(float radiusCm, float halfLengthCm, int segments, int rings) {
    return makeLatLong(radiusCm, halfLengthCm, segments, std::max(rings, 2) * 2);
}

Mesh makeCylinder(float radiusCm, float halfWidthCm, int segments) {
    Mesh mesh;
    const float pi = std::numbers::pi_v<float>;
    segments = std::max(segments, 3);
    const auto rim = [&](int segment) {
        const float phi = 2.0f * pi * float(segment) / float(segments);
        return glm::vec3(std::cos(phi), 0.0f, std::sin(phi));
    };
    // The tread: one quad per segment, its normals radial.
    for (int segment = 0; segment <= segments; ++segment) {
        const glm::vec3 normal = rim(segment);
        for (float side : {-1.0f, 1.0f}) {
            mesh.positions.push_back(normal * radiusCm + glm::vec3(0.0f, side * halfWidthCm, 0.0f));
            mesh.normals.push_back(normal);
        }
    }
    for (int segment = 0; segment < segments; ++segment) {
        const std::uint32_t a = 2 * segment, b = a + 1, c = a + 2, d = a + 3;
        mesh.indices.insert(mesh.indices.end(), {a, d, c, a, b, d});
    }
    // The caps: a fan about each side's centre, facing out along -Y and +Y.
    for (float side : {-1.0f, 1.0f}) {
        const glm::vec3 normal(0.0f, side, 0.0f);
        const auto centre = static_cast<std::uint32_t>(mesh.positions.size());
        mesh.positions.push_back(normal * halfWidthCm);
        mesh.normals.push_back(normal);
        for (int segment = 0; segment < segments; ++segment) {
            mesh.positions.push_back(rim(segment) * radiusCm + normal * halfWidthCm);
            mesh.normals.push_back(normal);
        }
        for (int segment = 0; segment < segments; ++segment) {
            const std::uint32_t a = centre + 1 + std::uint32_t(segment);
            const std::uint32_t b = centre + 1 + std::uint32_t((segment + 1) % segments);
            if (side > 0)
                mesh.indices.insert(mesh.indices.end(), {centre, b, a});
            else
                mesh.indices.insert(mesh.indices.end(), {centre, a, b});
        }
    }
    return mesh;
}

Mesh makeBox(glm::vec3 h) {
    Mesh mesh;
    const glm::vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int axis = 0; axis < 3; ++axis)
        for (float sign : {-1.0f, 1.0f}) {
            const glm::vec3 n = axes[axis] * sign;
            const glm::vec3 u = axes[(axis + 1) % 3], v = axes[(axis + 2) % 3];
            const auto base = static_cast<std::uint32_t>(mesh.positions.size());
            for (int corner = 0; corner < 4; ++corner) {
                const float su = (corner & 1) ? 1.0f : -1.0f, sv = (corner & 2) ? 1.0f : -1.0f;
                mesh.positions.push_back((n + u * su + v * sv) * h);
                mesh.normals.push_back(n);
            }
            if (sign > 0)
                mesh.indices.insert(mesh.indices.end(),
                                    {base, base + 1, base + 3, base, base + 3, base + 2});
            else
                mesh.indices.insert(mesh.indices.end(),
                                    {base, base + 3, base + 1, base, base + 2, base + 3});
        }
    return mesh;
}

} // namespace snowcap
