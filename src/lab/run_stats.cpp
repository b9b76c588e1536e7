#include "lab/run_stats.hpp"

#include "core/snow_math.hpp"

#include <cmath>

namespace snowcap {

BufferStats bufferStats(const std::vector<float>& values, int channels) {
    BufferStats stats;
    bool first = true;
    double sum = 0;
    long long finite = 0;
    for (std::size_t i = 0; i < values.size(); i += channels) {
        const float v = values[i];
        if (!std::isfinite(v)) {
            ++stats.nanOrInf;
            continue;
        }
        if (first || v < stats.min)
            stats.min = v;
        if (first || v > stats.max)
            stats.max = v;
        first = false;
        sum += v;
        ++finite;
        stats.nonzero += v != 0.0f;
        stats.above[0] += v > 0.01f;
        stats.above[1] += v > 0.1f;
        stats.above[2] += v > 0.5f;
    }
    stats.mean = finite ? sum / finite : 0.0;
    return stats;
}

ImageFloat readPersistent(const SnowSim& sim) {
    const gpu::Texture2D& texture = sim.persistent();
    const int channels = gpu::formatInfo(texture.format()).channels;
    const std::vector<float> texels = texture.readFloats();
    ImageFloat image(texture.width(), texture.height());
    for (std::size_t i = 0; i < image.values.size(); ++i)
        image.values[i] = texels[i * channels];
    return image;
}

ImageFloat readCaptureDepthCm(const ContactCapture& capture) {
    ImageFloat image(capture.depth().width(), capture.depth().height());
    image.values = capture.depth().readFloats();
    for (float& v : image.values)
        v *= static_cast<float>(capture.key().farCm);
    return image;
}

ProbeTexel probeTexel(glm::dvec2 worldCm, const Region& region) {
    const glm::ivec2 texel = worldToTexel(worldCm, region);
    return {texel, texel.x >= 0 && texel.y >= 0 && texel.x < region.resolution &&
                       texel.y < region.resolution};
}

float readProbe(const SnowSim& sim, const ProbeTexel& at) {
    float value = NAN;
    if (at.inside)
        glGetTextureSubImage(sim.persistent().id(), 0, at.texel.x, at.texel.y, 0, 1, 1, 1, GL_RED,
                             GL_FLOAT, sizeof(float), &value);
    return value;
}

RunRecorder::RunRecorder(const Settings& settings, const SnowField& field) {
    for (const ProbeSettings& probe : settings.probes) {
        Probe p;
        p.name = probe.name;
        p.worldCm = probe.worldCm;
        for (int s = 0; s < field.simCount(); ++s) {
            const ProbeTexel at =
                probeTexel({probe.worldCm[0], probe.worldCm[1]}, field.sim(s).region());
            p.texel.push_back(at.texel);
            p.inside.push_back(at.inside);
        }
        p.values.resize(p.texel.size());
        probes_.push_back(std::move(p));
    }
}

void RunRecorder::recordProbes(const SnowField& field) {
    ++frames_;
    for (Probe& probe : probes_)
        for (int s = 0; s < static_cast<int>(probe.texel.size()); ++s)
            probe.values[s].push_back(readProbe(field.sim(s), {probe.texel[s], probe.inside[s]}));
}

} // namespace snowcap
