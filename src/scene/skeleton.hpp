#pragma once
// Skeletons, their rest pose and keyframed clips, sampled on the CPU into the matrices that
// skinning consumes. The GPU skinning of every pass that draws a deformer (capture, colour)
// takes exactly these matrices, and skinMesh() is the CPU reference of that skinning, so
// the tests and the bounds agree with what the passes draw (DESIGN.md section 1). No GL.

#include "scene/mesh.hpp"

#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace snowcap {

struct Joint {
    std::string name;
    int parent = -1; // index into Skeleton::joints, always below this joint's own index; -1: root
    // Model space of the bound mesh -> this joint's space, at bind time.
    glm::mat4 inverseBind{1.0f};
    // The local transform when no clip drives the joint: T * R * S relative to the parent.
    glm::vec3 restTranslation{0.0f};
    glm::quat restRotation{1.0f, 0.0f, 0.0f, 0.0f}; // (w, x, y, z)
    glm::vec3 restScale{1.0f};

    glm::mat4 restLocal() const;
};

struct Skeleton {
    std::vector<Joint> joints; // parents before children
    // Above every root joint: the importer puts the file -> world conversion here (units, axes,
    // overrides, placement), so sampled poses come out in centimetres, Z up.
    glm::mat4 root{1.0f};

    bool empty() const { return joints.empty(); }
    int find(std::string_view name) const; // the first joint of that name, -1 when none
};

template <class T> struct Keyframe {
    double timeS = 0.0; // seconds from the start of the clip
    T value{};
};

// One joint's animated components; an empty list leaves that component at rest.
struct JointChannel {
    int joint = -1;
    std::vector<Keyframe<glm::vec3>> translations; // interpolated linearly
    std::vector<Keyframe<glm::quat>> rotations;    // interpolated by shortest-path slerp
    std::vector<Keyframe<glm::vec3>> scales;       // interpolated linearly
};

struct AnimationClip {
    std::string name;
    double durationS = 0.0;
    std::vector<JointChannel> channels;
};

// Keys sorted by time; before the first key the first value holds, after the last the last.
glm::vec3 sampleKeys(std::span<const Keyframe<glm::vec3>> keys, double timeS, glm::vec3 fallback);
glm::quat sampleKeys(std::span<const Keyframe<glm::quat>> keys, double timeS, glm::quat fallback);

// The time inside the clip: wrapped into [0, duration) when looping, clamped otherwise.
double clipTime(const AnimationClip& clip, double timeS, bool loop);

// Global (world) transform of every joint, Skeleton::root included. A null clip is the rest pose.
std::vector<glm::mat4> jointGlobals(const Skeleton& skeleton, const AnimationClip* clip,
                                    double timeS, bool loop);

// For each joint: global transform * inverse bind. Identity for every joint at rest when the
// mesh was bound in the rest pose, which is what the bundled assets and the importer ensure.
// `inPlace` (root_motion = "in_place") takes the clip's own travel out: every joint moves back
// by how far the first root joint has gone across the ground (world X, Y) since the clip's
// start, so a clip with root motion plays on the spot; its vertical motion (a walk's bob)
// stays.
std::vector<glm::mat4> skinningMatrices(const Skeleton& skeleton, const AnimationClip* clip,
                                        double timeS, bool loop, bool inPlace = false);

// Linear blend skinning of up to four influences per vertex, the CPU reference of the shaders.
// Weights are normalised here; influences naming a joint outside `matrices` are ignored, and a
// vertex left with no weight keeps its bind position.
Mesh skinMesh(const Mesh& bindPose, std::span<const glm::u16vec4> joints,
              std::span<const glm::vec4> weights, std::span<const glm::mat4> matrices);

} // namespace snowcap
