#include "snow/snow_field.hpp"

#include "core/quality.hpp"
#include "scene/capture_subset.hpp"
#include "snow/region_shift.hpp"
#include "snow/snowpack_sim.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

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
            settings.capture.farCm,
            captureDepthFormat(settings.capture, simRegion(settings, simIndex)),
            captureSubsetCeilingCm(settings)};
}

namespace {

bool follows(const SimSettings& sim) {
    return sim.region != RegionMode::Fixed;
}

} // namespace

// The textures one window of sim i needs: two persistent buffers, a blurred copy with the
// prepass (two with separable) and (counted once per window, to be safe) a capture depth.
static void appendWindowNeeds(std::vector<gpu::TextureRequest>& needs, const Settings& settings,
                              int i) {
    const int size = simRegion(settings, i).resolution;
    needs.push_back({size, size, gpu::TextureFormat::R16F});
    needs.push_back({size, size, gpu::TextureFormat::R16F});
    if (settings.sims[i].blur == BlurMode::Prepass)
        needs.push_back({size, size, gpu::TextureFormat::R16F});
    if (settings.sims[i].blur == BlurMode::Separable) {
        // The copy and its intermediate; they carry the slope (RGBA) for r16f buffers.
        const int half = separableBlurSize(size);
        needs.push_back({half, half, gpu::TextureFormat::RGBA16F});
        needs.push_back({half, half, gpu::TextureFormat::RGBA16F});
    }
    needs.push_back({size, size, gpu::TextureFormat::D32F});
}

// The new textures `settings` needs: every window of a sim whose region changes, and the
// windows a sim gains (more observers).
static std::vector<gpu::TextureRequest> textureNeeds(const SnowField& field,
                                                     const Settings& settings) {
    std::vector<gpu::TextureRequest> needs;
    const int observers = std::max(1, static_cast<int>(settings.snow.follow.size()));
    for (int i = 0; i < static_cast<int>(settings.sims.size()); ++i) {
        const bool kept = i < field.simCount() && field.sim(i).persistent().id() &&
                          field.sim(i).region() == simRegion(settings, i);
        const int have = kept ? field.windowCount(i) : 0;
        for (int w = have; w < SnowField::windowsWanted(settings, i, observers); ++w)
            appendWindowNeeds(needs, settings, i);
    }
    return needs;
}

std::variant<std::unique_ptr<SnowField>, std::string>
SnowField::create(const Settings& settings, gpu::ShaderLibrary& shaders) {
    std::unique_ptr<SnowField> field(new SnowField(shaders));
    field->sims_.reserve(kMaxSims);
    auto program = shaders.load(contactCaptureProgram());
    if (auto* error = std::get_if<std::string>(&program))
        return *error;
    field->captureProgram_ = std::get<gpu::ShaderProgram*>(program);
    for (int bilinear = 0; bilinear < 2; ++bilinear) {
        auto shift = shaders.load(regionShiftProgram(bilinear != 0));
        if (auto* error = std::get_if<std::string>(&shift))
            return *error;
        field->shiftProgram_[bilinear] = std::get<gpu::ShaderProgram*>(shift);
    }
    for (int i = 0; i < static_cast<int>(settings.sims.size()) && i < kMaxSims; ++i)
        field->centres_[i] = simRegion(settings, i).centreCm;
    if (auto error = field->applySettings(settings))
        return *error;
    return field;
}

std::optional<std::string> SnowField::applySettings(const Settings& given) {
    const int count = static_cast<int>(given.sims.size());
    if (count < 1 || count > kMaxSims)
        return fmt::format("sim: {} sims; a field runs 1 to {} (sim.a .. sim.{})", count, kMaxSims,
                           simName(kMaxSims - 1));
    const Settings settings = snowcap::effectiveSettings(given);
    const bool enabled = !snowDisabled(settings);
    // Memory first (docs/reliability.md): a size the GPU cannot hold fails before anything is
    // replaced, so the field keeps its resolution and its prints.
    if (const std::string error =
            enabled ? gpu::probeTextures(textureNeeds(*this, settings)) : std::string();
        !error.empty()) {
        const int kept =
            !sims_.empty() && sims_[0].persistent().id() ? sims_[0].region().resolution : 0;
        return "snow.resolution " + std::to_string(settings.snow.resolution) + ": " + error +
               (kept ? "; keeping " + std::to_string(kept) + "²" : "");
    }
    // Shaders first: if a variant fails to build, nothing has changed yet.
    if (enabled)
        for (const gpu::ProgramDesc& program : accumulatePrograms(settings))
            if (auto loaded = shaders_.load(program);
                auto* error = std::get_if<std::string>(&loaded))
                return *error;
    auto observers = resolveObservers(settings);
    if (auto* error = std::get_if<std::string>(&observers))
        return *error;
    if (auto error = worldSettingsError(settings))
        return error;
    if (auto error = snowpackSettingsError(settings))
        return error;

    // A following region keeps its place across live edits that leave its size alone; any
    // other region starts at the configured centre.
    for (int i = 0; i < count; ++i) {
        const Region configured = simRegion(settings, i);
        const bool keep = i < simCount() && follows(settings.sims[i]) &&
                          follows(sims_[i].settings()) &&
                          sims_[i].region().widthCm == configured.widthCm &&
                          sims_[i].region().resolution == configured.resolution;
        if (!keep)
            centres_[i] = configured.centreCm;
    }
    settings_ = given;
    effective_ = settings;
    observers_ = std::get<std::vector<int>>(std::move(observers));
    enabled_ = enabled;
    resizeSims(count);

    if (!enabled) {
        // Fold to zero: no capture, no sim texture; the sims keep only their parameters.
        captures_.clear();
        captureIndex_ = {};
        for (int i = 0; i < count; ++i) {
            Region region = simRegion(settings, i);
            region.centreCm = centres_[i];
            sims_[i].configureOff(settings, region);
            healBound_[i] = 0.0;
            tagStepsLeft_[i] = 0;
            worlds_[i].reset();
            sims_[i].attachSnowpack(nullptr);
            snowpacks_[i].reset();
        }
        for (auto& extra : extra_)
            extra.clear();
        return std::nullopt;
    }

    for (int i = 0; i < count; ++i) {
        Region region = simRegion(settings, i);
        region.centreCm = centres_[i];
        if (auto error = sims_[i].configure(settings, region, shaders_))
            return error; // cannot happen after the loads above, but never swallow it
        // A cleared rgba16f texel (0, 0, 0, 0) takes the untouched (0, max age, 0, 0) on its
        // first step: that step must run.
        if (settings.sims[i].format == BufferFormat::RGBA16F)
            tagStepsLeft_[i] = std::max(tagStepsLeft_[i], 1);
    }
    if (auto error = configureWindows())
        return error;
    assignCaptures();
    if (auto error = configureWorlds())
        return error;
    if (auto error = configureSnowpacks())
        return error;
    fillNewWindows();
    return std::nullopt;
}

void SnowField::resizeSims(int count) {
    // A sim that goes away takes its state with it; a new one starts cleared, not idle.
    while (simCount() > count) {
        sims_.pop_back();
        const int i = simCount();
        extra_[i].clear();
        snowpacks_[i].reset();
        healBound_[i] = 0.0;
        tagStepsLeft_[i] = 0;
        idleSteps_[i] = 0;
    }
    while (simCount() < count)
        sims_.emplace_back(std::string(simName(simCount())), simCount());
}

CaptureKey SnowField::currentKey(int simIndex) const {
    CaptureKey key = simCaptureKey(effective_, simIndex);
    key.region.centreCm = centres_[simIndex];
    return key;
}

void SnowField::assignCaptures() {
    // One capture per distinct key; a capture whose key survives is kept, one that differs only
    // in its centre is moved (a following region), anything else is made anew.
    std::vector<std::unique_ptr<ContactCapture>> previous = std::move(captures_);
    captures_.clear();
    auto take = [&](auto&& matches) -> std::unique_ptr<ContactCapture> {
        auto found = std::find_if(previous.begin(), previous.end(), [&](const auto& capture) {
            return capture && matches(capture->key());
        });
        return found == previous.end() ? nullptr : std::move(*found);
    };
    for (int i = 0; i < simCount(); ++i)
        for (int w = 0; w < windowCount(i); ++w) {
            WindowRef window = windowRef(i, w);
            CaptureKey key = currentKey(i);
            key.region.centreCm = window.centre;
            auto same = std::find_if(captures_.begin(), captures_.end(),
                                     [&](const auto& capture) { return capture->key() == key; });
            if (same == captures_.end()) {
                auto capture = take([&](const CaptureKey& k) { return k == key; });
                if (!capture) {
                    capture = take([&](CaptureKey k) {
                        k.region.centreCm = key.region.centreCm; // all else the same
                        return k == key;
                    });
                    if (capture)
                        capture->moveTo(key.region.centreCm);
                }
                if (!capture)
                    capture = std::make_unique<ContactCapture>(key);
                same = captures_.insert(captures_.end(), std::move(capture));
            }
            window.capture = static_cast<int>(same - captures_.begin());
        }
}

std::vector<SnowField::Move>
SnowField::plannedMoves(std::span<const DeformerInstance> deformers) const {
    std::vector<Move> moves;
    for (int i = 0; i < simCount(); ++i) {
        const RegionMode mode = effective_.sims[i].region;
        if (mode == RegionMode::Fixed)
            continue;
        const Region configured = simRegion(effective_, i);
        for (int w = 0; w < windowCount(i); ++w) {
            const int followed = observers_[w];
            if (followed < 0 || followed >= static_cast<int>(deformers.size()))
                continue;
            const Aabb& bounds = deformers[followed].worldBounds;
            const glm::dvec2 target = (glm::dvec2(bounds.min) + glm::dvec2(bounds.max)) * 0.5;
            const glm::dvec2 centre = w == 0 ? centres_[i] : extra_[i][w - 1]->centre;
            const glm::dvec2 next =
                followCentre(mode, target, centre, configured.centreCm, configured.texelCm());
            if (next != centre)
                moves.push_back({i, w, next});
        }
    }
    return moves;
}

void SnowField::moveFollowing(const Move& move) {
    const RegionMode mode = effective_.sims[move.sim].region;
    moveWindow(move.sim, move.window, move.next,
               *shiftProgram_[mode == RegionMode::FollowNaive ? 1 : 0]);
    // The bilinear resample rounds to half: allow its half ulp in the bound.
    if (mode == RegionMode::FollowNaive)
        windowRef(move.sim, move.window).healBound *= 1.0 + 1.0 / 1024.0;
}

void SnowField::updateHealBound(int simIndex, int w, bool contact) {
    const SimSettings& sim = effective_.sims[simIndex];
    WindowRef window = windowRef(simIndex, w);
    double& bound = window.healBound;
    int& tagSteps = tagStepsLeft_[simIndex]; // rgba16f: one window only
    if (sim.format == BufferFormat::RGBA16F) {
        // The tags' distances grow by at least a texel a step once nothing is pressed, and a
        // tag lapses past `reach` (accumulate.frag): reach + 2 steps after R is all zero, G, B
        // and A hold the untouched (0, max age, 0, 0) everywhere, a fixed point.
        const SnowParamsBlock& p = sims_[simIndex].params();
        const int reach = static_cast<int>(std::ceil(p.rtBlurDistance * p.resolution)) + 2;
        if (contact || bound > 0.0)
            tagSteps = reach + 2;
        else if (tagSteps > 0)
            --tagSteps;
    }
    if (contact) {
        bound = 1.0; // every accumulate mode saturates at 1
        return;
    }
    if (bound == 0.0)
        return; // 0 x k + no contact = 0, exactly
    // What the step just applied, from the sim's clock: linear refill subtracted refillStep
    // (exactly, by design), the multiply refill scaled by stepFactor (1 with linear refill).
    const SimStep& step = window.sim.lastStep();
    double next = bound * step.stepFactor;
    if (sim.refill == RefillMode::Linear)
        next = bound - step.refillStep;
    if (next < bound)
        next *= 1.0 + 1.0 / 1024.0; // the store's rounding: at most half an ulp up (2^-11)
    if (!sim.halfSafe) {
        // Without the zero floor round-to-nearest can stall a value above 0 forever: the
        // field is never known to be healed.
        bound = std::max(std::min(next, bound), std::numeric_limits<double>::min());
        return;
    }
    bound = next < kZeroFloor ? 0.0 : std::min(next, bound);
}

void SnowField::step(std::span<const DeformerInstance> deformers, double dtSeconds,
                     gpu::PassTimer* timer) {
    if (!enabled_)
        return;
    ownBatch_.prepare(deformers);
    step(ownBatch_, dtSeconds, timer);
}

void SnowField::step(DeformerBatch& batch, double dtSeconds, gpu::PassTimer* timer) {
    if (!enabled_)
        return;
    gpu::runPasses(planStep(batch, batch.instances(), dtSeconds).passes, timer);
}

void SnowField::reset() {
    if (!enabled_)
        return;
    for (auto& sim : sims_)
        sim.reset();
    for (auto& extras : extra_)
        for (auto& extra : extras) {
            extra->sim.reset();
            extra->healBound = 0.0;
        }
    for (auto& world : worlds_)
        if (world)
            world->reset();
    for (auto& snowpack : snowpacks_)
        if (snowpack)
            snowpack->reset();
    healBound_ = {};
    for (int i = 0; i < simCount(); ++i)
        tagStepsLeft_[i] = effective_.sims[i].format == BufferFormat::RGBA16F ? 1 : 0;
}

std::size_t SnowField::bytes() const {
    std::size_t total = 0;
    for (const auto& capture : captures_)
        total += capture->bytes();
    for (const SnowSim& sim : sims_)
        total += sim.bytes();
    for (const auto& snowpack : snowpacks_)
        total += snowpack ? snowpack->bytes() : 0;
    for (const auto& extras : extra_)
        for (const auto& extra : extras)
            total += extra->sim.bytes();
    return total;
}

} // namespace snowcap
