#pragma once
// Capture proxies: the contact capture only needs a deformer's depth from below, not its
// detail, so each mesh gets a simplified index list for that pass (meshoptimizer), with an
// error bound tied to the capture's texel size. The proxy indexes the full mesh's own vertices,
// so skin weights, normals and the vertex buffer are shared and a skinned proxy animates.

#include "core/settings.hpp"
#include "scene/mesh.hpp"

#include <cstdint>
#include <glm/gtc/type_precision.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <vector>

namespace snowcap {

struct CaptureProxy {
    std::vector<std::uint32_t> indices; // triangles over the full mesh's vertices; empty: none
    double errorCm = 0.0;               // measured (measureProxyErrorCm), within the bound
    std::size_t triangles() const { return indices.size() / 3; }
};

// The error a proxy may have in `settings` (world cm): capture.proxy_error_cm, or half a texel
// of the finest capture when that is 0; 0 (no proxy) with capture.proxy = "off" or quality "off".
double captureProxyErrorCm(const Settings& settings);

// Simplifies `mesh` while its error stays under `maxErrorCm` (mesh units, cm). Vertices that
// share a position (and, for a skinned mesh, joints and weights) are welded first, so normal
// and UV seams do not hold the simplifier back. meshoptimizer's own error estimate runs low
// (its quadrics measure distance to planes, not to the simplified surface: measured up to 1.7x
// on the bundled meshes), so the result is measured and the simplifier rerun with a tighter
// target until the measured error is within the bound. Returns no proxy when `maxErrorCm` <= 0
// or when simplifying saves less than a tenth of the triangles (the full mesh is then drawn).
CaptureProxy buildCaptureProxy(const Mesh& mesh, double maxErrorCm,
                               std::span<const glm::u16vec4> joints = {},
                               std::span<const glm::vec4> weights = {});

// The largest distance from a full-mesh vertex to the proxy's surface (cm), over at most
// `maxSamples` vertices spread evenly through the vertex list (all of them in every bundled
// mesh): the error as measured, not as estimated. 0 for an empty proxy.
double measureProxyErrorCm(const Mesh& mesh, std::span<const std::uint32_t> proxyIndices,
                           std::size_t maxSamples = 4096);

} // namespace snowcap
