#include "scene/capture_subset.hpp"

#include "core/quality.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat3x3.hpp>

namespace snowcap {

double captureSubsetBandCm(const Settings& settings) {
    if (settings.capture.subset == CaptureSubsetMode::Off || snowDisabled(settings))
        return 0.0;
    return std::max(settings.snow.depthCm, 0.0) + kCaptureSubsetMarginCm;
}

double captureSubsetCeilingCm(const Settings& settings) {
    if (settings.capture.subset == CaptureSubsetMode::Off || snowDisabled(settings))
        return std::numeric_limits<double>::infinity();
    const double camera = settings.snow.surfaceZCm + settings.snow.captureZCm;
    const double reach = settings.capture.distanceCm - settings.capture.offsetCm;
    const double slack = 1.0 + 2.0 * settings.capture.farCm / 65535.0;
    return camera + std::max(reach, 0.0) + slack;
}

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// One joint's local transform at a time, as jointGlobals samples it, but at the raw time (no
// wrap), so a clip's last instant is its last key and not its first.
struct LocalPose {
    glm::vec3 translation;
    glm::quat rotation;
    glm::vec3 scale;
};

std::vector<LocalPose> localPoses(const Skeleton& skeleton, const AnimationClip* clip,
                                  double timeS) {
    std::vector<LocalPose> poses(skeleton.joints.size());
    for (std::size_t i = 0; i < poses.size(); ++i)
        poses[i] = {skeleton.joints[i].restTranslation, skeleton.joints[i].restRotation,
                    skeleton.joints[i].restScale};
    if (!clip)
        return poses;
    for (const JointChannel& channel : clip->channels) {
        if (channel.joint < 0 || std::size_t(channel.joint) >= poses.size())
            continue;
        LocalPose& p = poses[std::size_t(channel.joint)];
        p.translation = sampleKeys(channel.translations, timeS, p.translation);
        p.rotation = sampleKeys(channel.rotations, timeS, p.rotation);
        p.scale = sampleKeys(channel.scales, timeS, p.scale);
    }
    return poses;
}

// Global x inverse bind of every joint, the same products as skinningMatrices (without the
// in-place correction, which moves across the ground only and so leaves z alone).
std::vector<glm::mat4> skinningOf(const Skeleton& skeleton, std::span<const LocalPose> poses) {
    std::vector<glm::mat4> globals(poses.size());
    for (std::size_t i = 0; i < poses.size(); ++i) {
        const glm::mat4 local = glm::translate(glm::mat4(1.0f), poses[i].translation) *
                                glm::mat4_cast(poses[i].rotation) *
                                glm::scale(glm::mat4(1.0f), poses[i].scale);
        const int parent = skeleton.joints[i].parent;
        const bool hasParent = parent >= 0 && std::size_t(parent) < i;
        globals[i] = (hasParent ? globals[std::size_t(parent)] : skeleton.root) * local;
    }
    for (std::size_t i = 0; i < globals.size(); ++i)
        globals[i] = globals[i] * skeleton.joints[i].inverseBind;
    return globals;
}

// Over one interval inside which every channel moves along one key segment: how fast a point
// held by joint j (at offset r in j's bind frame, |r| = distance) can move is at most
// speedA[j] + speedB[j] * distance. For the chain root' * L_0 * ... * L_j, the velocity is the
// sum over k of (prefix before k) * dL_k/dt * (suffix after k) r, and
//   |prefix| <= |root| * prod(scale_i),   |suffix r| <= a_k + b_k |r| (|L u| <= |t| + s |u|),
//   |dL/dt u| <= |dt/dt| + (omega * s + |ds/dt|) |u|,
// with omega the slerp's constant angular rate, s the largest scale along the interval
// (componentwise linear: the larger end), |t| the longer end translation (linear: convex).
struct JointRates {
    std::vector<float> speedA, speedB;
};

// An upper bound of the operator norm of m's linear part: the square root of the largest
// absolute row sum of mᵀm (Gershgorin bounds its largest eigenvalue). Exact for a rotation
// times a uniform scale, such as the importer's file-to-world conversion.
float operatorNormBound(const glm::mat4& m) {
    const glm::mat3 a(m);
    const glm::mat3 gram = glm::transpose(a) * a;
    float largest = 0.0f;
    for (int r = 0; r < 3; ++r)
        largest =
            std::max(largest, std::abs(gram[0][r]) + std::abs(gram[1][r]) + std::abs(gram[2][r]));
    // A little over, for the rounding of the products above.
    return std::sqrt(largest) * 1.0001f;
}

JointRates jointRates(const Skeleton& skeleton, std::span<const LocalPose> a,
                      std::span<const LocalPose> b, double dtS) {
    const std::size_t count = a.size();
    struct Bounds {
        float translation, scale, linear, angular; // |t|max, s max, |dt/dt|, omega s + |ds/dt|
    };
    std::vector<Bounds> bounds(count);
    const float inv = float(1.0 / dtS);
    for (std::size_t i = 0; i < count; ++i) {
        const float qa = glm::dot(a[i].rotation, a[i].rotation);
        const float qb = glm::dot(b[i].rotation, b[i].rotation);
        // mat4_cast of a quaternion off unit length scales by its squared length.
        const float rotationScale = std::max({qa, qb, 1.0f});
        const glm::vec3 sa = glm::abs(a[i].scale), sb = glm::abs(b[i].scale);
        const float scale = std::max({sa.x, sa.y, sa.z, sb.x, sb.y, sb.z}) * rotationScale;
        const glm::vec3 ds = glm::abs(b[i].scale - a[i].scale) * inv;
        // The angle between the two ends' unit quaternions, the short way (as slerp goes);
        // 2 % slack for keys stored a little off unit length (slerp then renormalise).
        const float cosHalf = std::min(
            1.0f, std::abs(glm::dot(glm::normalize(a[i].rotation), glm::normalize(b[i].rotation))));
        const float omega = 2.0f * std::acos(cosHalf) * inv * 1.02f;
        bounds[i] = {std::max(glm::length(a[i].translation), glm::length(b[i].translation)), scale,
                     glm::length(b[i].translation - a[i].translation) * inv,
                     omega * scale + std::max({ds.x, ds.y, ds.z}) * rotationScale};
    }
    const float rootNorm = operatorNormBound(skeleton.root);
    JointRates rates{std::vector<float>(count), std::vector<float>(count)};
    std::vector<std::size_t> chain;
    for (std::size_t j = 0; j < count; ++j) {
        chain.clear();
        for (std::size_t k = j;;) { // j, its parent, ..., a root
            chain.push_back(k);
            const int parent = skeleton.joints[k].parent;
            if (parent < 0 || std::size_t(parent) >= k)
                break;
            k = std::size_t(parent);
        }
        std::reverse(chain.begin(), chain.end()); // root first
        std::vector<float> prefix(chain.size());
        float product = rootNorm;
        for (std::size_t k = 0; k < chain.size(); ++k) {
            prefix[k] = product;
            product *= bounds[chain[k]].scale;
        }
        float suffixA = 0.0f, suffixB = 1.0f, speedA = 0.0f, speedB = 0.0f;
        for (std::size_t k = chain.size(); k-- > 0;) {
            const Bounds& bk = bounds[chain[k]];
            speedA += prefix[k] * (bk.linear + bk.angular * suffixA);
            speedB += prefix[k] * bk.angular * suffixB;
            suffixA = bk.translation + bk.scale * suffixA;
            suffixB = bk.scale * suffixB;
        }
        rates.speedA[j] = speedA;
        rates.speedB[j] = speedB;
    }
    return rates;
}

// The sample times of a clip: every key (so each interval lies inside one key segment of every
// channel) and `intervals` uniform steps, within [0, duration].
std::vector<double> sampleTimes(const AnimationClip& clip, int intervals) {
    std::vector<double> times;
    const double duration = std::max(clip.durationS, 0.0);
    for (int i = 0; i <= intervals; ++i)
        times.push_back(duration * i / intervals);
    const auto add = [&](double t) {
        if (t > 0.0 && t < duration)
            times.push_back(t);
    };
    for (const JointChannel& channel : clip.channels) {
        for (const auto& key : channel.translations)
            add(key.timeS);
        for (const auto& key : channel.rotations)
            add(key.timeS);
        for (const auto& key : channel.scales)
            add(key.timeS);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    return times;
}

// z of vertex v skinned by `matrices` as deformer_vertex.glsl does (weights as stored).
float skinnedZ(const glm::vec3& p, const glm::u16vec4& j, const glm::vec4& w,
               std::span<const glm::mat4> matrices) {
    float z = 0.0f;
    for (int k = 0; k < 4; ++k) {
        if (w[k] == 0.0f)
            continue;
        const glm::mat4& m = matrices[j[k]];
        z += w[k] * (m[0][2] * p.x + m[1][2] * p.y + m[2][2] * p.z + m[3][2]);
    }
    return z;
}

} // namespace

VertexReach lowestVertexZ(const Mesh& mesh, const SkinnedMotion* motion,
                          const VertexReachOptions& options) {
    const std::size_t vertices = mesh.positions.size();
    VertexReach result;
    std::vector<float>& lowest = result.lowestZ;
    lowest.assign(vertices, kInf);
    float& sampled = result.sampledLowestCm;
    const bool skinned = motion && motion->skeleton && !motion->skeleton->empty() &&
                         motion->joints.size() == vertices && motion->weights.size() == vertices;
    if (!skinned) {
        for (std::size_t v = 0; v < vertices; ++v) {
            lowest[v] = std::isfinite(mesh.positions[v].z) ? mesh.positions[v].z : -kInf;
            if (std::isfinite(lowest[v]))
                sampled = std::min(sampled, lowest[v]);
        }
        return result;
    }
    const Skeleton& skeleton = *motion->skeleton;
    const std::size_t joints = skeleton.joints.size();
    // Vertices the GPU cannot place well (no weight, a joint it has no matrix for) keep
    // their triangles whatever happens.
    std::vector<char> placeable(vertices, 1);
    // Per vertex and influence: the distance of the bind position from that joint's bind frame.
    std::vector<glm::vec4> reach(vertices, glm::vec4(0.0f));
    for (std::size_t v = 0; v < vertices; ++v) {
        const glm::vec4 w = motion->weights[v];
        bool any = false;
        for (int k = 0; k < 4; ++k) {
            if (!std::isfinite(w[k]))
                placeable[v] = 0;
            if (w[k] == 0.0f)
                continue;
            any = true;
            const std::size_t j = motion->joints[v][k];
            if (j >= joints) {
                placeable[v] = 0;
                continue;
            }
            reach[v][k] = glm::length(
                glm::vec3(skeleton.joints[j].inverseBind * glm::vec4(mesh.positions[v], 1.0f)));
        }
        if (!any || !std::isfinite(mesh.positions[v].x + mesh.positions[v].y + mesh.positions[v].z))
            placeable[v] = 0;
    }
    std::vector<const AnimationClip*> clips(motion->clips.begin(), motion->clips.end());
    if (clips.empty())
        clips.push_back(nullptr); // the rest pose
    // Intervals: about 20 million vertex-interval steps at most (a 50,000-vertex mesh still
    // gets 400 a clip), at least 64; keys come on top.
    const int intervals = options.intervals > 0
                              ? options.intervals
                              : int(std::clamp<std::size_t>(
                                    20'000'000 / std::max<std::size_t>(vertices, 1), 64, 1024));
    const auto visit = [&](std::span<const glm::mat4> matrices) {
        for (std::size_t v = 0; v < vertices; ++v)
            if (placeable[v]) {
                const float z =
                    skinnedZ(mesh.positions[v], motion->joints[v], motion->weights[v], matrices);
                lowest[v] = std::min(lowest[v], z);
                sampled = std::min(sampled, z);
            }
    };
    std::vector<float> zA(vertices), zB(vertices);
    for (const AnimationClip* clip : clips) {
        const bool animated = clip && clip->durationS > 0.0 && !clip->channels.empty();
        if (!animated) {
            visit(skinningOf(skeleton, localPoses(skeleton, clip, 0.0)));
            continue;
        }
        const std::vector<double> times = sampleTimes(*clip, intervals);
        std::vector<LocalPose> posesA = localPoses(skeleton, clip, times.front());
        std::vector<glm::mat4> matricesA = skinningOf(skeleton, posesA);
        for (std::size_t v = 0; v < vertices; ++v)
            if (placeable[v])
                zA[v] =
                    skinnedZ(mesh.positions[v], motion->joints[v], motion->weights[v], matricesA);
        for (std::size_t s = 1; s < times.size(); ++s) {
            const double dt = times[s] - times[s - 1];
            std::vector<LocalPose> posesB = localPoses(skeleton, clip, times[s]);
            const std::vector<glm::mat4> matricesB = skinningOf(skeleton, posesB);
            JointRates rates;
            if (options.boundMotion)
                rates = jointRates(skeleton, posesA, posesB, dt);
            for (std::size_t v = 0; v < vertices; ++v) {
                if (!placeable[v])
                    continue;
                zB[v] =
                    skinnedZ(mesh.positions[v], motion->joints[v], motion->weights[v], matricesB);
                sampled = std::min(sampled, zB[v]);
                float low = std::min(zA[v], zB[v]);
                if (options.boundMotion) {
                    // A path from zA to zB at speed <= V over dt goes no lower than
                    // (zA + zB - V dt) / 2.
                    float speed = 0.0f;
                    for (int k = 0; k < 4; ++k) {
                        const float w = motion->weights[v][k];
                        if (w == 0.0f)
                            continue;
                        const std::size_t j = motion->joints[v][k];
                        speed += std::abs(w) * (rates.speedA[j] + rates.speedB[j] * reach[v][k]);
                    }
                    low = std::min(low, 0.5f * (zA[v] + zB[v] - speed * float(dt)));
                }
                lowest[v] = std::min(lowest[v], low);
                zA[v] = zB[v];
            }
            posesA = std::move(posesB);
        }
    }
    for (std::size_t v = 0; v < vertices; ++v)
        if (!placeable[v] || !std::isfinite(lowest[v]))
            lowest[v] = -kInf;
    return result;
}

CaptureSubset buildCaptureSubset(std::span<const std::uint32_t> source, const VertexReach& reach,
                                 double bandCm) {
    CaptureSubset subset;
    subset.sourceTriangles = source.size() / 3;
    const std::span<const float> lowestZ = reach.lowestZ;
    if (!(bandCm > 0.0) || source.size() < 3 || !std::isfinite(reach.sampledLowestCm))
        return subset;
    // The lowest bound of the vertices the triangles use (what culling by height may trust);
    // vertices the GPU cannot place (-inf) are kept below and do not pull it down with them.
    float lowest = kInf;
    for (std::uint32_t i : source)
        if (i < lowestZ.size() && std::isfinite(lowestZ[i]))
            lowest = std::min(lowest, lowestZ[i]);
    if (!std::isfinite(lowest))
        return subset;
    // Float error of the products above and of the GPU's own (a few ulps of coordinates of a
    // few metres): a hundredth of a centimetre, well under the band's own margin.
    constexpr float kRoundingCm = 0.01f;
    subset.lowestCm = lowest - kRoundingCm;
    subset.baseCm = reach.sampledLowestCm;
    subset.bandTopCm = float(reach.sampledLowestCm + bandCm);
    const float keepBelow = subset.bandTopCm + kRoundingCm;
    for (std::size_t t = 0; t + 2 < source.size(); t += 3) {
        bool reaches = false;
        for (int c = 0; c < 3; ++c) {
            const std::uint32_t i = source[t + std::size_t(c)];
            if (i >= lowestZ.size() || !(lowestZ[i] > keepBelow))
                reaches = true; // NaN and -inf included
        }
        if (reaches)
            subset.indices.insert(subset.indices.end(), source.begin() + std::ptrdiff_t(t),
                                  source.begin() + std::ptrdiff_t(t + 3));
    }
    subset.valid = true;
    return subset;
}

} // namespace snowcap
