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

std::vector<std::string> sanityWarnings(const ImportedModel& model, const ImportOptions& options) {
    std::vector<std::string> warnings;
    const glm::vec3 size = model.restBounds.max - model.restBounds.min;
    const double extent = std::max({size.x, size.y, size.z});
    // The unit mistakes that put a mesh outside human scale, each with the size its factor
    // makes of this one: the user picks the one that reads right.
    const auto fixes = [&](std::initializer_list<std::pair<double, const char*>> factors) {
        std::string text;
        for (const auto& [factor, mistake] : factors)
            text += std::string(text.empty() ? "" : "; ") +
                    "scale = " + number(options.scale * factor) + " makes it " +
                    length(extent * factor) + " (" + mistake + ")";
        return text;
    };
    if (options.fitHeightCm > 0.0) {
        // fit_height_cm chose the size: the unit is not the question.
    } else if (extent < kSaneMinExtentCm) {
        warnings.push_back(
            "only " + length(extent) + " at its largest, under human scale (1 cm): " +
            fixes({{100.0, "metres read as centimetres"}}) + "; or set fit_height_cm");
    } else if (extent > kSaneMaxExtentCm) {
        warnings.push_back(
            length(extent) + " at its largest, over human scale (100 m): " +
            fixes({{0.01, "centimetres read as metres"}, {0.001, "millimetres read as metres"}}) +
            "; or set fit_height_cm");
    }
    if (!model.skinned())
        return warnings;
    // Placement stands the rest pose on the ground, and offset_cm moves it from there: the
    // ground is where the rest pose's lowest point would be without the offset.
    const double ground = double(model.restBounds.min.z) - double(options.offsetCm.z);
    for (const AnimationClip& clip : model.clips) {
        const ClipHeights heights = clipLowestPoint(model, clip);
        const double below = ground - double(heights.lowest);
        if (below > kBelowGroundToleranceCm)
            warnings.push_back(
                "clip '" + clip.name + "' goes " + length(below) +
                " below the ground the rest pose stands on: its prints start that deep. Raise "
                "it with the deformer's offset_cm = [" +
                number(options.offsetCm.x) + ", " + number(options.offsetCm.y) + ", " +
                number(double(options.offsetCm.z) + below) + "]" +
                (options.offsetCm.z != 0.0f ? " (it has " + number(options.offsetCm.z) + " cm)"
                                            : std::string()));
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
