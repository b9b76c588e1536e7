#pragma once
// Things that press into the snow: a mesh and how it moves over time. No GL.

#include "core/settings.hpp"
#include "scene/mesh.hpp"
#include "scene/skeleton.hpp"

#include <filesystem>
#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

// A skinned mesh's animation: up to four joints per vertex, played on the GPU in every pass.
struct DeformerSkin {
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
    Skeleton skeleton;
    AnimationClip clip;
    double speed = 1.0;
};

struct Deformer {
    std::string name;
    Mesh mesh;
    std::vector<DeformerSettings::Key> path; // linear between keys, held outside
    bool facePath = false;
    ContactType contact = ContactType::Other;
    std::optional<DeformerSkin> skin;

    glm::vec3 positionAt(double timeS) const;
    glm::mat4 modelAt(double timeS) const;
    // Joint matrices (global x inverse bind) at `timeS`; empty for a rigid deformer.
    std::vector<glm::mat4> skinningAt(double timeS) const;
};

// Builds the procedural deformer a scenario describes (its `mesh` is ignored).
Deformer makeDeformer(const DeformerSettings& settings);

// Builds the deformer a scenario describes, importing its mesh file if it names one (relative
// paths from `root`). Fails with the importer's one-line reason.
std::variant<Deformer, std::string> loadDeformer(const DeformerSettings& settings,
                                                 const std::filesystem::path& root);

} // namespace snowcap
