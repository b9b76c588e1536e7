#pragma once
// ContactCapturePass — the SceneCaptureComponent2D analogue.
// Reads:  deformer meshes (their capture proxies where they have one) + model matrices.
// Writes: a D32F or D16 depth texture (capture.depth), N x N, window depth = distance above the
//         camera / far (SceneDepth in cm = depth x far); 1.0 ("far") where nothing is; and an
//         R16F contact texture: the contact type code (1 + ContactType) of the nearest
//         deformer, 0 where nothing is (read by sims with format = "rgba16f").
// The camera sits at surface_z + capture_z looking +Z with an orthographic square of side
// ortho_width centred on the region (captureViewProjection in core/snow_math.hpp).
// With a terrain (capture_reference = "terrain", docs/terrain.md) every texel has its own
// camera, capture_z below its own snow top (surface_z + the terrain's height at its centre,
// an R32F texture of the capture's size read by the capture's fragment shader); the depth it
// writes is what the flat capture would see over flat snow, so every sim reads it unchanged.

#include "core/settings.hpp"
#include "core/snow_math.hpp"
#include "gpu/gpu_mesh.hpp"
#include "gpu/objects.hpp"
#include "gpu/pass_state.hpp"
#include "gpu/shader_library.hpp"
#include "snow/deformer_batch.hpp"
#include "terrain/height_field.hpp"

#include <limits>
#include <memory>
#include <span>

namespace snowcap {

// What makes two captures the same picture: region, resolution, camera height, far plane, and
// the depth store.
struct CaptureKey {
    Region region;
    double cameraZCm = -100.0;
    double farCm = 2000.0;
    gpu::TextureFormat depthFormat = gpu::TextureFormat::D32F;
    // World z above which nothing changes what the sims read (captureSubsetCeilingCm in
    // scene/capture_subset.hpp); +inf: every instance draws its capture list whole.
    double subsetCeilingCm = std::numeric_limits<double>::infinity();
    // The terrain each texel's camera follows (null or flat: one flat camera at cameraZCm), and
    // its lowest and highest height over the region (captureTerrainSpan; derived from the
    // terrain and the region, so not part of what makes two keys the same).
    std::shared_ptr<const HeightField> terrain;
    HeightSpan terrainSpanCm;
    bool followsTerrain() const { return terrain && !terrain->flat(); }
    bool operator==(const CaptureKey& other) const {
        return region == other.region && cameraZCm == other.cameraZCm && farCm == other.farCm &&
               depthFormat == other.depthFormat && subsetCeilingCm == other.subsetCeilingCm &&
               terrain == other.terrain;
    }
};

// The key's terrain span over its region, as ContactCapture keeps it.
HeightSpan captureTerrainSpan(const CaptureKey& key);

// capture.depth. A D16 depth is unsigned normalised over [camera, far]: its step is far / 65535
// cm (0.031 cm at 2000 cm), and a print's depth in the buffer is off by at most that (the
// ortho depth is linear; measured within half a step plus rasteriser rounding, see
// CaptureDepthGLTest). That is below the buffer's own R16F step for most prints (mask x
// distance_cm: 0.031 cm for masks in [1/8, 1/4), 0.015 cm in [1/16, 1/8)). Where it shows is the
// slope between neighbouring texels, which the mask-derived normals read: "auto" takes d16
// when its step is at most 1/32 of a texel (a slope error of 1/32, 1.8 degrees): 2048 cm over
// 2048 texels (1 cm) passes, 4096 texels (0.49 cm) take d32f.
double d16DepthStepCm(const CaptureSettings& capture);
bool d16Suffices(const CaptureSettings& capture, const Region& region);
gpu::TextureFormat captureDepthFormat(const CaptureSettings& capture, const Region& region);

class ContactCapture {
public:
    explicit ContactCapture(const CaptureKey& key);

    const CaptureKey& key() const { return key_; }
    const gpu::Texture2D& depth() const { return depth_; }
    const gpu::Texture2D& contact() const { return contact_; }
    // Terrain height (cm) at each texel's centre; empty unless key().followsTerrain().
    const gpu::Texture2D& terrainHeight() const { return terrainHeight_; }
    std::size_t bytes() const { return depth_.bytes() + contact_.bytes() + terrainHeight_.bytes(); }

    // Draws every deformer whose bounds reach into the capture box, one instanced draw per
    // mesh (the instances outside culled first); returns how many instances it drew. Below a
    // finite subset ceiling, an upright instance whose mesh's capture subset reaches the
    // ceiling draws that subset, and one that cannot come down to the ceiling is not drawn.
    int capture(DeformerBatch& deformers, const gpu::ShaderProgram& program);
    // The same for instances not prepared yet: prepares a batch of the capture's own first.
    int capture(std::span<const DeformerInstance> deformers, const gpu::ShaderProgram& program);
    // The capture as a pass of the frame's list (gpu/pass_record.hpp): its state (the target,
    // cleared, depth tested and written, no culling) and its draw alone, which capture() runs
    // one after the other.
    gpu::PassState passState(const gpu::ShaderProgram& program) const;
    int draw(DeformerBatch& deformers, const gpu::ShaderProgram& program);
    // What the last capture drew (draw calls, instances).
    const DeformerDrawStats& lastDraw() const { return lastDraw_; }

    // A following region moved: the same picture size, another place (no reallocation).
    void moveTo(glm::dvec2 centreCm);
    // Whether bounds reach into the box a capture of `key` sees (also what idle skip asks).
    static bool reaches(const CaptureKey& key, const Aabb& bounds);
    // Which index list the capture draws for `instance` (the subset where it is exact), and
    // whether the instance can change the mask at all (false: above the ceiling).
    static gpu::GpuMesh::Detail detailFor(const CaptureKey& key, const DeformerInstance& instance);
    static bool canReachMask(const CaptureKey& key, const DeformerInstance& instance);

private:
    bool overlaps(const Aabb& bounds) const { return reaches(key_, bounds); }

    // The terrain's heights under the region's texels, and the rasteriser's camera below the
    // lowest of them.
    void followTerrain();

    CaptureKey key_;
    gpu::Texture2D depth_;
    gpu::Texture2D contact_;
    gpu::Texture2D terrainHeight_;
    gpu::Framebuffer framebuffer_;
    glm::mat4 viewProjection_;
    DeformerBatch ownBatch_; // for capture(span): instances no frame prepared
    DeformerDrawStats lastDraw_;
};

// The capture's program; `terrain`: each texel's camera follows the terrain (TERRAIN).
gpu::ProgramDesc contactCaptureProgram(bool terrain = false);

} // namespace snowcap
