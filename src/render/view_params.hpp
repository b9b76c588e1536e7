#pragma once
// The camera of one view as the shaders see it (shaders/common/view_params.glsl), and the
// cameras snowcap builds: an orbit camera for the perspective view and a top-down one.

#include "core/settings.hpp"
#include "core/snow_math.hpp"
#include "gpu/binding_slots.hpp"

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <string_view>

namespace snowcap {

inline constexpr unsigned kViewParamsBinding = gpu::slot::kViewParams;

enum class SurfaceOutput {
    Lit = 0,
    Persistent = 1, // the raw buffer value (nearest texel)
    SnowMask = 2,   // blurred, amplified, saturated
    Height = 3,     // world z minus the surface (cm)
    Normal = 4,     // world normal xyz
    Albedo = 5,
    Occlusion = 6,    // ambient occlusion: the layers' baked hollows x the crevice term
    Roughness = 7,    // the layers' blended GGX roughness
    Specular = 8,     // the sun's specular lobe alone (tone-mapped)
    Shadow = 9,       // the deformers' shadow: 1 lit, 0 fully shadowed
    SparkleSeed = 10, // where a glint can be: a function of the world point only
};

// The output a `--stage` name selects (render, sweep); "lit" and any name the command line did
// not offer give Lit.
SurfaceOutput surfaceOutputNamed(std::string_view stage);

struct alignas(16) ViewParamsBlock {
    glm::mat4 viewProjection;
    glm::mat4 inverseViewProjection;
    float eyeCm[4];
    float viewportPx[4];
    float tessellationMaxLevel;
    float tessellationReferenceCm;
    float outputMode;
    float padding0;
};
static_assert(sizeof(ViewParamsBlock) == 176, "std140 size drift: see view_params.glsl");

struct Camera {
    glm::mat4 view{1.0f};
    glm::mat4 projection{1.0f};
    glm::vec3 eyeCm{0.0f};
    glm::mat4 viewProjection() const { return projection * view; }
};

// An orbit camera around `targetCm` (yaw about Z from -Y, pitch above the horizon).
Camera orbitCamera(glm::vec3 targetCm, double distanceCm, double yawDeg, double pitchDeg,
                   double fovDeg, double aspect);
// Straight down onto the region, orthographic, covering it exactly.
Camera topCamera(const Region& region, double surfaceZCm, double aspect);
// The camera a ViewSettings describes for a viewport of the given aspect (distance 0 frames the
// region).
Camera cameraFor(const ViewSettings& view, const Region& region, double surfaceZCm, double aspect);

ViewParamsBlock makeViewParams(const Camera& camera, glm::vec4 viewportPx, SurfaceOutput output,
                               float tessellationMaxLevel, float tessellationReferenceCm);

} // namespace snowcap
