#include "make_assets_plants.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <numbers>

namespace snowcap::assets {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// A fixed value in [0, 1) per (seed, index): the plants vary blade by blade, the same every run.
float hash01(std::uint32_t seed, std::uint32_t index) {
    std::uint32_t h = seed * 0x9E3779B1u ^ (index + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return float(h >> 8) / float(1u << 24);
}

void append(Mesh& to, const Mesh& part, const glm::mat4& transform) {
    const auto base = static_cast<std::uint32_t>(to.positions.size());
    const glm::mat3 normalMatrix = glm::transpose(glm::inverse(glm::mat3(transform)));
    for (std::size_t v = 0; v < part.positions.size(); ++v) {
        to.positions.push_back(glm::vec3(transform * glm::vec4(part.positions[v], 1.0f)));
        to.normals.push_back(glm::normalize(normalMatrix * part.normals[v]));
    }
    for (std::uint32_t index : part.indices)
        to.indices.push_back(base + index);
}

// One quad with its own four corners, wound to face `normal`.
void quad(Mesh& mesh, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d, glm::vec3 normal) {
    const auto base = static_cast<std::uint32_t>(mesh.positions.size());
    for (const glm::vec3& p : {a, b, c, d}) {
        mesh.positions.push_back(p);
        mesh.normals.push_back(normal);
    }
    const bool flip = glm::dot(glm::cross(b - a, c - a), normal) < 0.0f;
    mesh.indices.insert(mesh.indices.end(),
                        {base, base + (flip ? 2u : 1u), base + (flip ? 1u : 2u), base,
                         base + (flip ? 3u : 2u), base + (flip ? 2u : 3u)});
}

// A blade: a strip along a centreline that starts at `root`, heads out along azimuth
// `azimuth`, its angle from the vertical growing linearly from `tilt0` to `tilt1` (so it arches
// over), `width0` wide at the root tapering to a fifth at the tip. Both faces have their own
// vertices, so the blade is lit from either side and its normals stay those of a thin strip.
void blade(Mesh& mesh, glm::vec3 root, float azimuth, float length, float tilt0, float tilt1,
           float width0) {
    constexpr int kSegments = 5;
    const glm::vec3 out(std::cos(azimuth), std::sin(azimuth), 0.0f);
    const glm::vec3 across(-out.y, out.x, 0.0f);
    glm::vec3 point = root;
    std::array<glm::vec3, kSegments + 1> centre{};
    std::array<glm::vec3, kSegments + 1> facing{};
    for (int i = 0; i <= kSegments; ++i) {
        const float s = float(i) / kSegments;
        const float tilt = tilt0 + (tilt1 - tilt0) * s;
        const glm::vec3 along = std::sin(tilt) * out + glm::vec3(0, 0, std::cos(tilt));
        centre[i] = point;
        facing[i] = glm::normalize(glm::cross(across, along)); // up-and-out side
        point += along * (length / kSegments);
    }
    for (int i = 0; i < kSegments; ++i) {
        const float w0 = 0.5f * width0 * (1.0f - 0.8f * float(i) / kSegments);
        const float w1 = 0.5f * width0 * (1.0f - 0.8f * float(i + 1) / kSegments);
        const glm::vec3 a = centre[i] - across * w0, b = centre[i] + across * w0;
        const glm::vec3 c = centre[i + 1] + across * w1, d = centre[i + 1] - across * w1;
        const glm::vec3 n = glm::normalize(facing[i] + facing[i + 1]);
        quad(mesh, a, b, c, d, n);
        quad(mesh, a, b, c, d, -n);
    }
}

// A tapered square stick from `from` to `to` (four sides; the ends are hidden in clumps).
void stick(Mesh& mesh, glm::vec3 from, glm::vec3 to, float radius0, float radius1) {
    const glm::vec3 axis = glm::normalize(to - from);
    const glm::vec3 side = glm::normalize(
        glm::cross(axis, std::abs(axis.z) < 0.9f ? glm::vec3(0, 0, 1) : glm::vec3(1, 0, 0)));
    const glm::vec3 other = glm::cross(axis, side);
    const glm::vec3 dirs[4] = {side, other, -side, -other};
    for (int k = 0; k < 4; ++k) {
        const glm::vec3 u = dirs[k], v = dirs[(k + 1) % 4];
        quad(mesh, from + radius0 * (u + v) * 0.7071f, from + radius0 * (v - u) * 0.7071f,
             to + radius1 * (v - u) * 0.7071f, to + radius1 * (u + v) * 0.7071f, glm::normalize(v));
    }
}

} // namespace

Mesh grassTuft() {
    Mesh mesh;
    // The clump the blades grow from: a squat cone, 3 cm across at the ground.
    append(mesh, makeSphere(1.0f, 8, 4),
           glm::translate(glm::mat4(1.0f), {0, 0, 2.0f}) *
               glm::scale(glm::mat4(1.0f), {1.5f, 1.5f, 2.0f}));
    constexpr int kBlades = 14;
    for (int i = 0; i < kBlades; ++i) {
        const float azimuth = 2.0f * kPi * (float(i) + 0.6f * hash01(1, i)) / kBlades;
        // Inner blades stand, outer ones arch over: the tilt grows with how far out it starts.
        const float outward = hash01(2, i);
        const float tilt0 = glm::radians(4.0f + 26.0f * outward);
        const float tilt1 = tilt0 + glm::radians(25.0f + 85.0f * outward);
        const float length = 34.0f + 12.0f * hash01(3, i) - 8.0f * outward;
        const glm::vec3 root = 0.8f * glm::vec3(std::cos(azimuth), std::sin(azimuth), 0.0f) +
                               glm::vec3(0, 0, 0.5f + 1.5f * hash01(4, i));
        blade(mesh, root, azimuth, length, tilt0, tilt1, 2.0f + 1.0f * hash01(5, i));
    }
    return mesh;
}

Mesh bush() {
    Mesh mesh;
    const glm::vec3 fork(0, 0, 12.0f);
    stick(mesh, {0, 0, 0}, fork, 2.0f, 1.6f);
    // Five branches out and up from the fork, each carrying a flattened leaf cluster.
    constexpr int kBranches = 5;
    for (int i = 0; i < kBranches; ++i) {
        const float azimuth = 2.0f * kPi * (float(i) + 0.5f * hash01(11, i)) / kBranches;
        const float reach = 18.0f + 8.0f * hash01(12, i);
        const float height = 8.0f + 26.0f * hash01(13, i);
        const glm::vec3 tip =
            fork + glm::vec3(reach * std::cos(azimuth), reach * std::sin(azimuth), height);
        stick(mesh, fork, tip, 1.2f, 0.6f);
        const float radius = 11.0f + 4.0f * hash01(14, i);
        append(mesh, makeSphere(1.0f, 10, 6),
               glm::translate(glm::mat4(1.0f), tip) *
                   glm::scale(glm::mat4(1.0f), {radius, radius, 0.7f * radius}));
    }
    // A cluster on top of the stem fills the middle.
    append(mesh, makeSphere(1.0f, 10, 6),
           glm::translate(glm::mat4(1.0f), fork + glm::vec3(0, 0, 36.0f)) *
               glm::scale(glm::mat4(1.0f), {13.0f, 13.0f, 10.0f}));
    return mesh;
}

} // namespace snowcap::assets
