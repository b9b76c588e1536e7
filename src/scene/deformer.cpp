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
    glm::mat4 model = glm::translate(glm::mat4(1.0f), positionAt(timeS));
    if (facePath) {
        // Face along the motion: the direction over the next 50 ms (or the last, at the end).
        glm::vec3 motion = positionAt(timeS + 0.05) - positionAt(timeS);
        if (glm::length(glm::vec2(motion)) < 1e-4f)
            motion = positionAt(timeS) - positionAt(timeS - 0.05);
        if (glm::length(glm::vec2(motion)) > 1e-4f)
            model = glm::rotate(model, std::atan2(motion.y, motion.x), glm::vec3(0, 0, 1));
    }
    return model;
}

std::vector<glm::mat4> Deformer::skinningAt(double timeS) const {
    if (!skin)
        return {};
    return skinningMatrices(skin->skeleton, &skin->clip, timeS * skin->speed, true);
}

Deformer makeDeformer(const DeformerSettings& settings) {
    Deformer deformer;
    deformer.name = settings.name;
    deformer.path = settings.path;
    deformer.facePath = settings.facePath;
    deformer.contact = settings.contact;
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
    ImportedModel& model = std::get<ImportedModel>(imported);
    Deformer deformer;
    deformer.name = settings.name;
    deformer.path = settings.path;
    deformer.facePath = settings.facePath;
    deformer.contact = settings.contact;
    deformer.mesh = std::move(model.mesh);
    if (!settings.clip.empty()) {
        const AnimationClip* clip = model.findClip(settings.clip);
        if (!model.skinned() || !clip)
            return "deformer '" + settings.name + "': " + file.string() + " has no clip '" +
                   settings.clip + "'" + (model.skinned() ? "" : " (the mesh is not skinned)");
        deformer.skin = DeformerSkin{std::move(model.joints), std::move(model.weights),
                                     std::move(model.skeleton), *clip, settings.clipSpeed};
    }
    return deformer;
}

} // namespace snowcap
