#include "scene/skeleton.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <tuple>

namespace snowcap {

glm::mat4 Joint::restLocal() const {
    return glm::translate(glm::mat4(1.0f), restTranslation) * glm::mat4_cast(restRotation) *
           glm::scale(glm::mat4(1.0f), restScale);
}

int Skeleton::find(std::string_view name) const {
    for (std::size_t i = 0; i < joints.size(); ++i)
        if (joints[i].name == name)
            return static_cast<int>(i);
    return -1;
}

namespace {

// The pair of keys around `timeS` and how far between them it lies; first == second outside
// the keyed range, so the end values hold there.
template <class T>
std::tuple<const T*, const T*, float> bracket(std::span<const Keyframe<T>> keys, double timeS) {
    if (timeS <= keys.front().timeS)
        return {&keys.front().value, &keys.front().value, 0.0f};
    if (timeS >= keys.back().timeS)
        return {&keys.back().value, &keys.back().value, 0.0f};
    const auto after =
        std::upper_bound(keys.begin(), keys.end(), timeS,
                         [](double t, const Keyframe<T>& key) { return t < key.timeS; });
    const auto before = after - 1;
    const double span = after->timeS - before->timeS;
    const float amount = span > 0.0 ? static_cast<float>((timeS - before->timeS) / span) : 1.0f;
    return {&before->value, &after->value, amount};
}

} // namespace

glm::vec3 sampleKeys(std::span<const Keyframe<glm::vec3>> keys, double timeS, glm::vec3 fallback) {
    if (keys.empty())
        return fallback;
    const auto [a, b, amount] = bracket(keys, timeS);
    return glm::mix(*a, *b, amount);
}

glm::quat sampleKeys(std::span<const Keyframe<glm::quat>> keys, double timeS, glm::quat fallback) {
    if (keys.empty())
        return fallback;
    const auto [a, b, amount] = bracket(keys, timeS);
    // glm::slerp flips one end when the dot product is negative: the short way round, as glTF
    // asks; the result is renormalised because keys in files are rarely exactly unit length.
    return glm::normalize(glm::slerp(*a, *b, amount));
}

double clipTime(const AnimationClip& clip, double timeS, bool loop) {
    if (!(clip.durationS > 0.0) || !std::isfinite(timeS))
        return 0.0;
    if (loop) {
        const double wrapped = std::fmod(timeS, clip.durationS);
        return wrapped < 0.0 ? wrapped + clip.durationS : wrapped;
    }
    return std::clamp(timeS, 0.0, clip.durationS);
}

std::vector<glm::mat4> jointGlobals(const Skeleton& skeleton, const AnimationClip* clip,
                                    double timeS, bool loop) {
    const std::size_t count = skeleton.joints.size();
    std::vector<glm::vec3> translations(count), scales(count);
    std::vector<glm::quat> rotations(count);
    for (std::size_t i = 0; i < count; ++i) {
        translations[i] = skeleton.joints[i].restTranslation;
        rotations[i] = skeleton.joints[i].restRotation;
        scales[i] = skeleton.joints[i].restScale;
    }
    if (clip) {
        const double t = clipTime(*clip, timeS, loop);
        for (const JointChannel& channel : clip->channels) {
            if (channel.joint < 0 || static_cast<std::size_t>(channel.joint) >= count)
                continue;
            const auto j = static_cast<std::size_t>(channel.joint);
            translations[j] = sampleKeys(channel.translations, t, translations[j]);
            rotations[j] = sampleKeys(channel.rotations, t, rotations[j]);
            scales[j] = sampleKeys(channel.scales, t, scales[j]);
        }
    }
    std::vector<glm::mat4> globals(count);
    for (std::size_t i = 0; i < count; ++i) {
        const glm::mat4 local = glm::translate(glm::mat4(1.0f), translations[i]) *
                                glm::mat4_cast(rotations[i]) *
                                glm::scale(glm::mat4(1.0f), scales[i]);
        const int parent = skeleton.joints[i].parent;
        // A parent that breaks the parents-first order is treated as absent rather than read
        // before it is computed.
        const bool hasParent = parent >= 0 && static_cast<std::size_t>(parent) < i;
        globals[i] =
            (hasParent ? globals[static_cast<std::size_t>(parent)] : skeleton.root) * local;
    }
    return globals;
}

std::vector<glm::mat4> skinningMatrices(const Skeleton& skeleton, const AnimationClip* clip,
                                        double timeS, bool loop, bool inPlace) {
    std::vector<glm::mat4> matrices = jointGlobals(skeleton, clip, timeS, loop);
    const auto root = !(inPlace && clip)
                          ? skeleton.joints.end()
                          : std::find_if(skeleton.joints.begin(), skeleton.joints.end(),
                                         [](const Joint& joint) { return joint.parent < 0; });
    if (root != skeleton.joints.end()) {
        const std::size_t r = static_cast<std::size_t>(root - skeleton.joints.begin());
        const glm::vec3 start(jointGlobals(skeleton, clip, 0.0, loop)[r][3]);
        const glm::vec3 now(matrices[r][3]);
        const glm::mat4 back =
            glm::translate(glm::mat4(1.0f), glm::vec3(start.x - now.x, start.y - now.y, 0.0f));
        for (glm::mat4& global : matrices)
            global = back * global;
    }
    for (std::size_t i = 0; i < matrices.size(); ++i)
        matrices[i] = matrices[i] * skeleton.joints[i].inverseBind;
    return matrices;
}

Mesh skinMesh(const Mesh& bindPose, std::span<const glm::u16vec4> joints,
              std::span<const glm::vec4> weights, std::span<const glm::mat4> matrices) {
    Mesh out = bindPose;
    const std::size_t count = std::min({bindPose.positions.size(), joints.size(), weights.size()});
    const bool hasNormals = bindPose.normals.size() == bindPose.positions.size();
    for (std::size_t v = 0; v < count; ++v) {
        glm::mat4 blended(0.0f);
        float total = 0.0f;
        for (int k = 0; k < 4; ++k) {
            const float weight = weights[v][k];
            const std::size_t joint = joints[v][k];
            if (!(weight > 0.0f) || joint >= matrices.size())
                continue;
            blended += matrices[joint] * weight;
            total += weight;
        }
        if (!(total > 0.0f))
            continue;
        blended /= total;
        out.positions[v] = glm::vec3(blended * glm::vec4(bindPose.positions[v], 1.0f));
        if (hasNormals) {
            const glm::vec3 n =
                glm::transpose(glm::inverse(glm::mat3(blended))) * bindPose.normals[v];
            const float length = glm::length(n);
            if (length > 0.0f && std::isfinite(length))
                out.normals[v] = n / length;
        }
    }
    return out;
}

} // namespace snowcap
