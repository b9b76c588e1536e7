// The foliage case of `snowcap bench`: a meadow of 1,000 bundled grass tufts swaying in the
// wind (one instanced draw, the bend in the vertex function) captured and accumulated at one
// buffer size, and its ratio to the copy floor.
#include "bench/bench_cases.hpp"
#include "bench/case_support.hpp"
#include "lab/session.hpp"
#include "snow/deformer_batch.hpp"

#include <fmt/format.h>

namespace snowcap::bench {

std::optional<std::string> foliageCases(Context& context, int size, int tufts) {
    Harness& h = context.harness;
    if (!h.wants("foliage"))
        return std::nullopt;
    const std::string label = std::to_string(size);
    const long long texels = static_cast<long long>(size) * size;
    copyFloor(context, size);
    // The foliage scenario's meadow, on its own: no walker, so the wind is all that moves it.
    auto made = scenarioSession(
        context, {"snow.resolution=" + label, "deformer=[]",
                  fmt::format("foliage=[{{name='meadow', mesh='grass_tuft', count={}, "
                              "size_cm=[900, 500], min_spacing_cm=10}}]",
                              tufts)});
    if (auto* error = std::get_if<std::string>(&made))
        return *error;
    auto& [settings, session] = std::get<ScenarioSession>(made);
    std::vector<DeformerInstance> instances;
    session.foliage.appendInstances(1.0, {}, instances); // the wind at 1 s, bound for the passes
    DeformerBatch batch;
    batch.prepare(instances);
    ContactCapture capture(simCaptureKey(settings, 0));
    SnowField& field = *session.field;
    Case& c = h.run({"foliage", fmt::format("{}_tufts", tufts), label, label, texels}, [&] {
        capture.capture(batch, *context.captureProgram);
        field.sim(0).step(capture, kDt);
    });
    c.extra["plants"] = tufts;
    c.extra["capture_draws"] = capture.lastDraw().draws;
    c.extra["captured_instances"] = capture.lastDraw().instances;
    c.extra["capture_triangles"] =
        instances.empty()
            ? 0
            : static_cast<long long>(instances[0].mesh->captureTriangleCount()) * tufts;
    return std::nullopt;
}

} // namespace snowcap::bench
