#pragma once
// Instanced deformer draws. A frame's deformer instances are prepared once: grouped by the mesh
// they share, one record each (model matrix, where its pose starts in the palette, flags,
// contact type, colour, sway) in one storage buffer, and every skinned instance's joint
// matrices in one palette buffer. Every pass that draws deformers (the contact capture, the
// sun's shadow map, the colour views) then issues one instanced draw per mesh, reading the
// records by gl_InstanceID through a list of record indices: all of them, or the ones a pass
// kept after culling (a capture drops the instances outside its box). The layout matches
// shaders/common/deformer_vertex.glsl.

#include "core/settings.hpp"
#include "gpu/gpu_mesh.hpp"
#include "gpu/objects.hpp"

#include <cstdint>
#include <functional>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <vector>

namespace snowcap {

// One deformer where it is this frame: the CPU side of a record.
struct DeformerInstance {
    const gpu::GpuMesh* mesh = nullptr; // none: skipped by every pass (a hidden deformer)
    glm::mat4 model{1.0f};
    Aabb worldBounds;
    std::span<const glm::mat4> skinning; // joint matrices of a skinned mesh's current pose
    ContactType contact = ContactType::Other;
    glm::vec4 sway{0.0f}; // foliage's wind parameters; non-zero sets the sway flag
};

inline constexpr GLuint kJointPaletteBinding = 3;    // mat4 joints[]: every instance's pose
inline constexpr GLuint kInstanceRecordsBinding = 4; // DeformerInstanceGpu instances[]
inline constexpr GLuint kRecordListBinding = 5;      // uint deformerRecords[]
inline constexpr GLint kRecordBaseLocation = 5;      // uniform uint deformerBase

inline constexpr std::uint32_t kInstanceSkinned = 1u; // flags bit 0
inline constexpr std::uint32_t kInstanceSway = 2u;    // flags bit 1 (shaders/common/wind.glsl)

// std430 record, 96 bytes (deformer_vertex.glsl's DeformerInstanceGpu).
struct DeformerInstanceGpu {
    glm::mat4 model;
    std::uint32_t jointBase; // first joint matrix of its pose in the palette
    std::uint32_t flags;     // kInstanceSkinned | kInstanceSway
    std::uint32_t contact;   // contact type code, 1 + ContactType (capture.frag)
    std::uint32_t colour;    // the colour pass's albedo: the instance's index in the frame
    glm::vec4 sway;
};
static_assert(sizeof(DeformerInstanceGpu) == 96, "std430 layout drift: see deformer_vertex.glsl");

// What one pass drew: draw calls, the instances they covered and their triangles.
struct DeformerDrawStats {
    int draws = 0;
    int instances = 0;
    long long triangles = 0;
};

class DeformerBatch {
public:
    DeformerBatch() = default; // its buffers are made by the first prepare()

    // Groups the instances that have a mesh by that mesh (in order of first appearance),
    // writes their records and the palette and uploads both. Once per frame, before the passes;
    // `instances` must outlive the frame's draws.
    void prepare(std::span<const DeformerInstance> instances);

    std::span<const DeformerInstance> instances() const { return instances_; }
    int meshCount() const { return static_cast<int>(groups_.size()); }

    using Keep = std::function<bool(const DeformerInstance&)>;
    using DetailOf = std::function<gpu::GpuMesh::Detail(const DeformerInstance&)>;
    // One instanced draw per mesh with `program` (which includes deformer_vertex.glsl) of every
    // prepared instance, or, with `keep`, of those it accepts (their record indices compacted
    // into a list of this pass's own). With `detailOf`, each instance draws the index list it
    // names instead of `detail`: a mesh's instances then draw in runs of one detail, in their
    // order, so the depth test breaks ties as one draw would. Binds the palette, records and
    // list itself.
    DeformerDrawStats draw(GLuint program, gpu::GpuMesh::Detail detail = gpu::GpuMesh::Detail::Full,
                           const Keep& keep = {}, const DetailOf& detailOf = {});

private:
    struct Group {
        const gpu::GpuMesh* mesh = nullptr;
        std::uint32_t first = 0; // its first record (records are stored group after group)
        std::uint32_t count = 0;
    };
    // Room for `entries` more record indices in the list buffer (a new, larger buffer when
    // full; the draws already queued keep the old one alive until they are done).
    std::uint32_t reserveList(std::uint32_t entries);

    std::span<const DeformerInstance> instances_;
    std::vector<Group> groups_;
    std::vector<std::uint32_t> order_; // record r is instances_[order_[r]]
    std::vector<DeformerInstanceGpu> records_;
    std::vector<glm::mat4> palette_;
    std::vector<std::uint32_t> list_; // scratch for one pass's compacted list
    gpu::Buffer recordBuffer_, paletteBuffer_, listBuffer_;
    std::uint32_t listUsed_ = 0; // entries of listBuffer_ this frame's passes have taken
};

} // namespace snowcap
