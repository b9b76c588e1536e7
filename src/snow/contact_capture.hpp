#pragma once
// ContactCapturePass — the SceneCaptureComponent2D analogue.
// Reads:  deformer meshes (their capture proxies where they have one) + model matrices.
// Writes: a D32F depth texture, N x N, window depth = distance above the camera / far
//         (SceneDepth in cm = depth x far); 1.0 ("far") where nothing is; and an R16F contact
//         texture: the contact type code (1 + ContactType) of the nearest deformer, 0 where
//         nothing is (read by sims with format = "rgba16f").
// The camera sits at surface_z + capture_z looking +Z with an orthographic square of side
// ortho_width centred on the region (captureViewProjection in core/snow_math.hpp).

#include "core/settings.hpp"
#include "core/snow_math.hpp"
#include "gpu/gpu_mesh.hpp"
#include "gpu/objects.hpp"
#include "gpu/shader_library.hpp"
#include "snow/deformer_batch.hpp"

#include <span>

namespace snowcap {

// What makes two captures the same picture: region, resolution, camera height, far plane.
struct CaptureKey {
    Region region;
    double cameraZCm = -100.0;
    double farCm = 2000.0;
    bool operator==(const CaptureKey&) const = default;
};

class ContactCapture {
public:
    explicit ContactCapture(const CaptureKey& key);

    const CaptureKey& key() const { return key_; }
    const gpu::Texture2D& depth() const { return depth_; }
    const gpu::Texture2D& contact() const { return contact_; }
    std::size_t bytes() const { return depth_.bytes() + contact_.bytes(); }

    // Draws every deformer whose bounds reach into the capture box, one instanced draw per
    // mesh (the instances outside culled first); returns how many instances it drew.
    int capture(DeformerBatch& deformers, const gpu::ShaderProgram& program);
    // The same for instances not prepared yet: prepares a batch of the capture's own first.
    int capture(std::span<const DeformerInstance> deformers, const gpu::ShaderProgram& program);
    // What the last capture drew (draw calls, instances).
    const DeformerDrawStats& lastDraw() const { return lastDraw_; }

    // A following region moved: the same picture size, another place (no reallocation).
    void moveTo(glm::dvec2 centreCm);
    // Whether bounds reach into the box a capture of `key` sees (also what idle skip asks).
    static bool reaches(const CaptureKey& key, const Aabb& bounds);

private:
    bool overlaps(const Aabb& bounds) const { return reaches(key_, bounds); }

    CaptureKey key_;
    gpu::Texture2D depth_;
    gpu::Texture2D contact_;
    gpu::Framebuffer framebuffer_;
    glm::mat4 viewProjection_;
    DeformerBatch ownBatch_; // for capture(span): instances no frame prepared
    DeformerDrawStats lastDraw_;
};

gpu::ProgramDesc contactCaptureProgram();

} // namespace snowcap
