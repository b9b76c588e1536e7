#pragma once
// ShadowPass — the sun's shadow map of the deformers. M_Snow switches off only the snow's own
// cast shadow; the characters still cast theirs onto it, so the map holds deformers only.
// Reads:  the deformer instances, through the one deformer vertex function (skinning included).
// Writes: a D32F depth map, orthographic along the sun over the box the frame's views need;
//         the ShadowParams block and the map (a depth-compare sampler) that the snow and the
//         deformers read (shaders/common/shadow_map.glsl), through bindings().

#include "gpu/binding_slots.hpp"
#include "gpu/objects.hpp"
#include "gpu/pass_record.hpp"
#include "gpu/shader_library.hpp"
#include "snow/contact_capture.hpp"

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

inline constexpr unsigned kShadowParamsBinding = gpu::slot::kShadowParams;

struct alignas(16) ShadowParamsBlock {
    glm::mat4 worldToShadow; // world cm -> [0, 1]^3: map uv and stored depth
    float texel[4];          // 1 / size, depth bias (stored units), texel size (cm), unused
};
static_assert(sizeof(ShadowParamsBlock) == 80, "std140 size drift: see shadow_map.glsl");

// What the map must cover: every receiver in [minCm, maxCm] (world xy) between zLowCm and
// zHighCm; any caster between them and the sun is then inside it.
struct ShadowBox {
    glm::dvec2 minCm{0.0}, maxCm{0.0};
    double zLowCm = 0.0, zHighCm = 0.0;
};

// `box` grown on the side away from the sun by how far a caster at its top throws a shadow
// onto the snow surface at `surfaceZCm`, so shadows that fall past the regions' border onto
// the skirt are in the map; each side grows by at most the box's own width there (the map's
// texel at most doubles a side: a lower sun's longer shadows end, fading out, at the map's edge,
// shaders/common/shadow_map.glsl).
ShadowBox growShadowBox(const ShadowBox& box, glm::vec3 toSun, double surfaceZCm);

// The light's matrices for a box and a direction towards the sun: `viewProjection` to draw
// with (clip space), `block.worldToShadow` to look up with ([0, 1]). Pure math, tested on the CPU.
struct SunShadow {
    glm::mat4 viewProjection{1.0f};
    ShadowParamsBlock block{};
};
SunShadow sunShadow(glm::vec3 toSun, const ShadowBox& box, int size);

class ShadowPass {
public:
    static std::variant<std::unique_ptr<ShadowPass>, std::string>
    create(gpu::ShaderLibrary& shaders);

    // The deformers' depth from the sun over `box` (a pass of its own: it sets its target,
    // viewport, depth and program), one instanced draw per mesh.
    void draw(DeformerBatch& deformers, const ShadowBox& box, glm::vec3 toSun);
    // The same as a pass of the frame's list: prepare (the light's matrices for the box, its
    // block uploaded), the pass's state, and its draw.
    void prepare(const ShadowBox& box, glm::vec3 toSun);
    gpu::PassState passState() const;
    void drawCasters(DeformerBatch& deformers);
    const DeformerDrawStats& lastDraw() const { return lastDraw_; }
    // The map (depth compare) and its block, for a pass that samples them.
    std::vector<gpu::PassBinding> bindings() const;

    const SunShadow& current() const { return shadow_; }
    const gpu::Texture2D& depth() const { return depth_; }
    static constexpr int kSize = 1024; // texels per side: 1-3 cm a texel over 10-20 m regions

private:
    ShadowPass() = default;

    const gpu::ShaderProgram* program_ = nullptr;
    gpu::Texture2D depth_;
    gpu::Framebuffer framebuffer_;
    gpu::Sampler sampler_;
    gpu::Buffer params_;
    SunShadow shadow_;
    DeformerDrawStats lastDraw_;
};

} // namespace snowcap
