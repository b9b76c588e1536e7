#pragma once
// Capture subsets: the contact capture only needs what can come down to the snow, and most of
// a walking character never does (torso, arms, head). Each mesh gets, once, the triangles
// whose skinned position can come within a band above its lowest point over its clips (the
// snow's depth plus a margin); the capture draws only those for an instance whose band covers
// every height the capture's mask responds to. Conservative by construction: the clip is
// sampled at every key and densely between, and each vertex's motion between two samples is
// bounded from the joints' own rates (a slerp turns at a constant rate, a translation or scale
// moves at one), so a triangle that can reach the band at any time is kept, never only one
// that reaches it at a sample. No GL.

#include "core/settings.hpp"
#include "scene/mesh.hpp"
#include "scene/skeleton.hpp"

#include <cstdint>
#include <glm/gtc/type_precision.hpp>
#include <glm/vec4.hpp>
#include <limits>
#include <span>
#include <vector>

namespace snowcap {

// Margin above the snow's depth (cm) in the band: a member standing a little lower than on the
// ground (sunk into it, or its path a few centimetres low) still takes its subset.
inline constexpr double kCaptureSubsetMarginCm = 10.0;

// The band a subset keeps, in world cm from the mesh's lowest point: snow.depth_cm + margin;
// 0 (no subsets) with capture.subset = "off" or quality "off".
double captureSubsetBandCm(const Settings& settings);

// The highest world z at which anything changes what a capture's sims read: above it the mask
// is exactly 0 and the contact code unread (accumulate.frag: mask > 0 only where depth + offset
// < distance, i.e. below camera + distance - offset), plus a slack for the depth store's
// rounding (two D16 steps) and the vertex transform's float error (1 cm). +infinity with
// capture.subset = "off": no instance takes a subset and none is culled for its height.
double captureSubsetCeilingCm(const Settings& settings);

// How a skinned mesh moves: its skin and the clips its deformers play (none: the rest pose).
struct SkinnedMotion {
    std::span<const glm::u16vec4> joints;
    std::span<const glm::vec4> weights;
    const Skeleton* skeleton = nullptr;
    std::span<const AnimationClip* const> clips;
};

struct VertexReachOptions {
    int intervals = 0;       // uniform intervals per clip besides the keys; 0: chosen by size
    bool boundMotion = true; // false: the samples alone (for the tests that show why not)
};

// How low a mesh's vertices go over its clips (mesh space, cm, as the GPU skins them: weights
// as stored, not renormalised).
struct VertexReach {
    // Per vertex, a lower bound of its z over every time of every clip; its bind z for a rigid
    // mesh. A vertex the GPU cannot place (no weight, a joint outside the skeleton, not
    // finite) gets -infinity.
    std::vector<float> lowestZ;
    // The lowest z any vertex reached at a sample: where the mesh's lowest point really is
    // (within the bound's slack), the band's base. +infinity when nothing was placed.
    float sampledLowestCm = std::numeric_limits<float>::infinity();
};
VertexReach lowestVertexZ(const Mesh& mesh, const SkinnedMotion* motion = nullptr,
                          const VertexReachOptions& options = {});

struct CaptureSubset {
    std::vector<std::uint32_t> indices; // triangles of the source list that can reach the band
    float lowestCm = 0.0f;              // the lowest any vertex can go (a lower bound), mesh space
    float baseCm = 0.0f;                // the band's base: the lowest point the samples reached
    float bandTopCm = 0.0f; // baseCm + band: exact for everything at or below, mesh space
    std::size_t sourceTriangles = 0;
    bool valid = false; // false: no subset (no band)
    std::size_t triangles() const { return indices.size() / 3; }
};

// Keeps the triangles of `source` (the full list or a capture proxy's, over the same vertices)
// with a vertex whose lower bound is at most `bandCm` above the band's base (the lowest point
// sampled). A triangle kept whole: any point of a triangle at or below a height has a vertex at
// or below it; and a bound below the top keeps it whatever the base, so the subset is exact up
// to the top whichever base is chosen. No subset when `bandCm` <= 0.
CaptureSubset buildCaptureSubset(std::span<const std::uint32_t> source, const VertexReach& reach,
                                 double bandCm);

} // namespace snowcap
