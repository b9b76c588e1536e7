#include "scene/capture_proxy.hpp"

#include "core/quality.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <glm/geometric.hpp>
#include <map>
#include <meshoptimizer.h>

namespace snowcap {

double captureProxyErrorCm(const Settings& given) {
    if (given.capture.proxy == CaptureProxyMode::Off || snowDisabled(given))
        return 0.0;
    if (given.capture.proxyErrorCm > 0.0)
        return given.capture.proxyErrorCm;
    // The finest capture decides: every capture draws the same proxy.
    const Settings settings = effectiveSettings(given);
    int finest = settings.snow.resolution;
    for (const SimSettings& sim : settings.sims)
        finest = std::max(finest, sim.resolution);
    return settings.snow.orthoWidthCm / finest / 2.0;
}

namespace {

// Each vertex's representative: the first vertex with the same position (and skin).
std::vector<std::uint32_t> weldedIndices(const Mesh& mesh, std::span<const glm::u16vec4> joints,
                                         std::span<const glm::vec4> weights) {
    const bool skinned =
        joints.size() == mesh.positions.size() && weights.size() == mesh.positions.size();
    using Key = std::array<std::uint32_t, 11>;
    std::map<Key, std::uint32_t> first;
    std::vector<std::uint32_t> representative(mesh.positions.size());
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        Key key{};
        for (int c = 0; c < 3; ++c)
            key[c] = std::bit_cast<std::uint32_t>(mesh.positions[v][c]);
        if (skinned) {
            key[3] = joints[v].x | std::uint32_t(joints[v].y) << 16;
            key[4] = joints[v].z | std::uint32_t(joints[v].w) << 16;
            for (int c = 0; c < 4; ++c)
                key[5 + c] = std::bit_cast<std::uint32_t>(weights[v][c]);
        }
        representative[v] = first.try_emplace(key, std::uint32_t(v)).first->second;
    }
    std::vector<std::uint32_t> indices;
    indices.reserve(mesh.indices.size());
    for (std::uint32_t i : mesh.indices)
        indices.push_back(i < representative.size() ? representative[i] : i);
    return indices;
}

// Closest point on triangle abc to p (Ericson, Real-Time Collision Detection, 5.1.5).
glm::vec3 closestOnTriangle(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
    const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f)
        return a;
    const glm::vec3 bp = p - b;
    const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3)
        return b;
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f)
        return a + ab * (d1 / (d1 - d3));
    const glm::vec3 cp = p - c;
    const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6)
        return c;
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f)
        return a + ac * (d2 / (d2 - d6));
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f)
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    const float denom = 1.0f / (va + vb + vc);
    return a + ab * (vb * denom) + ac * (vc * denom);
}

} // namespace

CaptureProxy buildCaptureProxy(const Mesh& mesh, double maxErrorCm,
                               std::span<const glm::u16vec4> joints,
                               std::span<const glm::vec4> weights) {
    CaptureProxy proxy;
    if (!(maxErrorCm > 0.0) || mesh.indices.size() < 3 || mesh.positions.empty())
        return proxy;
    for (std::uint32_t i : mesh.indices)
        if (i >= mesh.positions.size())
            return proxy; // not a mesh the simplifier can read: capture the full one
    const std::vector<std::uint32_t> welded = weldedIndices(mesh, joints, weights);
    const float* positions = &mesh.positions[0].x;
    const std::size_t stride = sizeof(glm::vec3);
    // meshoptimizer's error is relative to the mesh's extent.
    const float scale = meshopt_simplifyScale(positions, mesh.positions.size(), stride);
    if (!(scale > 0.0f))
        return proxy;
    std::vector<std::uint32_t> out(welded.size());
    double target = maxErrorCm;
    for (int attempt = 0; attempt < 8; ++attempt) {
        // Target 0 triangles: only the error bound stops it.
        const std::size_t count =
            meshopt_simplify(out.data(), welded.data(), welded.size(), positions,
                             mesh.positions.size(), stride, 0, float(target / scale), 0, nullptr);
        if (count == 0 || count * 10 > mesh.indices.size() * 9)
            return proxy; // too little saved (a tighter target only saves less)
        const std::span<const std::uint32_t> simplified(out.data(), count);
        const double measured = measureProxyErrorCm(mesh, simplified);
        if (measured <= maxErrorCm) {
            proxy.indices.assign(simplified.begin(), simplified.end());
            proxy.errorCm = measured;
            return proxy;
        }
        // Aim under the bound by the factor the estimate overshot it, and a margin.
        target *= 0.9 * maxErrorCm / measured;
    }
    return proxy;
}

double measureProxyErrorCm(const Mesh& mesh, std::span<const std::uint32_t> proxyIndices,
                           std::size_t maxSamples) {
    if (proxyIndices.size() < 3)
        return 0.0;
    std::vector<bool> used(mesh.positions.size(), false);
    for (std::uint32_t i : mesh.indices)
        if (i < used.size())
            used[i] = true;
    std::vector<std::uint32_t> vertices;
    for (std::uint32_t v = 0; v < used.size(); ++v)
        if (used[v])
            vertices.push_back(v);
    const std::size_t step =
        std::max<std::size_t>(1, vertices.size() / std::max<std::size_t>(1, maxSamples));
    double worst = 0.0;
    for (std::size_t s = 0; s < vertices.size(); s += step) {
        const glm::vec3 p = mesh.positions[vertices[s]];
        float nearest = INFINITY;
        for (std::size_t t = 0; t + 2 < proxyIndices.size() && nearest > 0.0f; t += 3) {
            const glm::vec3 q = closestOnTriangle(p, mesh.positions[proxyIndices[t]],
                                                  mesh.positions[proxyIndices[t + 1]],
                                                  mesh.positions[proxyIndices[t + 2]]);
            const glm::vec3 d = p - q;
            nearest = std::min(nearest, glm::dot(d, d));
        }
        worst = std::max(worst, double(std::sqrt(nearest)));
    }
    return worst;
}

} // namespace snowcap
