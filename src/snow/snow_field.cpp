#include "snow/snow_field.hpp"

#include <algorithm>

namespace snowcap {

Region simRegion(const Settings& settings, int simIndex) {
    const SimSettings& sim = settings.sims[simIndex];
    Region region;
    region.centreCm = {settings.snow.regionCentreCm[0], settings.snow.regionCentreCm[1]};
    region.widthCm = settings.snow.orthoWidthCm;
    region.resolution = sim.resolution > 0 ? sim.resolution : settings.snow.resolution;
    return region;
}

CaptureKey simCaptureKey(const Settings& settings, int simIndex) {
    return {simRegion(settings, simIndex), settings.snow.surfaceZCm + settings.snow.captureZCm,
            settings.capture.farCm};
}

std::variant<std::unique_ptr<SnowField>, std::string>
SnowField::create(const Settings& settings, gpu::ShaderLibrary& shaders) {
    std::unique_ptr<SnowField> field(new SnowField(shaders));
    auto program = shaders.load(contactCaptureProgram());
    if (auto* error = std::get_if<std::string>(&program))
        return *error;
    field->captureProgram_ = std::get<gpu::ShaderProgram*>(program);
    if (auto error = field->applySettings(settings))
        return *error;
    return field;
}

std::optional<std::string> SnowField::applySettings(const Settings& settings) {
    // Shaders first: if a variant fails to build, nothing has changed yet.
    for (const SimSettings& sim : settings.sims)
        if (auto loaded = shaders_.load(accumulateProgram(sim));
            auto* error = std::get_if<std::string>(&loaded))
            return *error;

    // One capture per distinct key; a capture whose key survives is kept (no reallocation).
    std::vector<std::unique_ptr<ContactCapture>> captures;
    auto takeOrMake = [&](const CaptureKey& key) {
        for (auto& existing : captures_)
            if (existing && existing->key() == key)
                return std::move(existing);
        return std::make_unique<ContactCapture>(key);
    };
    for (int i = 0; i < kSimCount; ++i) {
        const CaptureKey key = simCaptureKey(settings, i);
        auto same = std::find_if(captures.begin(), captures.end(),
                                 [&](const auto& capture) { return capture->key() == key; });
        if (same == captures.end())
            same = captures.insert(captures.end(), takeOrMake(key));
        captureIndex_[i] = static_cast<int>(same - captures.begin());
    }
    captures_ = std::move(captures);

    for (int i = 0; i < kSimCount; ++i)
        if (auto error = sims_[i].configure(settings, simRegion(settings, i), shaders_))
            return error; // cannot happen after the loads above, but never swallow it
    settings_ = settings;
    return std::nullopt;
}

void SnowField::step(std::span<const DeformerInstance> deformers, double dtSeconds,
                     gpu::PassTimer* timer) {
    for (auto& capture : captures_) {
        if (timer)
            timer->begin("capture");
        capture->capture(deformers, *captureProgram_);
        if (timer)
            timer->end("capture");
        ++passesRun_.capture;
    }
    for (int i = 0; i < kSimCount; ++i) {
        if (timer)
            timer->begin("accumulate");
        sims_[i].step(*captures_[captureIndex_[i]], dtSeconds);
        if (timer)
            timer->end("accumulate");
        ++passesRun_.accumulate;
    }
}

void SnowField::reset() {
    for (auto& sim : sims_)
        sim.reset();
}

} // namespace snowcap
