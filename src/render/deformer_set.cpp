#include "render/deformer_set.hpp"

#include "scene/capture_proxy.hpp"

#include <map>

namespace snowcap {

DeformerSet::DeformerSet(std::vector<Deformer> deformers, double captureProxyErrorCm)
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
        if (deformer.skin) {
            const CaptureProxy proxy = buildCaptureProxy(
                deformer.mesh, captureProxyErrorCm, deformer.skin->joints, deformer.skin->weights);
            meshes_.emplace_back(deformer.mesh, deformer.skin->joints, deformer.skin->weights,
                                 "deformer." + deformer.name, proxy.indices);
        } else {
            const CaptureProxy proxy = buildCaptureProxy(deformer.mesh, captureProxyErrorCm);
            meshes_.emplace_back(deformer.mesh, "deformer." + deformer.name, proxy.indices);
        }
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
    return deformers_[std::size_t(player_)].player->positionCm;
}

void DeformerSet::resetPlayer() {
    if (player_ >= 0)
        deformers_[std::size_t(player_)].resetPlayer();
}

} // namespace snowcap
