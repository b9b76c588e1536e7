#include "scene/foliage.hpp"

#include "core/param_range.hpp"
#include "scene/model_import.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/gtc/matrix_transform.hpp>
#include <unordered_map>

namespace snowcap {
namespace {

constexpr double kPi = 3.14159265358979323846;

// splitmix64: a small generator whose sequence is fixed by the seed on every platform
// (std::uniform_real_distribution is not), so a seed always grows the same meadow.
struct Random {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; } // [0, 1)
};

// A grid of cells one spacing wide: a candidate only looks at the 3 x 3 cells round it.
struct SpacingGrid {
    double cellCm;
    std::unordered_map<std::int64_t, std::vector<glm::dvec2>> cells;
    std::int64_t keyOf(std::int64_t x, std::int64_t y) const { return x * 73856093 ^ y * 19349663; }
    std::int64_t cellOf(double v) const { return std::int64_t(std::floor(v / cellCm)); }
    bool free(glm::dvec2 p) const {
        const std::int64_t cx = cellOf(p.x), cy = cellOf(p.y);
        for (std::int64_t y = cy - 1; y <= cy + 1; ++y)
            for (std::int64_t x = cx - 1; x <= cx + 1; ++x) {
                const auto found = cells.find(keyOf(x, y));
                if (found == cells.end())
                    continue;
                for (const glm::dvec2& q : found->second)
                    if (glm::dot(p - q, p - q) < cellCm * cellCm)
                        return false;
            }
        return true;
    }
    void add(glm::dvec2 p) { cells[keyOf(cellOf(p.x), cellOf(p.y))].push_back(p); }
};

} // namespace

std::variant<std::vector<FoliagePlant>, FoliageError>
scatterFoliage(const FoliageSettings& settings, const std::string& key, long maxPlants) {
    const double width = settings.sizeCm[0], depth = settings.sizeCm[1];
    const long count = settings.densityPerM2 > 0.0
                           ? std::lround(settings.densityPerM2 * width * depth * 1e-4)
                           : settings.count;
    if (count > maxPlants)
        return FoliageError{key + ".density_per_m2",
                            show(settings.densityPerM2) + " per m^2 over " + show(width) + " x " +
                                show(depth) + " cm is " + std::to_string(count) +
                                " plants (limit import.max_plants = " + std::to_string(maxPlants) +
                                ")"};
    Random random{std::uint64_t(settings.seed) * 0x2545F4914F6CDD1Dull + 1};
    const glm::dvec2 low(settings.centreCm[0] - 0.5 * width, settings.centreCm[1] - 0.5 * depth);
    const double spacing = settings.minSpacingCm;
    SpacingGrid grid{spacing > 0.0 ? spacing : 1.0, {}};
    std::vector<FoliagePlant> plants;
    plants.reserve(std::size_t(count));
    constexpr int kDrawsPerPlant = 30;
    for (long i = 0; i < count; ++i) {
        bool placed = false;
        for (int draw = 0; draw < kDrawsPerPlant && !placed; ++draw) {
            const glm::dvec2 p =
                low + glm::dvec2(random.uniform() * width, random.uniform() * depth);
            if (spacing > 0.0 && !grid.free(p))
                continue;
            if (spacing > 0.0)
                grid.add(p);
            FoliagePlant plant;
            plant.rootCm = glm::vec2(p);
            plant.yawRad = float(random.uniform() * settings.yawSpreadDeg * kPi / 180.0);
            plant.scale =
                float(settings.scaleRange[0] +
                      random.uniform() * (settings.scaleRange[1] - settings.scaleRange[0]));
            plant.phaseRad = float(random.uniform() * 2.0 * kPi);
            plants.push_back(plant);
            placed = true;
        }
        if (!placed)
            return FoliageError{key + ".min_spacing_cm",
                                "only " + std::to_string(plants.size()) + " of " +
                                    std::to_string(count) + " plants fit " + show(spacing) +
                                    " cm apart in " + show(width) + " x " + show(depth) + " cm"};
    }
    return plants;
}

void Foliage::standOn(const HeightField* terrain) {
    const bool hills = terrain && !terrain->flat();
    for (FoliagePlant& plant : plants)
        plant.terrainCm = hills ? float(terrain->heightCm(plant.rootCm.x, plant.rootCm.y)) : 0.0f;
}

glm::mat4 Foliage::modelOf(const FoliagePlant& plant) const {
    return glm::translate(glm::mat4(1.0f), rootOf(plant)) *
           glm::rotate(glm::mat4(1.0f), plant.yawRad, glm::vec3(0, 0, 1)) *
           glm::scale(glm::mat4(1.0f), glm::vec3(plant.scale));
}

glm::vec4 Foliage::swayOf(const FoliagePlant& plant) const {
    return {plant.phaseRad, stiffness, heightCm, maxLean};
}

float Foliage::reachCm(const FoliagePlant& plant) const {
    const Aabb box = mesh.bounds();
    const float halfWidth = std::max({-box.min.x, box.max.x, -box.min.y, box.max.y});
    return plant.scale * (std::sqrt(2.0f) * halfWidth + maxLean * heightCm);
}

std::filesystem::path foliageMeshFile(const std::string& mesh, const std::filesystem::path& root) {
    if (mesh == "grass_tuft" || mesh == "bush")
        return root / "assets" / "meshes" / (mesh + ".glb");
    const std::filesystem::path file(mesh);
    return file.is_absolute() ? file : root / file;
}

std::variant<Foliage, FoliageError> loadFoliage(const FoliageSettings& settings,
                                                const std::string& key,
                                                const std::filesystem::path& root, double groundZCm,
                                                const ImportSettings& limits) {
    const std::string who = "foliage '" + settings.name + "': ";
    auto scattered = scatterFoliage(settings, key, limits.maxPlants);
    if (auto* error = std::get_if<FoliageError>(&scattered))
        return FoliageError{error->key, who + error->reason};
    const auto meshError = [&](std::string reason) {
        return FoliageError{key + ".mesh", who + std::move(reason)};
    };
    ImportOptions options;
    options.limits = {limits.maxMemoryMiB, limits.maxSeconds};
    const std::filesystem::path file = foliageMeshFile(settings.mesh, root);
    auto imported = importModel(file, options);
    if (auto* error = std::get_if<std::string>(&imported))
        return meshError(*error);
    ImportedModel& model = std::get<ImportedModel>(imported);
    if (model.skinned())
        return meshError(file.string() + " is skinned; foliage sways static meshes");
    Foliage foliage;
    foliage.name = settings.name;
    foliage.mesh = std::move(model.mesh);
    const Aabb box = foliage.mesh.bounds();
    foliage.heightCm = box.max.z - box.min.z;
    if (!(foliage.heightCm > 0.0f))
        return meshError(file.string() + " is flat in Z: a plant needs a height to sway");
    foliage.stiffness = float(settings.stiffness);
    foliage.maxLean = float(settings.maxLean);
    foliage.contact = settings.contact;
    foliage.groundZCm = float(groundZCm);
    foliage.plants = std::move(std::get<std::vector<FoliagePlant>>(scattered));
    return foliage;
}

} // namespace snowcap
