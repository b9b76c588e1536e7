#pragma once
// The scene's [[foliage]] on the GPU: one mesh per entry, uploaded once, and
// per frame one deformer instance per plant (the shared mesh, its model matrix,
// its sway) appended to the frame's instances, so every pass draws each entry
// as one instanced mesh and bends it with the wind (shaders/common/wind.glsl).
// The wind buffer is filled here too: the wind at the frame's time and the
// frame's deformers as pushers.

#include "gpu/gpu_mesh.hpp"
#include "render/wind_buffer.hpp"
#include "scene/foliage.hpp"
#include "snow/contact_capture.hpp"

#include <span>
#include <vector>

namespace snowcap {

class FoliageSet {
public:
    FoliageSet() = default;
    FoliageSet(std::vector<Foliage> foliage, const WindSettings& wind);

    // The deformers in `deformers` (already posed at `timeS`) become the wind's
    // pushers; the wind buffer is uploaded and bound (binding 6) and every plant
    // is appended to `out`.
    void appendInstances(double timeS, std::span<const DeformerInstance> deformers,
                         std::vector<DeformerInstance>& out);
    void setWind(const WindSettings& wind) { wind_ = wind; }
    // Every plant rooted on another terrain (a live edit of [terrain]; null: flat).
    void standOn(const HeightField* terrain);

    const std::vector<Foliage>& foliage() const { return foliage_; }
    std::size_t plantCount() const;
    // The pushers `deformers` give (what appendInstances uploads), for tests and
    // the docs.
    static std::vector<WindPusher> pushersOf(std::span<const DeformerInstance> deformers);

private:
    void measureBounds(); // bounds_ from the plants' roots
    std::vector<Foliage> foliage_;
    std::vector<gpu::GpuMesh> meshes_;
    std::vector<std::vector<Aabb>> bounds_; // per plant: its box with the most it can lean
    WindSettings wind_;
    WindBuffer buffer_;
};

} // namespace snowcap
