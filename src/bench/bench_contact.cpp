// The contact pass's own cases at one buffer size (docs/performance.md, section 3):
//   accumulate_fused    1, 2, 4 and 8 sims sharing one capture in one pass (SnowSim::stepShared),
//                       with a d16 and a d32f capture depth; extra.ms_per_sim is the pass / sims
//   capture_accumulate  4x50k_proxy: the 4 x 50k capture + accumulate with each mesh's capture
//                       proxy (capture.proxy = "auto"); the 4x50k case beside it draws the full
//                       meshes
#include "bench/bench_cases.hpp"
#include "bench/case_support.hpp"
#include "core/config.hpp"
#include "scene/capture_proxy.hpp"
#include "snow/snow_field.hpp"

#include <fmt/format.h>
#include <glm/gtc/matrix_transform.hpp>

namespace snowcap::bench {

namespace {

constexpr int kTriangles = 50000;
constexpr float kRadiusCm = 40.0f;

// bench_cases.cpp's four dense spheres pressing 10 cm in, optionally drawn through a proxy.
struct FourSpheres {
    gpu::GpuMesh mesh;
    std::vector<DeformerInstance> instances;
    int captureTriangles = 0;
    double proxyErrorCm = 0.0;

    FourSpheres(double proxyBoundCm) {
        const Mesh cpu = denseSphere(kRadiusCm, kTriangles);
        const CaptureProxy proxy = buildCaptureProxy(cpu, proxyBoundCm);
        mesh = gpu::GpuMesh(cpu, "bench.contact", proxy.indices);
        captureTriangles = mesh.captureTriangleCount();
        proxyErrorCm = proxy.errorCm;
        const float spots[4][2] = {{-200, -150}, {200, -150}, {-200, 150}, {200, 150}};
        for (const auto& spot : spots) {
            const glm::mat4 model =
                glm::translate(glm::mat4(1.0f), {spot[0], spot[1], kRadiusCm - 10.0f});
            instances.push_back(
                {&mesh, model, cpu.bounds().transformed(model), {}, ContactType::Other});
        }
    }
};

} // namespace

std::optional<std::string> contactCases(Context& context, int size) {
    Harness& h = context.harness;
    const bool fused = h.wants("accumulate_fused");
    const bool proxy = h.wants("capture_accumulate", "4x50k_proxy");
    if (!fused && !proxy)
        return std::nullopt;
    auto sized = sizedScenario(context, size);
    if (auto* error = std::get_if<std::string>(&sized))
        return *error;
    const auto& [label, texels, settings] = std::get<SizedScenario>(sized);

    if (fused) {
        const FourSpheres full(0.0);
        for (CaptureDepth depth : {CaptureDepth::D16, CaptureDepth::D32F})
            for (int sims : {1, 2, 4, 8}) {
                Settings variant = settings;
                variant.capture.depth = depth;
                variant.sims.assign(sims, settings.sims[0]);
                for (SimSettings& sim : variant.sims) {
                    sim.resolution = 0; // snow.resolution: one capture for all
                    sim.region = RegionMode::Fixed;
                    sim.persistence = Persistence::Window;
                }
                auto made = SnowField::create(variant, context.shaders);
                if (auto* error = std::get_if<std::string>(&made))
                    return *error;
                SnowField& field = *std::get<0>(made);
                field.step(full.instances, kDt); // prints in the buffers, a filled capture
                std::vector<SnowSim*> group;
                for (int s = 0; s < field.simCount(); ++s)
                    group.push_back(&field.sim(s));
                Case& c = h.run({"accumulate_fused", fmt::format("{}x_{}", sims, toString(depth)),
                                 label, label, texels * sims},
                                [&] { SnowSim::stepShared(group, field.captureOf(0), kDt); });
                c.extra["sims"] = sims;
                c.extra["ms_per_sim"] = c.medianMs / sims;
                c.extra["depth_format"] = gpu::formatInfo(field.captureOf(0).depth().format()).name;
                if (field.captureCount() != 1)
                    c.note = fmt::format("{} captures: the sims did not share one",
                                         field.captureCount());
            }
    }
    if (proxy) {
        const FourSpheres proxied(captureProxyErrorCm(settings));
        auto made = SnowField::create(settings, context.shaders);
        if (auto* error = std::get_if<std::string>(&made))
            return *error;
        SnowField& field = *std::get<0>(made);
        ContactCapture capture(simCaptureKey(settings, 0));
        Case& c = h.run({"capture_accumulate", "4x50k_proxy", label, label, texels}, [&] {
            capture.capture(proxied.instances, *context.captureProgram);
            field.sim(0).step(capture, kDt);
        });
        c.extra["triangles"] = 4 * proxied.captureTriangles;
        c.extra["proxy_error_cm"] = proxied.proxyErrorCm;
        if (proxied.captureTriangles >= kTriangles)
            c.note = "no proxy built: the full meshes ran";
    }
    return std::nullopt;
}

} // namespace snowcap::bench
