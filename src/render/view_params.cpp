#include "render/view_params.hpp"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace snowcap {

Camera orbitCamera(glm::vec3 targetCm, double distanceCm, double yawDeg, double pitchDeg,
                   double fovDeg, double aspect) {
    const double yaw = glm::radians(yawDeg), pitch = glm::radians(pitchDeg);
    // Yaw 0 looks along +Y from the -Y side; positive yaw turns the eye counter-clockwise.
    const glm::dvec3 offset(std::sin(yaw) * std::cos(pitch), -std::cos(yaw) * std::cos(pitch),
                            std::sin(pitch));
    Camera camera;
    camera.eyeCm = targetCm + glm::vec3(offset * distanceCm);
    camera.view = glm::lookAt(camera.eyeCm, targetCm, glm::vec3(0, 0, 1));
    const float nearCm = static_cast<float>(std::max(distanceCm * 0.01, 1.0));
    const float farCm = static_cast<float>(distanceCm * 200.0 + 100000.0);
    camera.projection = glm::perspective(static_cast<float>(glm::radians(fovDeg)),
                                         static_cast<float>(aspect), nearCm, farCm);
    return camera;
}

Camera topCamera(const Region& region, double surfaceZCm, double aspect) {
    Camera camera;
    const glm::vec3 centre(region.centreCm.x, region.centreCm.y, surfaceZCm);
    camera.eyeCm = centre + glm::vec3(0, 0, 1000.0f);
    camera.view = glm::lookAt(camera.eyeCm, centre, glm::vec3(0, 1, 0));
    const float half = static_cast<float>(region.widthCm * 0.5);
    const float halfX = aspect >= 1.0 ? half * static_cast<float>(aspect) : half;
    const float halfY = aspect >= 1.0 ? half : half / static_cast<float>(aspect);
    camera.projection = glm::ortho(-halfX, halfX, -halfY, halfY, 1.0f, 5000.0f);
    return camera;
}

Camera cameraFor(const ViewSettings& view, const Region& region, double surfaceZCm, double aspect) {
    if (view.mode == ViewMode::Top)
        return topCamera(region, surfaceZCm, aspect);
    glm::vec3 target(view.targetCm[0], view.targetCm[1], view.targetCm[2]);
    double distance = view.distanceCm;
    if (distance <= 0.0) {
        // Frame the region: its half width (plus a margin) fills the narrower half-angle.
        const double halfFovY = glm::radians(view.fovDeg) * 0.5;
        const double halfFovX = std::atan(std::tan(halfFovY) * aspect);
        distance = region.widthCm * 0.55 / std::tan(std::min(halfFovX, halfFovY));
        target = glm::vec3(region.centreCm.x, region.centreCm.y, surfaceZCm);
    }
    return orbitCamera(target, distance, view.yawDeg, view.pitchDeg, view.fovDeg, aspect);
}

ViewParamsBlock makeViewParams(const Camera& camera, glm::vec4 viewportPx, SurfaceOutput output,
                               float tessellationMaxLevel, float tessellationReferenceCm) {
    ViewParamsBlock block{};
    block.viewProjection = camera.viewProjection();
    block.inverseViewProjection = glm::inverse(block.viewProjection);
    block.eyeCm[0] = camera.eyeCm.x;
    block.eyeCm[1] = camera.eyeCm.y;
    block.eyeCm[2] = camera.eyeCm.z;
    block.eyeCm[3] = 1.0f;
    block.viewportPx[0] = viewportPx.x;
    block.viewportPx[1] = viewportPx.y;
    block.viewportPx[2] = viewportPx.z;
    block.viewportPx[3] = viewportPx.w;
    block.tessellationMaxLevel = tessellationMaxLevel;
    block.tessellationReferenceCm = tessellationReferenceCm;
    block.outputMode = static_cast<float>(output);
    return block;
}

SurfaceOutput surfaceOutputNamed(std::string_view stage) {
    if (stage == "persistent")
        return SurfaceOutput::Persistent;
    if (stage == "mask")
        return SurfaceOutput::SnowMask;
    if (stage == "height")
        return SurfaceOutput::Height;
    if (stage == "normal")
        return SurfaceOutput::Normal;
    if (stage == "albedo")
        return SurfaceOutput::Albedo;
    if (stage == "occlusion")
        return SurfaceOutput::Occlusion;
    if (stage == "roughness")
        return SurfaceOutput::Roughness;
    if (stage == "specular")
        return SurfaceOutput::Specular;
    if (stage == "shadow")
        return SurfaceOutput::Shadow;
    if (stage == "sparkle")
        return SurfaceOutput::SparkleSeed;
    return SurfaceOutput::Lit;
}

} // namespace snowcap
