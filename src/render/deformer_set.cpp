#include "render/deformer_set.hpp"

#include "scene/capture_proxy.hpp"
#include "scene/capture_subset.hpp"

#include <algorithm>
#include <map>

namespace snowcap {

namespace {

// The subset of `captureList` (the proxy's, or the full mesh's) for every clip the deformers
// sharing the mesh of `first` play.
CaptureSubset subsetFor(const std::vector<Deformer>& deformers, std::size_t first,
                        std::span<const std::uint32_t> captureList, double bandCm) {
    const Deformer& deformer = deformers[first];
    VertexReach lowest;
    if (deformer.skin) {
        std::vector<const AnimationClip*> clips;
        for (std::size_t i = first; i < deformers.size(); ++i) {
            const Deformer& other = deformers[i];
            if (i != first && (deformer.meshKey.empty() || other.meshKey != deformer.meshKey))
                continue;
            if (!other.skin)
                continue;
            const AnimationClip* clip = &other.skin->clip;
            if (std::none_of(clips.begin(), clips.end(), [&](const AnimationClip* c) {
                    return c->name == clip->name && c->durationS == clip->durationS &&
                           c->channels.size() == clip->channels.size();
                }))
                clips.push_back(clip);
        }
        const SkinnedMotion motion{deformer.skin->joints, deformer.skin->weights,
                                   &deformer.skin->skeleton, clips};
        lowest = lowestVertexZ(deformer.mesh, &motion);
    } else {
        lowest = lowestVertexZ(deformer.mesh);
    }
    return buildCaptureSubset(captureList, lowest, bandCm);
}

gpu::CaptureSubsetLists listsOf(const CaptureSubset& subset) {
    if (!subset.valid)
        return {};
    return {subset.indices, subset.lowestCm, subset.bandTopCm};
}

} // namespace

DeformerSet::DeformerSet(std::vector<Deformer> deformers, double captureProxyErrorCm,
                         double captureSubsetBandCm)
    : deformers_(std::move(deformers)) {
    meshes_.reserve(deformers_.size()); // instances point into it: no reallocation
    std::map<std::string, std::size_t> byKey;
    for (std::size_t i = 0; i < deformers_.size(); ++i) {
        const Deformer& deformer = deformers_[i];
        if (deformer.player && player_ < 0)
            player_ = int(i);
        // The same mesh again: its upload and proxy are shared (an empty key is never shared).
        if (!deformer.meshKey.empty()) {
            const auto [at, added] = byKey.try_emplace(deformer.meshKey, meshes_.size());
            if (!added) {
                meshOf_.push_back(at->second);
                continue;
            }
        }
        meshOf_.push_back(meshes_.size());
        // Mesh vertices are in world cm (scale and fit are applied on load; the model matrix
        // only moves and turns), so the bound applies as it is.
        const CaptureProxy proxy =
            deformer.skin ? buildCaptureProxy(deformer.mesh, captureProxyErrorCm,
                                              deformer.skin->joints, deformer.skin->weights)
                          : buildCaptureProxy(deformer.mesh, captureProxyErrorCm);
        CaptureSubset subset;
        if (captureSubsetBandCm > 0.0) {
            const std::span<const std::uint32_t> captureList =
                proxy.indices.empty() ? std::span<const std::uint32_t>(deformer.mesh.indices)
                                      : std::span<const std::uint32_t>(proxy.indices);
            subset = subsetFor(deformers_, i, captureList, captureSubsetBandCm);
            ++subsetsBuilt_;
        }
        if (deformer.skin)
            meshes_.emplace_back(deformer.mesh, deformer.skin->joints, deformer.skin->weights,
                                 "deformer." + deformer.name, proxy.indices, listsOf(subset));
        else
            meshes_.emplace_back(deformer.mesh, "deformer." + deformer.name, proxy.indices,
                                 listsOf(subset));
    }
    poses_.resize(deformers_.size());
}

const std::vector<DeformerInstance>& DeformerSet::instancesAt(double timeS) {
    instances_.clear();
    for (std::size_t i = 0; i < deformers_.size(); ++i) {
        const Deformer& deformer = deformers_[i];
        const glm::mat4 model = deformer.modelAt(timeS);
        poses_[i] = deformer.skinningAt(timeS);
        Aabb bounds = deformer.mesh.bounds();
        if (deformer.skin) {
            // A pose can reach past the bind pose's box; a quarter of its size covers a walk.
            const glm::vec3 margin = (bounds.max - bounds.min) * 0.25f;
            bounds = {bounds.min - margin, bounds.max + margin};
        }
        instances_.push_back(
            {&meshes_[meshOf_[i]], model, bounds.transformed(model), poses_[i], deformer.contact});
    }
    return instances_;
}

void DeformerSet::drivePlayer(glm::vec2 inputDir, double dtS) {
    if (player_ >= 0)
        deformers_[std::size_t(player_)].drive(inputDir, dtS);
}

std::optional<glm::vec3> DeformerSet::playerPositionCm() const {
    if (player_ < 0)
        return std::nullopt;
    return deformers_[std::size_t(player_)].positionAt(0.0); // draped: on the snow top there
}

void DeformerSet::setBodyPose(std::size_t index, const glm::mat4& model) {
    if (index < deformers_.size())
        deformers_[index].bodyPose = model;
}

void DeformerSet::resetPlayer() {
    if (player_ >= 0)
        deformers_[std::size_t(player_)].resetPlayer();
}

} // namespace snowcap
