#include "snow/snow_field.hpp"

#include "core/paths.hpp"
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

std::optional<std::string> SnowField::setTerrain(std::shared_ptr<const HeightField> terrain) {
    const auto flat = [](const std::shared_ptr<const HeightField>& field) {
        return !field || field->flat();
    };
    const bool wasFlat = flat(terrain_);
    terrain_ = std::move(terrain);
    assignCaptures();
    // The snowpack sims lie on the terrain (their slump, cover and sun): from flat to flat
    // nothing of theirs changes, and they are left exactly as they were.
    if (!enabled_ || (wasFlat && flat(terrain_)))
        return std::nullopt;
    return configureSnowpacks();
}

CaptureKey SnowField::captureKey(int simIndex, glm::dvec2 centreCm) const {
    CaptureKey key = simCaptureKey(effective_, simIndex);
    key.region.centreCm = centreCm;
    if (terrain_ && !terrain_->flat() &&
        effective_.sims[simIndex].captureReference == CaptureReference::Terrain) {
        key.terrain = terrain_;
        // The subset's ceiling is a flat height; over terrain every instance draws whole.
        key.subsetCeilingCm = std::numeric_limits<double>::infinity();
        key.terrainSpanCm = captureTerrainSpan(key);
    }
    return key;
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
SnowField::create(const Settings& settings, gpu::ShaderLibrary& shaders,
                  std::vector<std::string> instanceNames) {
    std::unique_ptr<SnowField> field(new SnowField(shaders));
    field->instanceNames_ = std::move(instanceNames);
    auto program = shaders.load(contactCaptureProgram());
    if (auto* error = std::get_if<std::string>(&program))
        return *error;
    field->captureProgram_ = std::get<gpu::ShaderProgram*>(program);
    auto terrainProgram = shaders.load(contactCaptureProgram(true));
    if (auto* error = std::get_if<std::string>(&terrainProgram))
        return *error;
    field->captureTerrainProgram_ = std::get<gpu::ShaderProgram*>(terrainProgram);
    for (int bilinear = 0; bilinear < 2; ++bilinear) {
        auto shift = shaders.load(regionShiftProgram(bilinear != 0));
        if (auto* error = std::get_if<std::string>(&shift))
            return *error;
        field->shiftProgram_[bilinear] = std::get<gpu::ShaderProgram*>(shift);
    }
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
            simCount() > 0 && sim(0).persistent().id() ? sim(0).region().resolution : 0;
        return "snow.resolution " + std::to_string(settings.snow.resolution) + ": " + error +
               (kept ? "; keeping " + std::to_string(kept) + "²" : "");
    }
    // Shaders first: if a variant fails to build, nothing has changed yet.
    if (enabled)
        if (auto loaded = shaders_.loadAll(accumulatePrograms(settings));
            auto* error = std::get_if<std::string>(&loaded))
            return *error;
    auto observers = resolveObservers(settings, instanceNames_);
    if (auto* error = std::get_if<std::string>(&observers))
        return *error;
    if (auto error = worldSettingsError(settings))
        return error;
    if (auto error = snowpackSettingsError(settings))
        return error;

    // The ground's texture is read (once a file) before anything changes: a file that cannot
    // be the ground is one line, and the field keeps the ground it had.
    auto ground = GroundTexture::prepare(settings.ground, resourceRoot(), ground_);
    if (auto* error = std::get_if<std::string>(&ground))
        return *error;

    // A following window keeps its place across live edits that leave its size alone; any
    // other starts at the configured centre.
    for (int i = 0; i < std::min(count, simCount()); ++i) {
        const Region configured = simRegion(settings, i);
        for (const auto& window : windows_[i]) {
            const Region& region = window->sim.region();
            const bool keep = follows(settings.sims[i]) && follows(window->sim.settings()) &&
                              region.widthCm == configured.widthCm &&
                              region.resolution == configured.resolution;
            if (!keep)
                window->centre = configured.centreCm;
        }
    }
    settings_ = given;
    effective_ = settings;
    ground_ = std::get<std::shared_ptr<const GroundTexture>>(std::move(ground));
    observers_ = std::get<std::vector<int>>(std::move(observers));
    enabled_ = enabled;
    resizeSims(count);

    if (!enabled) {
        // Fold to zero: no capture, no sim texture; the sims keep only their parameters (and
        // one window each).
        captures_.clear();
        for (int i = 0; i < count; ++i) {
            windows_[i].resize(1);
            SimWindow& window = windowAt(i, 0);
            Region region = simRegion(settings, i);
            region.centreCm = window.centre;
            window.sim.configureOff(settings, region);
            window.capture = 0;
            window.healBound = 0.0;
            window.tagStepsLeft = 0;
            window.observer = observers_[0];
            window.sim.attachSnowpack(nullptr);
            worlds_[i].reset();
            snowpacks_[i].reset();
        }
        linkWorlds();
        return std::nullopt;
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
        windows_.pop_back();
        snowpacks_[simCount()].reset();
    }
    while (simCount() < count) {
        const int i = simCount();
        windows_.emplace_back();
        windows_[i].push_back(std::make_unique<SimWindow>(std::string(simName(i)), i,
                                                          simRegion(effective_, i).centreCm));
    }
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
        for (const auto& window : windows_[i]) {
            const CaptureKey key = captureKey(i, window->centre);
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
            window->capture = static_cast<int>(same - captures_.begin());
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
            const int followed = simWindow(i, w).observer;
            if (followed < 0 || followed >= static_cast<int>(deformers.size()))
                continue;
            const Aabb& bounds = deformers[followed].worldBounds;
            const glm::dvec2 target = (glm::dvec2(bounds.min) + glm::dvec2(bounds.max)) * 0.5;
            const glm::dvec2 centre = simWindow(i, w).centre;
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
    const glm::dvec2 from = window(move.sim, move.window).region().centreCm;
    moveWindow(move.sim, move.window, move.next,
               *shiftProgram_[mode == RegionMode::FollowNaive ? 1 : 0]);
    // A snowpack's state moves with its one window, by whole texels (follow_snapped only:
    // snowpackSettingsError), carrying what leaves and enters through its budget.
    if (SnowpackSim* snowpack = snowpacks_[move.sim].get()) {
        const double texelCm = simRegion(effective_, move.sim).texelCm();
        const glm::dvec2 offset = glm::round(shiftOffsetTexels(from, move.next, texelCm));
        snowpack->shift(glm::ivec2(offset), move.next);
    }
    // The bilinear resample rounds to half: allow its half ulp in the bound.
    if (mode == RegionMode::FollowNaive)
        windowAt(move.sim, move.window).healBound *= 1.0 + 1.0 / 1024.0;
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
    advance(batch.instances());
    gpu::runPasses(planStep(batch, batch.instances(), dtSeconds).passes, timer);
}

void SnowField::reset() {
    if (!enabled_)
        return;
    for (auto& windows : windows_)
        for (auto& window : windows) {
            window->sim.reset();
            window->healBound = 0.0;
            // A cleared rgba16f texel must take the untouched value on the first step.
            window->tagStepsLeft = window->sim.settings().format == BufferFormat::RGBA16F ? 1 : 0;
        }
    for (auto& world : worlds_)
        if (world)
            world->reset();
    for (auto& snowpack : snowpacks_)
        if (snowpack)
            snowpack->reset();
}

std::size_t SnowField::bytes() const {
    std::size_t total = 0;
    for (const auto& capture : captures_)
        total += capture->bytes();
    for (const auto& windows : windows_)
        for (const auto& window : windows)
            total += window->sim.bytes();
    for (const auto& snowpack : snowpacks_)
        total += snowpack ? snowpack->bytes() : 0;
    return total;
}

} // namespace snowcap
