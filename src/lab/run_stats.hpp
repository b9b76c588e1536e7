#pragma once
// What a headless run measures: the buffers read back (persistent, capture depth), their
// statistics (stats.json's "buffer"), and the probes: one texel of each sim's persistent buffer
// per step, the one probe reader the render command, the sweep and the viewer share.

#include "core/settings.hpp"
#include "io/image.hpp"
#include "snow/snow_field.hpp"

#include <array>
#include <string>
#include <vector>

namespace snowcap {

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

// Where a probe at worldCm falls in a region: its texel, and whether that texel is inside.
struct ProbeTexel {
    glm::ivec2 texel{0};
    bool inside = false;
};
ProbeTexel probeTexel(glm::dvec2 worldCm, const Region& region);
// The persistent buffer's R at the probe (one texel read back); NaN outside the region.
float readProbe(const SnowSim& sim, const ProbeTexel& at);

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

} // namespace snowcap
