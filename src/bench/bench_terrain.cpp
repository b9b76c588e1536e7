// The capture against the terrain beside the write-up's plane capture, at one buffer size
// (docs/terrain.md, section 5):
//   capture_terrain  plane:   the one flat camera (capture_reference = "plane")
//                    terrain: every texel's camera at its own snow top over seeded hills of 10 m
//                             (capture_reference = "terrain"); extra.ratio_to_plane is its
//                             median over the plane's, both timed in the same run
// Both capture the same four dense spheres pressing 10 cm into the hills' snow, so what
// differs is the terrain variant's fragment work and its height texture.
#include "bench/bench_cases.hpp"
#include "bench/case_support.hpp"
#include "snow/contact_capture.hpp"
#include "terrain/terrain.hpp"

#include <fmt/format.h>
#include <glm/gtc/matrix_transform.hpp>
#include <memory>

namespace snowcap::bench {

namespace {

constexpr int kTriangles = 50000;
constexpr float kRadiusCm = 40.0f;

} // namespace

std::optional<std::string> terrainCases(Context& context, int size) {
    Harness& h = context.harness;
    if (!h.wants("capture_terrain"))
        return std::nullopt;
    auto sized = sizedScenario(context, size);
    if (auto* error = std::get_if<std::string>(&sized))
        return *error;
    const auto& [label, texels, settings] = std::get<SizedScenario>(sized);

    // Hills of 10 m over 200 m around the region, four spheres each 10 cm into the snow over its
    // own point of them: all within the plane capture's box too (capture_z to its far plane),
    // so both captures draw the same instances.
    TerrainSettings hills = settings.terrain;
    hills.kind = TerrainKind::Noise;
    hills.reliefM = 10.0;
    hills.centreCm = {settings.snow.regionCentreCm[0], settings.snow.regionCentreCm[1]};
    const auto terrain = std::make_shared<const HeightField>(noiseTerrain(hills));
    const Mesh sphere = denseSphere(kRadiusCm, kTriangles);
    const gpu::GpuMesh mesh(sphere, "bench.terrain");
    std::vector<DeformerInstance> instances;
    const float spots[4][2] = {{-200, -150}, {200, -150}, {-200, 150}, {200, 150}};
    for (const auto& spot : spots) {
        const double x = hills.centreCm[0] + spot[0], y = hills.centreCm[1] + spot[1];
        const double z = settings.snow.surfaceZCm + terrain->heightCm(x, y) + kRadiusCm - 10.0;
        const glm::mat4 model = glm::translate(glm::mat4(1.0f), glm::vec3(x, y, z));
        instances.push_back(
            {&mesh, model, sphere.bounds().transformed(model), {}, ContactType::Other});
    }

    auto terrainProgram = context.shaders.load(contactCaptureProgram(true));
    if (auto* error = std::get_if<std::string>(&terrainProgram))
        return *error;
    CaptureKey planeKey = simCaptureKey(settings, 0);
    planeKey.terrain = nullptr;
    CaptureKey terrainKey = planeKey;
    terrainKey.terrain = terrain;
    terrainKey.terrainSpanCm = captureTerrainSpan(terrainKey);
    ContactCapture plane(planeKey), onTerrain(terrainKey);

    Case& flat = h.run({"capture_terrain", "plane", label, label, texels},
                       [&] { plane.capture(instances, *context.captureProgram); });
    const int planeInstances = plane.lastDraw().instances;
    flat.extra["instances"] = planeInstances;
    Case& hilly = h.run({"capture_terrain", "terrain", label, label, texels}, [&] {
        onTerrain.capture(instances, *std::get<gpu::ShaderProgram*>(terrainProgram));
    });
    hilly.extra["instances"] = onTerrain.lastDraw().instances;
    hilly.extra["relief_cm"] = terrainKey.terrainSpanCm.highCm - terrainKey.terrainSpanCm.lowCm;
    // Found again: the harness's list has grown (and may have moved) since `flat` was appended.
    const Case* planeCase = h.find("capture_terrain", "plane", label);
    if (planeCase && planeCase->medianMs > 0.0)
        hilly.extra["ratio_to_plane"] = hilly.medianMs / planeCase->medianMs;
    if (onTerrain.lastDraw().instances != planeInstances)
        hilly.note = "the two captures drew different instances";
    return std::nullopt;
}

} // namespace snowcap::bench
