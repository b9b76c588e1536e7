#pragma once
// What a headless run leaves behind: probe curves, buffer statistics (stats.json), the
// persistent buffers and capture depth as PFM and OpenEXR (lab/exr_outputs.hpp), and final.png.

#include "core/settings.hpp"
#include "io/image.hpp"
#include "platform/gl_context.hpp"
#include "render/frame.hpp"
#include "render/scene_renderer.hpp"
#include "snow/snow_field.hpp"

#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <toml++/toml.h>
#include <vector>

namespace snowcap {

// A TOML value as JSON: tables become objects, arrays arrays, values stay what they are
// (stats.json's `params`, plan.json's resolved settings).
nlohmann::json tomlToJson(const toml::node& node);

// Min/max/mean and counts over one buffer's R channel.
struct BufferStats {
    float min = 0, max = 0;
    double mean = 0;
    long long nonzero = 0, nanOrInf = 0;
    long long above[3] = {0, 0, 0}; // texels above 0.01, 0.1, 0.5
};
BufferStats bufferStats(const std::vector<float>& values, int channels);

// The persistent buffer of a sim (R channel) read back.
ImageFloat readPersistent(const SnowSim& sim);
// The capture depth as SceneDepth in cm.
ImageFloat readCaptureDepthCm(const ContactCapture& capture);

class RunRecorder {
public:
    RunRecorder(const Settings& settings, const SnowField& field);
    // Reads each probe's texel in each sim (one texel each, after the step).
    void recordProbes(const SnowField& field);

    struct Probe {
        std::string name;
        std::array<double, 2> worldCm;
        // Per sim, [0, simCount()).
        std::vector<glm::ivec2> texel;
        std::vector<bool> inside;
        std::vector<std::vector<float>> values;
    };
    const std::vector<Probe>& probes() const { return probes_; }
    int frames() const { return frames_; }

private:
    std::vector<Probe> probes_;
    int frames_ = 0;
};

// Every sim's persistent buffer, colour-mapped and labelled, in the pane grid of final.png
// (render/frame.hpp: A | B, A B / C D, ...).
std::optional<std::string> writeBufferImage(const SnowField& field,
                                            const std::filesystem::path& path);

// The scene as a person sees it: a pane per sim (A | B; A B / C D for 3 or 4 sims; 2 rows for
// more, render/frame.hpp's paneGrid), each the same camera over its own sim, labelled;
// a frame without a step (render/frame.hpp), so it blurs what is due first.
// Other outputs show one material stage instead (colour-mapped: persistent and mask 0..1,
// height -depth..0 cm, normal as rgb = n / 2 + 1/2).
// A debug output texel (RGBA float) of `output` as a display colour (final.png's stages).
glm::u8vec4 stageColour(SurfaceOutput output, const float* texel, float snowDepthCm);

ImageRgba8 renderFinalImage(SnowField& field, SceneRenderer& renderer,
                            std::span<const DeformerInstance> deformers, const Settings& settings,
                            SurfaceOutput output = SurfaceOutput::Lit);
std::optional<std::string> writeFinalImage(SnowField& field, SceneRenderer& renderer,
                                           std::span<const DeformerInstance> deformers,
                                           const Settings& settings,
                                           const std::filesystem::path& path,
                                           SurfaceOutput output = SurfaceOutput::Lit);

std::optional<std::string> writeRunOutputs(const std::filesystem::path& dir,
                                           const Settings& settings, const GlInfo& gl,
                                           SnowField& field, const RunRecorder& recorder,
                                           SceneRenderer& renderer,
                                           std::span<const DeformerInstance> deformers,
                                           SurfaceOutput output, double wallSeconds);

} // namespace snowcap
