#pragma once
// Things that press into the snow: a mesh and how it moves over time. No GL.

#include "core/settings.hpp"
#include "scene/mesh.hpp"

#include <filesystem>
#include <glm/mat4x4.hpp>
#include <string>
#include <variant>
#include <vector>

namespace snowcap {

struct Deformer {
    std::string name;
    Mesh mesh;
    std::vector<DeformerSettings::Key> path; // linear between keys, held outside

    glm::vec3 positionAt(double timeS) const;
    glm::mat4 modelAt(double timeS) const;
};

// Builds the procedural deformer a scenario describes (its `mesh` is ignored).
Deformer makeDeformer(const DeformerSettings& settings);

// Builds the deformer a scenario describes, importing its mesh file if it names one (relative
// paths from `root`). Fails with the importer's one-line reason.
std::variant<Deformer, std::string> loadDeformer(const DeformerSettings& settings,
                                                 const std::filesystem::path& root);

} // namespace snowcap
