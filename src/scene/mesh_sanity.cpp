#include "scene/mesh_sanity.hpp"

#include "scene/skeleton.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace snowcap {

namespace {

std::string length(double cm) {
    char text[32];
    if (cm >= 100.0)
        std::snprintf(text, sizeof text, "%.1f m", cm / 100.0);
    else if (cm >= 1.0)
        std::snprintf(text, sizeof text, "%.1f cm", cm);
    else
        std::snprintf(text, sizeof text, "%.2f mm", cm * 10.0);
    return text;
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

} // namespace

bool isFootJoint(std::string_view name) {
    std::string lower(name);
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view word : {"foot", "ankle", "toe", "paw", "hoof"})
        if (lower.find(word) != std::string::npos)
            return true;
    return false;
}

ClipHeights clipLowestPoint(const ImportedModel& model, const AnimationClip& clip) {
    constexpr int kSamples = 60; // resolves a step comfortably
    ClipHeights heights{INFINITY, -INFINITY};
    for (int sample = 0; sample < kSamples; ++sample) {
        const double time = clip.durationS * sample / kSamples;
        const Mesh posed = skinMesh(model.mesh, model.joints, model.weights,
                                    skinningMatrices(model.skeleton, &clip, time, true));
        float low = INFINITY;
        for (const glm::vec3& p : posed.positions)
            low = std::min(low, p.z);
        heights.lowest = std::min(heights.lowest, low);
        heights.highest = std::max(heights.highest, low);
    }
    return heights;
}

std::vector<std::string> sanityWarnings(const ImportedModel& model) {
    std::vector<std::string> warnings;
    const glm::vec3 size = model.restBounds.max - model.restBounds.min;
    const double extent = std::max({size.x, size.y, size.z});
    if (extent < kSaneMinExtentCm)
        warnings.push_back("only " + length(extent) +
                           " at its largest, under human scale (1 cm): metres read as "
                           "centimetres? Set the deformer's scale (x 100 from metres) or "
                           "fit_height_cm");
    else if (extent > kSaneMaxExtentCm)
        warnings.push_back(length(extent) +
                           " at its largest, over human scale (100 m): centimetres or "
                           "millimetres read as metres? Set the deformer's scale (x " +
                           number(std::max(0.001, 180.0 / extent)) +
                           " for a 1.8 m figure) or fit_height_cm");
    if (!model.skinned())
        return warnings;
    const float ground = model.restBounds.min.z; // where placement stands the rest pose
    for (const AnimationClip& clip : model.clips) {
        const ClipHeights heights = clipLowestPoint(model, clip);
        const double below = double(ground) - double(heights.lowest);
        if (below > kBelowGroundToleranceCm)
            warnings.push_back("clip '" + clip.name + "' goes " + length(below) +
                               " below the ground the rest pose stands on: its prints start "
                               "that deep. Raise it with the deformer's offset_cm = [0, 0, " +
                               number(below) + "]");
    }
    const bool feet = std::any_of(model.skeleton.joints.begin(), model.skeleton.joints.end(),
                                  [](const Joint& joint) { return isFootJoint(joint.name); });
    if (!model.clips.empty() && !feet)
        warnings.push_back("no foot joint (foot, ankle, toe, paw, hoof) among " +
                           std::to_string(model.skeleton.joints.size()) +
                           " joints: inspect-mesh cannot report step heights, and the prints "
                           "come from whatever reaches lowest; check the clip (clip, "
                           "clip_index) and the up axis (up)");
    return warnings;
}

} // namespace snowcap
