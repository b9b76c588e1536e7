// `snowcap inspect-mesh FILE`: loads a model exactly as the viewer does (scene/model_import)
// and prints what came out, in the world's units, so a user can see why a deformer presses
// where it does before putting it in a scenario. A file that cannot be used gets one line on
// stderr and exit code 2.

#include "app/commands.hpp"
#include "core/config.hpp"
#include "core/paths.hpp"
#include "scene/capture_proxy.hpp"
#include "scene/capture_subset.hpp"
#include "scene/mesh_preview.hpp"
#include "scene/mesh_sanity.hpp"
#include "scene/model_import.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace snowcap {

namespace {

struct Range {
    float low = INFINITY, high = -INFINITY;
    void add(float value) {
        low = std::min(low, value);
        high = std::max(high, value);
    }
};

// Over one cycle of the clip: the range of the model's lowest point, and of each foot joint's
// lowest point (vertices it moves most). 60 samples resolve a step comfortably.
void printClipHeights(const ImportedModel& model, const AnimationClip& clip) {
    constexpr int kSamples = 60;
    Range lowest;
    std::vector<Range> feet(model.skeleton.joints.size());
    for (int sample = 0; sample < kSamples; ++sample) {
        const double time = clip.durationS * sample / kSamples;
        const Mesh posed = skinMesh(model.mesh, model.joints, model.weights,
                                    skinningMatrices(model.skeleton, &clip, time, true));
        std::vector<float> footLow(feet.size(), INFINITY);
        float low = INFINITY;
        for (std::size_t v = 0; v < posed.positions.size(); ++v) {
            const float z = posed.positions[v].z;
            low = std::min(low, z);
            const std::size_t joint = model.joints[v][0];
            if (joint < footLow.size() && model.weights[v][0] > 0.5f)
                footLow[joint] = std::min(footLow[joint], z);
        }
        lowest.add(low);
        for (std::size_t j = 0; j < feet.size(); ++j)
            if (std::isfinite(footLow[j]))
                feet[j].add(footLow[j]);
    }
    std::printf("      lowest point over the cycle: z %.2f .. %.2f cm\n", lowest.low, lowest.high);
    for (std::size_t j = 0; j < feet.size(); ++j)
        if (isFootJoint(model.skeleton.joints[j].name) && feet[j].low <= feet[j].high)
            std::printf("      %-14s lowest z %.2f .. %.2f cm (lifts %.2f cm)\n",
                        model.skeleton.joints[j].name.c_str(), feet[j].low, feet[j].high,
                        feet[j].high - feet[j].low);
}

// The capture subset of the capture's list (`captureList`: the proxy's or the full mesh's)
// for one clip (null: the rest pose), at the settings' band.
CaptureSubset subsetOf(const ImportedModel& model, std::span<const std::uint32_t> captureList,
                       const AnimationClip* clip, double bandCm) {
    VertexReach lowest;
    if (model.skinned()) {
        const AnimationClip* clips[] = {clip};
        const SkinnedMotion motion{model.joints, model.weights, &model.skeleton,
                                   clip ? std::span<const AnimationClip* const>(clips)
                                        : std::span<const AnimationClip* const>()};
        lowest = lowestVertexZ(model.mesh, &motion);
    } else {
        lowest = lowestVertexZ(model.mesh);
    }
    return buildCaptureSubset(captureList, lowest, bandCm);
}

void printSubset(const CaptureSubset& subset, const char* what, double bandCm) {
    if (!subset.valid) {
        std::printf("  subset      %s: none (capture.subset = \"off\")\n", what);
        return;
    }
    std::printf("  subset      %s: %zu of %zu triangles can reach the band z %.2f .. %.2f cm "
                "(lowest point + %.2f cm)\n",
                what, subset.triangles(), subset.sourceTriangles, subset.baseCm, subset.bandTopCm,
                bandCm);
}

} // namespace

int runInspectMesh(const CommonOptions& common, const std::string& path, ImportOptions options,
                   const std::string& preview, const std::string& subsetPreview) {
    auto settings = loadSettings({resourceRoot() / "config/default.toml"}, common.overrides);
    if (const auto* error = std::get_if<ConfigError>(&settings)) {
        std::fprintf(stderr, "snowcap: %s\n", error->message.c_str());
        return 2;
    }
    const ImportSettings& caps = std::get<Settings>(settings).import;
    options.limits = {caps.maxMemoryMiB, caps.maxSeconds};
    auto result = importModel(path, options);
    if (const auto* error = std::get_if<std::string>(&result)) {
        std::fprintf(stderr, "snowcap: %s\n", error->c_str());
        return 2;
    }
    const ImportedModel& model = std::get<ImportedModel>(result);
    const Aabb& box = model.restBounds;
    const glm::vec3 size = box.max - box.min;

    std::printf("%s\n", path.c_str());
    std::printf("  format      %s\n", model.sourceFormat.c_str());
    std::printf("  units/axes  %s\n", model.conversion.c_str());
    std::printf("  geometry    %zu mesh%s in the file, merged: %zu vertices, %zu triangles\n",
                model.sourceMeshes, model.sourceMeshes == 1 ? "" : "es",
                model.mesh.positions.size(), model.triangleCount());
    // What the contact capture draws instead, at the default capture's bound (half a texel).
    const double bound = captureProxyErrorCm(std::get<Settings>(settings));
    const CaptureProxy proxy = buildCaptureProxy(model.mesh, bound, model.joints, model.weights);
    if (proxy.indices.empty())
        std::printf("  capture     the full mesh (simplifying within %.2f cm saves too little)\n",
                    bound);
    else
        std::printf(
            "  capture     proxy of %zu triangles (bound %.2f cm), measured error %.3f cm\n",
            proxy.triangles(), bound, proxy.errorCm);
    // What of that can reach the snow (capture.subset): the band is snow.depth_cm + margin
    // above the lowest point the mesh reaches, per clip (a deformer plays one).
    const double bandCm = captureSubsetBandCm(std::get<Settings>(settings));
    const std::span<const std::uint32_t> captureList =
        proxy.indices.empty() ? std::span<const std::uint32_t>(model.mesh.indices)
                              : std::span<const std::uint32_t>(proxy.indices);
    std::vector<CaptureSubset> clipSubsets;
    if (!model.skinned() || model.clips.empty()) {
        clipSubsets.push_back(subsetOf(model, captureList, nullptr, bandCm));
        printSubset(clipSubsets.back(), model.skinned() ? "rest pose" : "still mesh", bandCm);
    }
    if (model.skinned())
        for (const AnimationClip& clip : model.clips) {
            clipSubsets.push_back(subsetOf(model, captureList, &clip, bandCm));
            printSubset(clipSubsets.back(), ("clip " + clip.name).c_str(), bandCm);
        }
    std::string materials;
    for (const std::string& name : model.materials)
        materials += (materials.empty() ? "" : ", ") + (name.empty() ? "(unnamed)" : name);
    std::printf("  materials   %zu%s%s\n", model.materials.size(), materials.empty() ? "" : ": ",
                materials.c_str());
    std::printf("  bounds      x %.2f .. %.2f, y %.2f .. %.2f, z %.2f .. %.2f cm\n", box.min.x,
                box.max.x, box.min.y, box.max.y, box.min.z, box.max.z);
    std::printf("  size        %.2f x %.2f x %.2f cm (x, y, z; Z is up)\n", size.x, size.y, size.z);
    std::printf("  placement   lowest point at z = %.2f cm, centred on x = %.2f, y = %.2f; the\n"
                "              scenario puts it on the ground under the snow\n",
                box.min.z, 0.5f * (box.min.x + box.max.x), 0.5f * (box.min.y + box.max.y));
    if (model.skinned()) {
        std::string names;
        for (const Joint& joint : model.skeleton.joints)
            names += (names.empty() ? "" : ", ") + joint.name;
        std::printf("  skin        %zu joints, up to 4 weights per vertex: %s\n",
                    model.skeleton.joints.size(), names.c_str());
    } else {
        std::printf("  skin        none (static mesh)\n");
    }
    std::printf("  clips       %zu\n", model.clips.size());
    for (const AnimationClip& clip : model.clips) {
        std::printf("    %-10s %.3f s, %zu channels\n", clip.name.c_str(), clip.durationS,
                    clip.channels.size());
        if (model.skinned())
            printClipHeights(model, clip);
    }
    // The import's own, then what loads but is probably not meant (scene/mesh_sanity.hpp).
    std::vector<std::string> warnings = model.warnings;
    for (std::string& warning : sanityWarnings(model, options))
        warnings.push_back(std::move(warning));
    std::printf("  warnings    %s\n", warnings.empty() ? "none" : "");
    for (const std::string& warning : warnings)
        std::printf("    %s\n", warning.c_str());
    const Mesh rest = model.skinned()
                          ? skinMesh(model.mesh, model.joints, model.weights,
                                     skinningMatrices(model.skeleton, nullptr, 0.0, false))
                          : model.mesh;
    if (!preview.empty()) {
        char caption[256];
        std::snprintf(caption, sizeof caption, "%s: %.0f x %.0f x %.0f cm (x, y, z; Z up)",
                      std::filesystem::path(path).filename().c_str(), size.x, size.y, size.z);
        if (auto error = writePng(preview, renderMeshPreview(rest, caption))) {
            std::fprintf(stderr, "snowcap: %s\n", error->c_str());
            return 1;
        }
        std::printf("  preview     %s\n", preview.c_str());
    }
    if (!subsetPreview.empty()) {
        // The first clip's subset (or the still mesh's), on the rest pose.
        const CaptureSubset& subset = clipSubsets.front();
        char caption[256];
        std::snprintf(caption, sizeof caption,
                      "%s: capture subset %zu of %zu triangles (orange), band top dashed",
                      std::filesystem::path(path).filename().c_str(), subset.triangles(),
                      subset.sourceTriangles);
        const float top = subset.valid ? subset.bandTopCm : NAN;
        if (auto error = writePng(subsetPreview,
                                  renderMeshPreview(rest, caption, 300, subset.indices, top))) {
            std::fprintf(stderr, "snowcap: %s\n", error->c_str());
            return 1;
        }
        std::printf("  subset pic  %s\n", subsetPreview.c_str());
    }
    return 0;
}

} // namespace snowcap
