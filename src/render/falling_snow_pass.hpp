#pragma once
// FallingSnowPass — the flakes in the air while [weather] snows (core/falling_snow.hpp).
// Reads:  the view's camera block and the sim's SnowParams (the sun's and sky's colours), the
//         view's depth (flakes behind the snow or a deformer are hidden).
// Writes: the view's pane, alpha-blended over what the sky left; no depth write.
// It holds no state: every flake's place is a function of the air's time, a seed and its index,
// drawn as one glDrawArrays of GL_POINTS, a point sprite a flake, with no vertex buffer.

#include "core/falling_snow.hpp"
#include "gpu/objects.hpp"
#include "gpu/pass_record.hpp"
#include "gpu/shader_library.hpp"
#include "render/view_params.hpp"

#include <glm/mat4x4.hpp>
#include <memory>
#include <string>
#include <variant>

namespace snowcap {

// No flake is drawn larger than this, and none nearer the eye than kFlakeNearCm: flakes brushing
// past a camera inside the box would cover the view with blended sprites (1.7 s a frame at
// 60,000 flakes on llvmpipe, the default scene's camera standing in the air of its 20 m region).
constexpr float kFlakeMaxRadiusPx = 4.0f;
constexpr float kFlakeNearCm = 30.0f;

// The air `camera` sees at `timeS`: nested boxes ahead of a perspective camera
// (fallingSnowAirAround), so the flakes fill the view past the region; the region's own box under
// an orthographic one (fallingSnowAir: from straight above the region is all it sees).
FallingSnowAir fallingSnowAirFor(const Settings& settings, const Region& region,
                                 const Camera& camera, double timeS);

class FallingSnowPass {
public:
    static std::variant<std::unique_ptr<FallingSnowPass>, std::string>
    create(gpu::ShaderLibrary& shaders);

    GLuint program() const;
    // Draws `air`'s flakes for a view whose projection is `projection` (its program's uniforms
    // set here, then one draw); none when air.flakes is 0.
    void draw(const FallingSnowAir& air, const glm::mat4& projection) const;

private:
    FallingSnowPass() = default;
    const gpu::ShaderProgram* program_ = nullptr;
    gpu::VertexArray emptyArray_;
};

} // namespace snowcap
