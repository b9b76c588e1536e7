#include "scene/deformer.hpp"

#include "scene/model_import.hpp"

#include <glm/gtc/matrix_transform.hpp>

namespace snowcap {

glm::vec3 Deformer::positionAt(double timeS) const {
    if (path.empty())
        return glm::vec3(0.0f);
    if (timeS <= path.front().timeS)
        return path.front().positionCm;
    // The last key at or before t wins ties, so two keys with equal times make a jump.
    for (std::size_t i = path.size() - 1; i > 0; --i) {
        const auto& a = path[i - 1];
        const auto& b = path[i];
        if (timeS >= b.timeS) {
            return b.positionCm;
        }
        if (timeS >= a.timeS) {
            const double span = b.timeS - a.timeS;
            const float f = span > 0.0 ? float((timeS - a.timeS) / span) : 1.0f;
            return glm::mix(a.positionCm, b.positionCm, f);
        }
    }
    return path.front().positionCm;
}

glm::mat4 Deformer::modelAt(double timeS) const {
    return glm::translate(glm::mat4(1.0f), positionAt(timeS));
}

Deformer makeDeformer(const DeformerSettings& settings) {
    Deformer deformer;
    deformer.name = settings.name;
    deformer.path = settings.path;
    switch (settings.shape) {
    case DeformerShape::Sphere:
        deformer.mesh = makeSphere(settings.sizeCm.x);
        break;
    case DeformerShape::Box:
        deformer.mesh = makeBox(settings.sizeCm);
        break;
    case DeformerShape::Capsule:
        deformer.mesh = makeCapsule(settings.sizeCm.x, settings.sizeCm.y);
        break;
    }
    return deformer;
}

std::variant<Deformer, std::string> loadDeformer(const DeformerSettings& settings,
                                                 const std::filesystem::path& root) {
    if (settings.mesh.empty())
        return makeDeformer(settings);
    const std::filesystem::path file = std::filesystem::path(settings.mesh).is_absolute()
                                           ? std::filesystem::path(settings.mesh)
                                           : root / settings.mesh;
    ImportOptions options;
    options.fitHeightCm = settings.fitHeightCm;
    options.rotationDeg = settings.rotationDeg;
    auto imported = importModel(file, options);
    if (auto* error = std::get_if<std::string>(&imported))
        return "deformer '" + settings.name + "': " + *error;
    Deformer deformer;
    deformer.name = settings.name;
    deformer.path = settings.path;
    deformer.mesh = std::move(std::get<ImportedModel>(imported).mesh);
    return deformer;
}

} // namespace snowcap
