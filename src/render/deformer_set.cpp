#include "render/deformer_set.hpp"

namespace snowcap {

DeformerSet::DeformerSet(std::vector<Deformer> deformers) : deformers_(std::move(deformers)) {
    meshes_.reserve(deformers_.size());
    for (const Deformer& deformer : deformers_)
        meshes_.emplace_back(deformer.mesh, "deformer." + deformer.name);
}

const std::vector<DeformerInstance>& DeformerSet::instancesAt(double timeS) {
    instances_.clear();
    for (std::size_t i = 0; i < deformers_.size(); ++i) {
        const glm::mat4 model = deformers_[i].modelAt(timeS);
        instances_.push_back({&meshes_[i], model, deformers_[i].mesh.bounds().transformed(model)});
    }
    return instances_;
}

} // namespace snowcap
