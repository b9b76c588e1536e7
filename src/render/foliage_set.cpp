#include "render/foliage_set.hpp"

#include <algorithm>

namespace snowcap {

FoliageSet::FoliageSet(std::vector<Foliage> foliage, const WindSettings& wind)
    : foliage_(std::move(foliage)), wind_(wind) {
    meshes_.reserve(foliage_.size());
    for (const Foliage& entry : foliage_)
        // No capture proxy: a blade is thinner than the proxy's error bound, and a
        // simplified blade would bend differently from the one the colour pass
        // draws.
        meshes_.emplace_back(entry.mesh, "foliage." + entry.name);
    measureBounds();
}

void FoliageSet::measureBounds() {
    bounds_.clear();
    for (const Foliage& entry : foliage_) {
        std::vector<Aabb>& boxes = bounds_.emplace_back();
        boxes.reserve(entry.plants.size());
        for (const FoliagePlant& plant : entry.plants) {
            const float reach = entry.reachCm(plant);
            const glm::vec3 root = entry.rootOf(plant);
            boxes.push_back({root - glm::vec3(reach, reach, 0.0f),
                             root + glm::vec3(reach, reach, plant.scale * entry.heightCm)});
        }
    }
}

void FoliageSet::standOn(const HeightField* terrain) {
    for (Foliage& entry : foliage_)
        entry.standOn(terrain);
    measureBounds();
}

std::size_t FoliageSet::plantCount() const {
    std::size_t count = 0;
    for (const Foliage& entry : foliage_)
        count += entry.plants.size();
    return count;
}

std::vector<WindPusher> FoliageSet::pushersOf(std::span<const DeformerInstance> deformers) {
    std::vector<WindPusher> pushers;
    for (const DeformerInstance& deformer : deformers) {
        if (!deformer.mesh || deformer.sway != glm::vec4(0.0f))
            continue; // hidden deformers and the plants themselves push nothing
        const Aabb& box = deformer.worldBounds;
        const glm::vec2 half = 0.5f * glm::vec2(box.max - box.min);
        pushers.push_back(
            {0.5f * glm::vec2(box.min + box.max), box.min.z, 0.5f * (half.x + half.y)});
    }
    if (pushers.size() > std::size_t(kMaxWindPushers))
        pushers.resize(std::size_t(kMaxWindPushers)); // the scenario's first deformers
    return pushers;
}

void FoliageSet::appendInstances(double timeS, std::span<const DeformerInstance> deformers,
                                 std::vector<DeformerInstance>& out) {
    if (foliage_.empty())
        return;
    const std::vector<WindPusher> pushers = pushersOf(deformers);
    buffer_.upload(windAt(wind_, timeS, pushers));
    buffer_.bind(); // binding 6 belongs to the wind alone, so it holds for every
                    // pass
    for (std::size_t f = 0; f < foliage_.size(); ++f) {
        const Foliage& entry = foliage_[f];
        for (std::size_t p = 0; p < entry.plants.size(); ++p) {
            DeformerInstance instance;
            instance.mesh = &meshes_[f];
            instance.model = entry.modelOf(entry.plants[p]);
            instance.worldBounds = bounds_[f][p];
            instance.contact = entry.contact;
            instance.sway = entry.swayOf(entry.plants[p]);
            out.push_back(instance);
        }
    }
}

} // namespace snowcap
