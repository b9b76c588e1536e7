// The crowd cases of `snowcap bench`: N skinned bipeds (a [[crowd]] of the bundled biped, each
// at its own phase of the walk) captured and accumulated at one buffer size, one instanced
// draw for them all; the ratio to the copy floor, the CPU cost of their poses, and the marginal
// cost of one more deformer (the slope between the smallest and the largest crowd). Each crowd
// runs twice in the same run: with capture.subset = "auto" (the case the targets read) and
// "off" (variant N_bipeds_subset_off), with the triangles each captured per step.
#include "bench/bench_cases.hpp"
#include "bench/case_support.hpp"
#include "gpu/pass_state.hpp"
#include "lab/session.hpp"
#include "snow/deformer_batch.hpp"

#include <algorithm>
#include <ctime>
#include <fmt/format.h>

namespace snowcap::bench {

namespace {

double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

// A grid of `count` bipeds walking on the spot across the region's middle, 60 cm apart (1,000
// of them: 19 m square), standing 20 cm above the ground so each planted foot sinks 10 cm.
std::string crowdOf(int count) {
    return fmt::format("crowd=[{{name='bench', mesh='assets/meshes/biped.glb', clip='walk', "
                       "contact='foot', count={}, formation='grid', spacing_cm=60, "
                       "path=[[0, 0, 0, 20]]}}]",
                       count);
}

} // namespace

void copyFloor(Context& context, int size) {
    const std::string label = std::to_string(size);
    if (context.harness.find("copy", "r16f", label))
        return;
    gpu::Texture2D source(size, size, gpu::TextureFormat::R16F, "bench.src");
    gpu::Texture2D target(size, size, gpu::TextureFormat::R16F, "bench.copy");
    gpu::Framebuffer framebuffer(&target, nullptr, "bench.copy");
    context.harness.run({"copy", "r16f", label, label, static_cast<long long>(size) * size},
                        [&] { drawCopy(context, framebuffer, source); });
}

std::optional<std::string> crowdCases(Context& context, int size, const std::vector<int>& counts) {
    Harness& h = context.harness;
    if (!h.wants("crowd") || counts.empty())
        return std::nullopt;
    const std::string label = std::to_string(size);
    const long long texels = static_cast<long long>(size) * size;
    copyFloor(context, size);
    std::vector<std::size_t> measured, measuredOff; // indices: h.cases() grows while we measure
    for (int count : counts)
        for (const bool subsets : {true, false}) {
            // The region wide enough for the largest crowd, and no deformer but the crowd's.
            auto made = scenarioSession(
                context, {"snow.resolution=" + label, "snow.ortho_width_cm=2048", "deformer=[]",
                          crowdOf(count),
                          std::string("capture.subset=") + (subsets ? "\"auto\"" : "\"off\"")});
            if (auto* error = std::get_if<std::string>(&made))
                return *error;
            auto& [settings, session] = std::get<ScenarioSession>(made);
            SnowField& field = *session.field;

            // What a frame spends on the CPU for them: every pose and the instance list, then
            // the records and palette written and uploaded (once a frame, for every pass). This
            // thread's CPU time, not wall time: on a shared machine a few milliseconds of work
            // can take ten times that on the clock.
            DeformerBatch batch;
            std::vector<double> cpuMs;
            double timeS = 0.5;
            for (int i = 0; i < 5; ++i) {
                const double start = threadCpuMs();
                batch.prepare(session.deformers.instancesAt(timeS += kDt));
                cpuMs.push_back(threadCpuMs() - start);
            }
            std::sort(cpuMs.begin(), cpuMs.end());

            ContactCapture capture(simCaptureKey(settings, 0));
            const std::string variant =
                fmt::format("{}_bipeds{}", count, subsets ? "" : "_subset_off");
            Case& c = h.run({"crowd", variant, label, label, texels}, [&] {
                capture.capture(batch, *context.captureProgram);
                field.sim(0).step(capture, kDt);
            });
            const gpu::GpuMesh* mesh =
                batch.instances().empty() ? nullptr : batch.instances()[0].mesh;
            c.extra["deformers"] = count;
            c.extra["capture_subset"] = subsets ? "auto" : "off";
            c.extra["meshes"] = session.deformers.meshCount();
            c.extra["capture_draws"] = capture.lastDraw().draws;
            c.extra["captured_instances"] = capture.lastDraw().instances;
            // What the capture drew in its last step (each instance's list: its subset, or
            // the whole mesh), and the mesh's own triangles for comparison.
            c.extra["capture_triangles"] = capture.lastDraw().triangles;
            c.extra["mesh_triangles"] = mesh ? mesh->triangleCount() : 0;
            c.extra["cpu_thread_ms_poses_and_upload"] = cpuMs[cpuMs.size() / 2];
            (subsets ? measured : measuredOff).push_back(h.cases().size() - 1);
        }
    // Each crowd with subsets against the same crowd without, in this run.
    for (std::size_t i = 0; i < measured.size() && i < measuredOff.size(); ++i) {
        Case& with = h.cases()[measured[i]];
        const Case& without = h.cases()[measuredOff[i]];
        if (without.medianMs > 0)
            with.extra["x_subset_off"] = with.medianMs / without.medianMs;
    }
    // One more deformer: the slope from the smallest crowd to the largest (a difference of
    // neighbours would be lost in the timing noise).
    const auto deformers = [&](std::size_t i) {
        return h.cases()[i].extra["deformers"].get<int>();
    };
    for (const std::vector<std::size_t>* list : {&measured, &measuredOff}) {
        if (list->empty())
            continue;
        const auto [fewest, most] =
            std::minmax_element(list->begin(), list->end(), [&](std::size_t a, std::size_t b) {
                return deformers(a) < deformers(b);
            });
        const int span = deformers(*most) - deformers(*fewest);
        if (span > 0) {
            Case& largest = h.cases()[*most];
            const double slopeMs = (largest.medianMs - h.cases()[*fewest].medianMs) / span;
            largest.extra["marginal_ms_per_deformer"] = slopeMs;
            if (const Case* floor = h.find("copy", "r16f", label); floor && floor->medianMs > 0)
                largest.extra["marginal_x_copy"] = slopeMs / floor->medianMs;
        }
    }
    return std::nullopt;
}

} // namespace snowcap::bench
