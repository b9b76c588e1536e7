#pragma once
// The scene's deformers uploaded once, and their per-frame instances (model matrix, bounds and
// pose) for the passes that draw them; the player deformer's controls. Deformers whose meshes
// have the same key (Deformer::meshKey: the same file with the same load options, or the same
// shape and size) share one uploaded mesh and its capture proxy, so the passes draw them as
// instances of it (snow/deformer_batch.hpp).

#include "gpu/gpu_mesh.hpp"
#include "scene/deformer.hpp"
#include "snow/contact_capture.hpp"

#include <glm/vec2.hpp>
#include <optional>
#include <vector>

namespace snowcap {

class DeformerSet {
public:
    DeformerSet() = default;
    // Each mesh gets a capture proxy whose error stays under `captureProxyErrorCm` (world cm;
    // captureProxyErrorCm(settings) in scene/capture_proxy.hpp); 0: the capture draws full meshes.
    // And a capture subset of that list for a band of `captureSubsetBandCm` above its lowest
    // point over every clip its deformers play (captureSubsetBandCm(settings) in
    // scene/capture_subset.hpp); 0: none.
    explicit DeformerSet(std::vector<Deformer> deformers, double captureProxyErrorCm = 0.0,
                         double captureSubsetBandCm = 0.0);

    // Where everything is at `timeS`.
    const std::vector<DeformerInstance>& instancesAt(double timeS);
    const std::vector<Deformer>& deformers() const { return deformers_; }
    // Distinct meshes uploaded (at most one per deformer).
    int meshCount() const { return static_cast<int>(meshes_.size()); }
    // Capture subsets built (one per distinct mesh key at most, however many deformers share it).
    int captureSubsetsBuilt() const { return subsetsBuilt_; }

    // The player deformer (the scenario's `player = true`, at most one): it ignores its path
    // after starting where the path starts, and moves only when driven. Call drivePlayer once
    // per frame before instancesAt: `inputDir` is in world XY (+X, +Y; e.g. WASD turned by the
    // camera's yaw), its length clamped to 1 (0 stands still); the player moves at its
    // speed_cm_s times that length for `dtS` seconds and turns towards its motion. Its clip
    // advances only while it moves. Nothing happens without a player.
    bool hasPlayer() const { return player_ >= 0; }
    void drivePlayer(glm::vec2 inputDir, double dtS);
    std::optional<glm::vec3> playerPositionCm() const; // where the region can follow it
    // A body deformer's pose from the physics world (Deformer::bodyPose), for the next
    // instancesAt; out of range: nothing.
    void setBodyPose(std::size_t index, const glm::mat4& model);
    void resetPlayer(); // back to its start (the viewer's reset)

private:
    std::vector<Deformer> deformers_;
    std::vector<gpu::GpuMesh> meshes_; // one per distinct mesh key
    std::vector<std::size_t> meshOf_;  // per deformer, its mesh in meshes_
    std::vector<DeformerInstance> instances_;
    std::vector<std::vector<glm::mat4>> poses_; // per deformer, this frame's joint matrices
    int player_ = -1;
    int subsetsBuilt_ = 0;
};

} // namespace snowcap
