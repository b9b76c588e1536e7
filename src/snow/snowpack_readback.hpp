#pragma once
// A snowpack sim's depth and mass, read back from the GPU without a stall (docs/physics.md,
// section 2): request() queues a copy of the state's first two channels (all four where the
// sim's ground takes prints: the print is the fourth) over a window of its
// texels (glGetTextureSubImage) into a pixel pack buffer and a fence behind it; take(), a step
// later, maps it, waiting on the fence only if the GPU has not signalled it yet. Whatever the
// timing, take() gives the state request() saw, so what the physics world stands on is always
// the state of the snow step before its own.
// Reads: the sim's current state. Writes: nothing on the GPU.

#include "core/snow_math.hpp"
#include "gpu/objects.hpp"

#include <glm/vec2.hpp>
#include <optional>
#include <vector>

namespace snowcap {

class SnowpackSim;

class SnowpackReadback {
public:
    SnowpackReadback() = default;
    ~SnowpackReadback();
    SnowpackReadback(const SnowpackReadback&) = delete;
    SnowpackReadback& operator=(const SnowpackReadback&) = delete;

    // Queues the read of the texels [origin, origin + size) of `sim`'s state as it stands (a
    // pending one is dropped), cut to the state; an empty window reads no texel, and is still
    // a read.
    void request(const SnowpackSim& sim, glm::ivec2 origin, glm::ivec2 size);
    bool pending() const { return fence_ != nullptr || ready_; }
    // The state request() queued, as depth cm, mass kg/m2 interleaved per texel of its window,
    // row 0 first, with its region; none if nothing is pending.
    std::optional<std::vector<float>> take(Region* region = nullptr);
    // Of the last take, where the sim's ground takes prints: the print per texel of its window
    // (cm below the ground, SupportColumns::printCm); empty where it takes none.
    const std::vector<float>& printCm() const { return printCm_; }
    void drop(); // forgets a pending read (the state changed under it: a reset, an edit)
    // The region and window of the pending read (or the last one taken).
    const Region& region() const { return region_; }
    glm::ivec2 origin() const { return origin_; }
    glm::ivec2 size() const { return size_; }

    long long reads() const { return reads_; }
    long long waited() const { return waited_; }       // takes whose fence was not yet signalled
    long long bytesRead() const { return bytesRead_; } // over every take

private:
    gpu::UniqueName<gpu::ObjectKind::Buffer> pbo_;
    std::size_t capacity_ = 0, bytes_ = 0;
    int channels_ = 2; // of the pending read: 2 (depth, mass) or 4 (the whole state)
    std::vector<float> printCm_;
    Region region_{};
    glm::ivec2 origin_{0}, size_{0};
    long long bytesRead_ = 0;
    GLsync fence_ = nullptr;
    bool ready_ = false;
    long long reads_ = 0, waited_ = 0;
};

} // namespace snowcap
