// `snowcap bench`: per-pass GPU times against the copy floor, headless.
// Each case warms up, then runs K measured repetitions; medians, minima and maxima are reported
// in ms with the ratio of the median to the copy floor measured at the same size in the same
// run. The timing method (serialized glFinish on llvmpipe, timer queries elsewhere) is printed.
#include "app/commands.hpp"
#include "app/session.hpp"
#include "gpu/timers.hpp"
#include "platform/gl_context.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <thread>

namespace snowcap {

namespace {

struct Sample {
    std::string pass;
    int size = 0;
    double medianMs = 0, minMs = 0, maxMs = 0;
};

// Times `work` `frames` times after `warmup` untimed runs.
template <class Work>
Sample measure(gpu::PassTimer& timer, const std::string& pass, int size, int frames, Work work) {
    for (int i = 0; i < 3; ++i)
        work();
    std::vector<double> ms;
    for (int i = 0; i < frames; ++i) {
        timer.beginFrame();
        timer.begin(pass);
        work();
        timer.end(pass);
        if (timer.method() == gpu::TimingMethod::TimerQuery) {
            glFinish(); // let the query land so every repetition is counted
            timer.beginFrame();
        }
        ms.push_back(timer.latestMs().count(pass) ? timer.latestMs().at(pass) : 0.0);
    }
    std::sort(ms.begin(), ms.end());
    return {pass, size, ms[ms.size() / 2], ms.front(), ms.back()};
}

} // namespace

int runBench(const CommonOptions& common, const BenchOptions& options) {
    auto context = HeadlessContext::create(common.debugGl);
    if (auto* error = std::get_if<ContextError>(&context)) {
        spdlog::error("{}", error->message);
        return 2;
    }
    const GlInfo info = std::get<0>(context)->info();
    gpu::ShaderLibrary shaders(gpu::defaultShaderRoot());
    auto copyProgram = shaders.load(
        {"copy",
         {{GL_VERTEX_SHADER, "common/fullscreen.vert"}, {GL_FRAGMENT_SHADER, "debug/copy.frag"}},
         {}});
    if (auto* error = std::get_if<std::string>(&copyProgram)) {
        spdlog::error("{}", *error);
        return 2;
    }
    gpu::PassTimer timer(gpu::trustworthyTimingMethod(info.renderer));
    gpu::VertexArray emptyArray("bench.fullscreen");
    std::vector<Sample> samples;

    for (int size : options.sizes) {
        auto loaded =
            loadScenarioSettings("decay_compare", {"snow.resolution=" + std::to_string(size)});
        if (auto* error = std::get_if<ConfigError>(&loaded)) {
            spdlog::error("{}", error->message);
            return 2;
        }
        const Settings settings = std::get<Settings>(loaded);
        auto created = createSession(settings, shaders);
        if (auto* error = std::get_if<std::string>(&created)) {
            spdlog::error("{}", *error);
            return 2;
        }
        Session& session = std::get<Session>(created);
        SnowField& field = *session.field;
        const auto& deformers = session.deformers.instancesAt(3.0); // both on the field

        gpu::Texture2D target(size, size, gpu::TextureFormat::R16F, "bench.copy");
        gpu::Framebuffer framebuffer(&target, nullptr, "bench.copy");
        const GLuint copy = std::get<gpu::ShaderProgram*>(copyProgram)->id();
        samples.push_back(measure(timer, "copy", size, options.frames, [&] {
            framebuffer.bind();
            glUseProgram(copy);
            glBindTextureUnit(0, field.sim(0).persistent().id());
            glBindVertexArray(emptyArray.id());
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }));
        samples.push_back(
            measure(timer, "clear", size, options.frames, [&] { target.clear(0.0f); }));
        // A capture of its own with the field's key: the same work as the field's capture.
        ContactCapture capture(simCaptureKey(settings, 0));
        const gpu::ShaderProgram& captureProgram =
            *std::get<gpu::ShaderProgram*>(shaders.load(contactCaptureProgram()));
        samples.push_back(measure(timer, "capture", size, options.frames,
                                  [&] { capture.capture(deformers, captureProgram); }));
        samples.push_back(measure(timer, "accumulate", size, options.frames,
                                  [&] { field.sim(0).step(field.captureOf(0), 1.0 / 60.0); }));
        samples.push_back(measure(timer, "step_ab", size, options.frames,
                                  [&] { field.step(deformers, 1.0 / 60.0); }));
    }

    nlohmann::json cases = nlohmann::json::array();
    std::printf("snowcap bench: %s | %s | %u cores | method %s\n", info.renderer.c_str(),
                info.version.c_str(), std::thread::hardware_concurrency(),
                gpu::toString(timer.method()));
    std::printf("%-12s %6s %10s %10s %10s %8s\n", "pass", "size", "median ms", "min ms", "max ms",
                "x copy");
    for (const Sample& sample : samples) {
        double floor = 0.0;
        for (const Sample& other : samples)
            if (other.pass == "copy" && other.size == sample.size)
                floor = other.medianMs;
        const double ratio = floor > 0.0 ? sample.medianMs / floor : 0.0;
        std::printf("%-12s %6d %10.3f %10.3f %10.3f %8.2f\n", sample.pass.c_str(), sample.size,
                    sample.medianMs, sample.minMs, sample.maxMs, ratio);
        cases.push_back({{"pass", sample.pass},
                         {"size", sample.size},
                         {"median_ms", sample.medianMs},
                         {"min_ms", sample.minMs},
                         {"max_ms", sample.maxMs},
                         {"ratio_to_copy", ratio}});
    }
    if (!options.json.empty()) {
        const nlohmann::json out = {
            {"machine", {{"cores", std::thread::hardware_concurrency()}}},
            {"gl",
             {{"renderer", info.renderer}, {"version", info.version}, {"vendor", info.vendor}}},
            {"method", gpu::toString(timer.method())},
            {"frames", options.frames},
            {"cases", cases}};
        std::ofstream file(options.json);
        file << out.dump(2) << "\n";
        if (!file) {
            spdlog::error("{}: cannot write", options.json.string());
            return 1;
        }
    }
    return 0;
}

} // namespace snowcap
