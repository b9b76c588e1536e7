#pragma once
// The scene's deformers uploaded once, and their per-frame instances (model matrix + bounds)
// for the passes that draw them.

#include "gpu/gpu_mesh.hpp"
#include "scene/deformer.hpp"
#include "snow/contact_capture.hpp"

#include <vector>

namespace snowcap {

class DeformerSet {
public:
    DeformerSet() = default;
    explicit DeformerSet(std::vector<Deformer> deformers);

    // Where everything is at `timeS`.
    const std::vector<DeformerInstance>& instancesAt(double timeS);
    const std::vector<Deformer>& deformers() const { return deformers_; }

private:
    std::vector<Deformer> deformers_;
    std::vector<gpu::GpuMesh> meshes_;
    std::vector<DeformerInstance> instances_;
    std::vector<std::vector<glm::mat4>> poses_; // per deformer, this frame's joint matrices
};

} // namespace snowcap
