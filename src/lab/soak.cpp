#include "lab/soak.hpp"

#include "core/config.hpp"
#include "gpu/objects.hpp"
#include "io/image.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <functional>
#include <glm/gtc/matrix_transform.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <span>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace snowcap {

namespace fs = std::filesystem;

std::size_t residentBytes() {
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    if (!statm)
        return 0;
    unsigned long size = 0, resident = 0;
    const int read = std::fscanf(statm, "%lu %lu", &size, &resident);
    std::fclose(statm);
    return read == 2 ? resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

namespace {

constexpr std::array<gpu::ObjectKind, gpu::kObjectKindCount> kKinds{
    gpu::ObjectKind::Buffer,  gpu::ObjectKind::Texture, gpu::ObjectKind::Framebuffer,
    gpu::ObjectKind::Program, gpu::ObjectKind::Shader,  gpu::ObjectKind::VertexArray,
    gpu::ObjectKind::Sampler, gpu::ObjectKind::Query};
constexpr std::array<const char*, gpu::kObjectKindCount> kKindNames{
    "buffer", "texture", "framebuffer", "program", "shader", "vertex_array", "sampler", "query"};

// Live GL objects by kind. Programs are counted beyond the shader library's cache: the cache
// holds one per variant ever used (bounded, never freed), so only programs outside it can leak.
struct ObjectCounts {
    std::array<int, gpu::kObjectKindCount> live{};
    bool operator==(const ObjectCounts&) const = default;
};

ObjectCounts countObjects(const gpu::ShaderLibrary& shaders) {
    ObjectCounts counts;
    for (std::size_t i = 0; i < kKinds.size(); ++i)
        counts.live[i] = gpu::liveCount(kKinds[i]);
    counts.live[3] -= static_cast<int>(shaders.programs().size());
    return counts;
}

nlohmann::json toJson(const ObjectCounts& counts) {
    nlohmann::json json;
    for (std::size_t i = 0; i < kKinds.size(); ++i)
        json[kKindNames[i]] = counts.live[i];
    json["program"] = counts.live[3]; // beyond the library's cache
    return json;
}

double mib(std::size_t bytes) {
    return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

} // namespace

std::optional<std::string> checkSoakTexture(const gpu::Texture2D& texture, const std::string& what,
                                            int unitChannels) {
    if (!texture.id())
        return std::nullopt;
    const std::vector<float> values = texture.readFloats();
    const int channels = gpu::formatInfo(texture.format()).channels;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const float value = values[i];
        const bool unit = static_cast<int>(i % channels) < unitChannels;
        if (std::isfinite(value) && (!unit || (value >= 0.0f && value <= 1.0f)))
            continue;
        const std::size_t texel = i / channels;
        return fmt::format("{} ({}x{}): texel ({}, {}) channel {} = {}", what, texture.width(),
                           texture.height(), texel % texture.width(), texel / texture.width(),
                           i % channels, value);
    }
    return std::nullopt;
}

std::optional<std::string> checkSoakSnowpack(const gpu::Texture2D& state, const std::string& what) {
    if (!state.id())
        return std::nullopt;
    const std::vector<float> values = state.readFloats();
    for (std::size_t i = 0; i < values.size(); ++i) {
        const float value = values[i];
        if (std::isfinite(value) && (i % 4 == 3 || value >= 0.0f))
            continue;
        const std::size_t texel = i / 4;
        return fmt::format("{} ({}x{}): texel ({}, {}) channel {} = {}", what, state.width(),
                           state.height(), texel % state.width(), texel / state.width(), i % 4,
                           value);
    }
    return std::nullopt;
}

namespace {

std::optional<std::string> checkField(const SnowField& field) {
    for (int i = 0; i < field.simCount(); ++i) {
        const SnowSim& sim = field.sim(i);
        if (sim.snowpack()) {
            if (auto bad = checkSoakSnowpack(sim.persistent(), "sim " + sim.name() + " snowpack"))
                return bad;
            continue; // a blurred copy of its depth holds centimetres, not [0, 1]
        }
        if (auto bad = checkSoakTexture(sim.persistent(), "sim " + sim.name() + " persistent"))
            return bad;
        // The blurred copy with blur = "prepass" or "separable" (as the last frame that drew the
        // sim left it); a separable copy of an r16f buffer carries signed slopes in G and B.
        if (&sim.surfaceInput() != &sim.persistent())
            if (auto bad = checkSoakTexture(sim.surfaceInput(), "sim " + sim.name() + " blurred",
                                            sim.blurCarriesSlope() ? 1 : 4))
                return bad;
    }
    for (int c = 0; c < field.captureCount(); ++c)
        if (auto bad =
                checkSoakTexture(field.capture(c).depth(), fmt::format("capture {} depth", c)))
            return bad;
    return std::nullopt;
}

// The random choices of one run; every value drawn is one the schema accepts.
class Chaos {
public:
    Chaos(const Settings& base, std::size_t deformerCount)
        : rng_(static_cast<std::uint32_t>(base.soak.seed)),
          offsets_(deformerCount, glm::vec3(0.0f)), velocities_(deformerCount, glm::vec3(0.0f)) {}

    bool fires(int meanSteps) {
        return meanSteps > 0 && std::uniform_int_distribution<int>(0, meanSteps - 1)(rng_) == 0;
    }
    template <class T, std::size_t N> T pick(const std::array<T, N>& values) {
        return values[std::uniform_int_distribution<std::size_t>(0, N - 1)(rng_)];
    }
    double uniform(double low, double high) {
        return std::uniform_real_distribution<double>(low, high)(rng_);
    }

    // A new resolution and region (resize event): mostly the base 256², sometimes smaller, and
    // per-sim resolutions that split the capture.
    void resize(Settings& settings) {
        settings.snow.resolution = pick(std::array{64, 128, 256, 256});
        settings.snow.orthoWidthCm = pick(std::array{128.0, 256.0, 512.0});
        settings.snow.regionCentreCm = {uniform(-50.0, 50.0), uniform(-50.0, 50.0)};
        for (SimSettings& sim : settings.sims)
            sim.resolution = pick(std::array{0, 0, 0, 64, 128, 256});
    }

    // New sim parameters (params event), each sim on its own.
    void perturb(Settings& settings) {
        for (SimSettings& sim : settings.sims) {
            sim.decay = pick(std::array{1.0, 0.999, 0.99, 0.95, 0.5, 1e-6});
            sim.decayTiming = pick(std::array{DecayTiming::PerFrame, DecayTiming::DeltaTime});
            sim.accumulate = pick(std::array{AccumulateMode::Add, AccumulateMode::Max});
            sim.halfSafe = pick(std::array{true, false});
            sim.refill = pick(std::array{RefillMode::Multiply, RefillMode::Linear});
            sim.refillRatePerS = pick(std::array{0.01, 0.1, 1.0, 1000.0});
            sim.blur = pick(std::array{BlurMode::PerPixel, BlurMode::Prepass, BlurMode::Separable});
            sim.material.rtBlurDistance = pick(std::array{0.0, 0.01, 0.25});
            // A snowpack sim's own keys, at their ends and defaults (drawn only for a snowpack,
            // so a decay soak replays the random sequence it always had).
            if (sim.model == SimModel::Snowpack) {
                sim.snowpack.maxDensityKgM3 = pick(std::array{200.0, 450.0, 917.0});
                sim.snowpack.slumpRateHz = pick(std::array{1.0, 120.0, 2000.0});
                sim.snowpack.ploughReachCm = pick(std::array{1.0, 32.0, 256.0});
                sim.snowpack.settleTimeScale = pick(std::array{0.0, 1.0, 100000.0});
            }
        }
        settings.capture.offsetCm = pick(std::array{0.0, 150.0, 400.0});
        settings.capture.farCm = pick(std::array{10.0, 2000.0, 1e5});
    }

    // Deformers wander inside (and out of) the region, sometimes jumping; z runs from deep in
    // the snow to far above it.
    void moveDeformers(int teleportEvery, double halfWidthCm) {
        for (std::size_t i = 0; i < offsets_.size(); ++i) {
            if (fires(teleportEvery))
                offsets_[i] = {uniform(-1.5, 1.5) * halfWidthCm, uniform(-1.5, 1.5) * halfWidthCm,
                               uniform(-60.0, 200.0)};
            velocities_[i] += glm::vec3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
            velocities_[i] *= 0.95f;
            offsets_[i] += velocities_[i];
            const float reach = static_cast<float>(1.5 * halfWidthCm);
            offsets_[i] = glm::clamp(offsets_[i], glm::vec3(-reach, -reach, -60.0f),
                                     glm::vec3(reach, reach, 200.0f));
        }
    }

    void place(std::vector<DeformerInstance>& instances) const {
        for (std::size_t i = 0; i < instances.size() && i < offsets_.size(); ++i) {
            instances[i].model = glm::translate(glm::mat4(1.0f), offsets_[i]) * instances[i].model;
            instances[i].worldBounds.min += offsets_[i];
            instances[i].worldBounds.max += offsets_[i];
        }
    }

private:
    std::mt19937 rng_;
    std::vector<glm::vec3> offsets_, velocities_;
};

// One settings change for each value of each switch, one sim at a time, each followed by a
// step: whatever the code creates once and keeps (programs, samplers) exists before the
// warm-up measurement, so the end can be compared with it exactly.
std::optional<std::string> visitEverySwitch(const Settings& base, SnowField& field,
                                            std::span<const DeformerInstance> instances,
                                            double dt) {
    std::vector<std::function<void(SimSettings&)>> variants;
    for (bool max : {false, true})
        for (bool halfSafe : {false, true})
            for (BlurMode blur : allValues<BlurMode>())
                variants.push_back([=](SimSettings& sim) {
                    sim.accumulate = max ? AccumulateMode::Max : AccumulateMode::Add;
                    sim.halfSafe = halfSafe;
                    sim.blur = blur;
                });
    for (RefillMode refill : {RefillMode::Multiply, RefillMode::Linear})
        variants.push_back([=](SimSettings& sim) { sim.refill = refill; });
    for (int i = 0; i < field.simCount(); ++i)
        for (const auto& variant : variants) {
            Settings settings = base;
            variant(settings.sims[i]);
            if (auto error = field.applySettings(settings))
                return error;
            field.step(instances, dt);
            field.sim(i).blur(); // the per-step blur pass, which a frame runs when it draws
        }
    return field.applySettings(base);
}

struct Tally {
    long long resets = 0, resizes = 0, paramChanges = 0, checks = 0, texelsChecked = 0;
};

// What a run measured: its time, the resident memory and the live GL objects at its start,
// after warm-up and at the end.
struct Measured {
    double seconds = 0.0;
    std::size_t startRss = 0, warmRss = 0, peakRss = 0, endRss = 0;
    ObjectCounts warmObjects, endObjects;
};

// soak.json, the summary line and the verdict on growth after warm-up: 0 (PASS), 1 (grown;
// `fail` says how) or 2 (the report could not be written).
int reportSoak(const SoakSettings& soak, int steps, int warmup, const Tally& tally,
               const Measured& m, const gpu::ShaderLibrary& shaders, const fs::path& outDir,
               const std::function<int(int, const std::string&)>& fail) {
    nlohmann::json report;
    report["seed"] = soak.seed;
    report["steps"] = steps;
    report["warmup_steps"] = warmup;
    report["seconds"] = m.seconds;
    report["steps_per_s"] = steps / std::max(m.seconds, 1e-9);
    report["resets"] = tally.resets;
    report["resizes"] = tally.resizes;
    report["parameter_changes"] = tally.paramChanges;
    report["checks"] = tally.checks;
    report["rss_mib"] = {{"start", mib(m.startRss)},
                         {"after_warmup", mib(m.warmRss)},
                         {"peak_after_warmup", mib(m.peakRss)},
                         {"end", mib(m.endRss)}};
    report["gl_objects"] = {{"after_warmup", toJson(m.warmObjects)},
                            {"end", toJson(m.endObjects)},
                            {"cached_programs", shaders.programs().size()}};
    const std::string text = report.dump(2) + "\n";
    if (auto error = writeFileAtomically(outDir / "soak.json",
                                         std::vector<std::uint8_t>(text.begin(), text.end()))) {
        spdlog::error("{}", *error);
        return 2;
    }

    spdlog::info("soak: {} steps in {:.1f} s ({:.0f} steps/s), {} resets, {} resizes, {} "
                 "parameter changes, {} checks; RSS {:.1f} MiB after warm-up, {:.1f} MiB at the "
                 "end; {} GL objects",
                 steps, m.seconds, steps / std::max(m.seconds, 1e-9), tally.resets, tally.resizes,
                 tally.paramChanges, tally.checks, mib(m.warmRss), mib(m.endRss),
                 gpu::totalLiveCount());
    if (!(m.endObjects == m.warmObjects))
        return fail(steps, "live GL objects grew after warm-up: " + toJson(m.warmObjects).dump() +
                               " -> " + toJson(m.endObjects).dump());
    if (mib(m.endRss) > mib(m.warmRss) + soak.rssSlackMiB)
        return fail(steps, fmt::format("RSS grew from {:.1f} MiB to {:.1f} MiB after warm-up "
                                       "(allowed: {} MiB)",
                                       mib(m.warmRss), mib(m.endRss), soak.rssSlackMiB));
    spdlog::info("soak: PASS: every buffer check held, no GL object or memory growth after "
                 "warm-up; report in {}",
                 (outDir / "soak.json").string());
    return 0;
}

} // namespace

int runSoak(const Settings& settings, Lab& lab, const fs::path& outDir, ProgressMode progressMode) {
    gpu::ShaderLibrary& shaders = lab.shaders();
    const SoakSettings& soak = settings.soak;
    SnowField& field = lab.field();
    const double dt = 1.0 / settings.run.fps;
    const int steps = settings.run.frames;
    const int warmup = std::min(soak.warmupSteps, steps);
    Chaos chaos(settings, lab.deformers().size());
    Settings current = settings;
    Tally tally;
    std::vector<DeformerInstance> instances;

    const auto fail = [&](int step, const std::string& what) {
        spdlog::error("soak: step {}: {} (seed {}; replay with --set soak.seed={} --frames {})",
                      step, what, soak.seed, soak.seed, step);
        return 1;
    };

    Measured m;
    m.startRss = residentBytes();
    const auto start = std::chrono::steady_clock::now();
    ProgressReporter progress(
        {.mode = progressMode, .label = "soak", .total = steps, .simulatedTotalS = steps * dt},
        std::cerr);
    for (int step = 1; step <= steps; ++step) {
        const double time = step * dt;
        instances = lab.instancesAt(time); // the chaos moves this copy; the clock stays
        chaos.moveDeformers(soak.teleportEvery, current.snow.orthoWidthCm * 0.5);
        chaos.place(instances);

        if (chaos.fires(soak.resizeEvery)) {
            chaos.resize(current);
            ++tally.resizes;
            if (auto error = field.applySettings(current))
                return fail(step, "resize rejected: " + *error);
        }
        if (chaos.fires(soak.paramsEvery)) {
            chaos.perturb(current);
            ++tally.paramChanges;
            if (auto error = field.applySettings(current))
                return fail(step, "parameter change rejected: " + *error);
        }
        if (chaos.fires(soak.resetEvery)) {
            field.reset();
            ++tally.resets;
        }
        runFrame(field, lab.renderer(), {instances, dt});

        if (step % soak.checkEvery == 0 || step == steps) {
            if (auto bad = checkField(field))
                return fail(step, *bad);
            ++tally.checks;
        }
        if (step == warmup) {
            // Measured at the base settings, after every switch has been visited once.
            if (auto error = visitEverySwitch(settings, field, instances, dt))
                return fail(step, "switch tour rejected: " + *error);
            m.warmObjects = countObjects(shaders);
            if (auto error = field.applySettings(current))
                return fail(step, *error);
            m.warmRss = residentBytes();
        }
        const std::size_t rss = residentBytes();
        m.peakRss = std::max(m.peakRss, step >= warmup ? rss : 0);
        progress.update(
            step, time,
            fmt::format("RSS {:.1f} MiB, {} GL objects", mib(rss), gpu::totalLiveCount()));
    }
    progress.finish();
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // The end state at the base settings, to compare with warm-up's.
    if (auto error = field.applySettings(settings))
        return fail(steps, *error);
    m.endObjects = countObjects(shaders);
    m.endRss = residentBytes();
    if (warmup == 0) // nothing measured at warm-up: the whole run is the warm-up
        m.warmObjects = m.endObjects, m.warmRss = m.endRss;
    return reportSoak(soak, steps, warmup, tally, m, shaders, outDir, fail);
}

} // namespace snowcap
